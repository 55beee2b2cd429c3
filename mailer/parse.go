package mailer

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"net/textproto"
	"strings"

	"kudos"
)

// maxMIMEDepth bounds the nesting of multipart bodies the inbox follows
// (mixed → related → alternative is as deep as real mails go).
const maxMIMEDepth = 8

// parsedMessage is what the inbox keeps of a raw mail.
type parsedMessage struct {
	subject   string
	messageID string
	purpose   string
	text      string
	html      string
}

// parseMessage reads a raw RFC 5322 mail and extracts its decoded subject
// and its first text/plain and text/html parts, whatever the nesting and
// transfer encoding. Attachments and other parts are ignored.
func parseMessage(raw []byte) (parsedMessage, error) {
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return parsedMessage{}, err
	}
	var p parsedMessage
	subject := m.Header.Get("Subject")
	if p.subject, err = new(mime.WordDecoder).DecodeHeader(subject); err != nil {
		p.subject = subject
	}
	p.messageID = strings.TrimSpace(m.Header.Get("Message-Id"))
	p.purpose = strings.TrimSpace(m.Header.Get(kudos.HeaderMailPurpose))
	if err := p.walk(textproto.MIMEHeader(m.Header), m.Body, 0); err != nil {
		return parsedMessage{}, err
	}
	return p, nil
}

// walk descends into one MIME entity with header h and body.
func (p *parsedMessage) walk(h textproto.MIMEHeader, body io.Reader, depth int) error {
	mediaType, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		mediaType = "text/plain" // RFC 2045's default, also for a garbled header
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		if depth >= maxMIMEDepth {
			return nil
		}
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return nil
			} else if err != nil {
				return fmt.Errorf("multipart: %w", err)
			}
			if err := p.walk(part.Header, part, depth+1); err != nil {
				return err
			}
		}
	}
	if mediaType != "text/plain" && mediaType != "text/html" {
		return nil
	}
	if d, _, _ := mime.ParseMediaType(h.Get("Content-Disposition")); d == "attachment" {
		return nil
	}
	content, err := io.ReadAll(decodeTransfer(h.Get("Content-Transfer-Encoding"), body))
	if err != nil {
		return fmt.Errorf("%s part: %w", mediaType, err)
	}
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	switch {
	case mediaType == "text/plain" && p.text == "":
		p.text = s
	case mediaType == "text/html" && p.html == "":
		p.html = s
	}
	return nil
}

// decodeTransfer undoes a Content-Transfer-Encoding. multipart.Reader already
// decodes quoted-printable parts (and drops the header), so this matters for
// base64 parts and for single-part mails.
func decodeTransfer(encoding string, r io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	case "base64":
		// The decoder skips the CR and LF that wrap encoded lines.
		return base64.NewDecoder(base64.StdEncoding, r)
	default:
		return r
	}
}
