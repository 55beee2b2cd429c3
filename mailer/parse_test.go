package mailer

import (
	"strings"
	"testing"
)

func TestParseMessage(t *testing.T) {
	crlf := func(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }
	tests := []struct {
		name                        string
		raw                         []byte
		subject, id, text, htmlPart string
	}{
		{
			name: "single part quoted-printable with encoded subject",
			raw: crlf(`Subject: =?UTF-8?q?R=C3=A9initialisez?=
Message-ID: <a@kudos>
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: quoted-printable

caf=C3=A9 https://x/reset-password?token=3D1
`),
			subject: "Réinitialisez", id: "<a@kudos>", text: "café https://x/reset-password?token=1\n",
		},
		{
			name: "nested multipart with base64 html",
			raw: crlf(`Subject: Hi
Content-Type: multipart/mixed; boundary=outer

--outer
Content-Type: multipart/alternative; boundary=inner

--inner
Content-Type: text/plain; charset=UTF-8

plain
--inner
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: base64

PHA+aHRtbDwv
cD4=
--inner--
--outer
Content-Type: text/plain
Content-Disposition: attachment; filename=x.txt

ignored
--outer--
`),
			subject: "Hi", text: "plain", htmlPart: "<p>html</p>",
		},
		{
			name:    "no content type defaults to text",
			raw:     crlf("Subject: x\n\nbody\n"),
			subject: "x", text: "body\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseMessage(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			want := parsedMessage{subject: tt.subject, messageID: tt.id, text: tt.text, html: tt.htmlPart}
			if p != want {
				t.Errorf("got %+v\nwant %+v", p, want)
			}
		})
	}
}

func TestParseMessageRejectsGarbage(t *testing.T) {
	if _, err := parseMessage([]byte("no header separator")); err == nil {
		t.Error("want an error")
	}
}
