package mailer

import (
	"strings"
	"testing"

	"kudos"
)

// testLinks holds a realistic call-to-action link per purpose.
var testLinks = map[kudos.MailPurpose]string{
	kudos.MailActivation:      "https://app.kudos.localhost/confirm-email?token=act-123",
	kudos.MailSignupExisting:  "https://app.kudos.localhost/sign-in",
	kudos.MailPasswordReset:   "https://app.kudos.localhost/reset-password?token=rst-456",
	kudos.MailEmailChanged:    "",
	kudos.MailPasswordChanged: "",
	kudos.MailMFARecoveryUsed: "",
}

var allPurposes = []kudos.MailPurpose{
	kudos.MailActivation, kudos.MailSignupExisting, kudos.MailPasswordReset, kudos.MailEmailChanged, kudos.MailPasswordChanged,
	kudos.MailMFARecoveryUsed,
}

func request(p kudos.MailPurpose, lang string) kudos.MailRequest {
	return kudos.MailRequest{
		Key: "k-" + string(p) + "-" + lang, Purpose: p, To: "ann@example.com",
		Language: lang, Name: "Ann", Link: testLinks[p],
	}
}

func TestRenderEveryPurposeAndLanguage(t *testing.T) {
	for _, p := range allPurposes {
		for _, lang := range languages {
			t.Run(string(p)+"/"+lang, func(t *testing.T) {
				req := request(p, lang)
				msg, err := Render(req)
				if err != nil {
					t.Fatalf("Render: %v", err)
				}
				if want := "<" + req.Key + "@kudos>"; msg.ID != want {
					t.Errorf("ID = %q, want %q", msg.ID, want)
				}
				if msg.To != req.To || msg.Subject == "" || strings.Contains(msg.Subject, "\n") {
					t.Errorf("To = %q, Subject = %q", msg.To, msg.Subject)
				}
				if !strings.Contains(msg.Text, "Ann") || !strings.Contains(msg.HTML, "Ann") {
					t.Errorf("name missing from text or HTML")
				}
				if !strings.Contains(msg.HTML, `<html lang="`+lang+`">`) {
					t.Errorf("HTML is not marked as %s", lang)
				}
				if req.Link != "" {
					if !strings.Contains(msg.Text, "\n"+req.Link+"\n") {
						t.Errorf("text lacks the link on its own line:\n%s", msg.Text)
					}
					if !strings.Contains(msg.HTML, `<a href="`+req.Link+`"`) {
						t.Errorf("HTML lacks <a href> to the link:\n%s", msg.HTML)
					}
				}
				if strings.Contains(msg.Text, "<no value>") || strings.Contains(msg.HTML, "ZgotmplZ") {
					t.Errorf("template produced a placeholder:\n%s\n%s", msg.Text, msg.HTML)
				}
			})
		}
	}
}

func TestRenderExpiryIsStated(t *testing.T) {
	tests := []struct {
		name    string
		purpose kudos.MailPurpose
		want    map[string]string
	}{
		{"activation 48 hours", kudos.MailActivation, map[string]string{"en": "48 hours", "nl": "48 uur", "fr": "48 heures"}},
		{"reset 1 hour", kudos.MailPasswordReset, map[string]string{"en": "1 hour", "nl": "1 uur", "fr": "1 heure"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for lang, want := range tt.want {
				msg, err := Render(request(tt.purpose, lang))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(msg.Text, want) || !strings.Contains(msg.HTML, want) {
					t.Errorf("%s: %q missing", lang, want)
				}
			}
		})
	}
}

func TestRenderSubjectsDifferByLanguage(t *testing.T) {
	for _, p := range allPurposes {
		t.Run(string(p), func(t *testing.T) {
			seen := map[string]string{}
			for _, lang := range languages {
				msg, err := Render(request(p, lang))
				if err != nil {
					t.Fatal(err)
				}
				if other, ok := seen[msg.Subject]; ok {
					t.Errorf("%s and %s share subject %q", lang, other, msg.Subject)
				}
				seen[msg.Subject] = lang
			}
		})
	}
}

func TestRenderLanguageFallback(t *testing.T) {
	tests := []struct {
		name, lang, want string
	}{
		{"empty is English", "", "en"},
		{"unsupported is English", "de", "en"},
		{"region and case are ignored", "NL-be", "nl"},
		{"underscore region", "fr_CA", "fr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(request(kudos.MailActivation, tt.lang))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Render(request(kudos.MailActivation, tt.want))
			if got.Subject != want.Subject {
				t.Errorf("subject %q, want %q", got.Subject, want.Subject)
			}
		})
	}
}

func TestRenderEscapesUserDataInHTML(t *testing.T) {
	req := request(kudos.MailActivation, "en")
	req.Name = `<script>alert("x")</script>`
	msg, err := Render(req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.HTML, "<script>") {
		t.Errorf("HTML contains the raw script tag:\n%s", msg.HTML)
	}
	if !strings.Contains(msg.HTML, "&lt;script&gt;") {
		t.Errorf("HTML lacks the escaped name:\n%s", msg.HTML)
	}
	if !strings.Contains(msg.Text, req.Name) {
		t.Errorf("text part should carry the name as typed")
	}
}

func TestRenderWithoutName(t *testing.T) {
	req := request(kudos.MailEmailChanged, "en")
	req.Name = "  "
	msg, err := Render(req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(msg.Text, "Hello,\n") {
		t.Errorf("text starts with %q", msg.Text[:20])
	}
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name string
		req  kudos.MailRequest
	}{
		{"unknown purpose", kudos.MailRequest{Key: "k", Purpose: "newsletter", To: "a@b.c", Link: "https://x"}},
		{"empty purpose", kudos.MailRequest{Key: "k", To: "a@b.c"}},
		{"activation without link", kudos.MailRequest{Key: "k", Purpose: kudos.MailActivation, To: "a@b.c"}},
		{"reset with blank link", kudos.MailRequest{Key: "k", Purpose: kudos.MailPasswordReset, To: "a@b.c", Link: " "}},
		{"signup existing without link", kudos.MailRequest{Key: "k", Purpose: kudos.MailSignupExisting, To: "a@b.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(tt.req)
			if code := kudos.ErrorCode(err); code != kudos.EInvalid {
				t.Errorf("code = %q (err %v), want %q", code, err, kudos.EInvalid)
			}
		})
	}
}

// TestNamesCarryNoLinksInAnyCase: mail clients link domains and schemes
// whatever their case, and international domains in their own script, in
// punycode or with an ideographic full stop (issue 27 item 10: only lower
// case was stripped).
func TestNamesCarryNoLinksInAnyCase(t *testing.T) {
	for _, name := range []string{"Ann EVIL.EXAMPLE", "Ann Visit Evil.Com", "Ann WWW.EVIL.EXAMPLE", "Ann HTTPS://EVIL.EXAMPLE",
		"Ann Mail@EVIL.EXAMPLE", "Ann evil.рф", "Ann EVIL.XN--P1AI", "Ann evil.xn--p1ai", "Ann evil。example",
		"Ann evil．example", "Ann bücher.de"} {
		req := request(kudos.MailEmailChanged, "en")
		req.Name = name
		msg, err := Render(req)
		if err != nil {
			t.Fatal(err)
		}
		lower := strings.ToLower(msg.Text + msg.HTML)
		if strings.Contains(lower, "evil") || strings.Contains(lower, "bücher") || !strings.Contains(msg.Text, "Ann") {
			t.Errorf("%q rendered as:\n%s", name, msg.Text)
		}
	}
	for _, name := range []string{"J.R.R. Tolkien", "Zoë O'Brien-Smith"} {
		if got := mailName(name); got != name {
			t.Errorf("mailName(%q) = %q, want it unchanged", name, got)
		}
	}
}

// TestNamesCarryNoLinks: a name is shown in mails sent to any address (a
// sign-up takes anyone's), so nothing in it may become a link.
func TestNamesCarryNoLinks(t *testing.T) {
	for _, name := range []string{"Ann visit evil.example", "Ann https://evil.example/x", "Ann www.evil.example", "Ann mail@evil.example", "Ann\u202eevil.example"} {
		req := request(kudos.MailEmailChanged, "en")
		req.Name = name
		msg, err := Render(req)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(msg.Text, "evil") || strings.Contains(msg.HTML, "evil") || !strings.Contains(msg.Text, "Ann") {
			t.Errorf("%q rendered as:\n%s", name, msg.Text)
		}
	}
}

// TestMFARecoveryUsedGolden compares the mfa_recovery_used mail with
// testdata/golden/mfa_recovery_used.<lang>.txt.
func TestMFARecoveryUsedGolden(t *testing.T) {
	for _, lang := range languages {
		msg, err := Render(request(kudos.MailMFARecoveryUsed, lang))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "mfa_recovery_used."+lang, msg)
	}
}
