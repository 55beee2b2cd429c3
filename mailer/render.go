// Package mailer renders the product's e-mails and delivers them over SMTP.
//
// Render turns a kudos.MailRequest into a kudos.Message from templates
// embedded in the binary (one text and one HTML variant per purpose and
// language; the billing mails' in billing.<lang>.*, the team mails' in
// team.<lang>.*; amounts and dates written in the mail's language by
// format.go). SMTPSender delivers messages to any SMTP server; Inbox is the
// development capture server that stands in for a real one and keeps what it
// receives in memory for GET /dev/mailbox and for tests.
package mailer

import (
	"bytes"
	"embed"
	htmltemplate "html/template"
	"regexp"
	"strings"
	texttemplate "text/template"
	"unicode"

	"kudos"
)

//go:embed templates
var templateFS embed.FS

// languages are the supported languages; the first is the fallback.
var languages = []string{"en", "nl", "fr"}

// linkRequired tells, for each known purpose, whether the mail is useless
// without a call-to-action link. It doubles as the list of known purposes.
var linkRequired = map[kudos.MailPurpose]bool{
	kudos.MailActivation:      true,
	kudos.MailSignupExisting:  true,
	kudos.MailPasswordReset:   true,
	kudos.MailEmailChanged:    false,
	kudos.MailPasswordChanged: false,
	kudos.MailMFARecoveryUsed: false,

	kudos.MailTrialReminder:         true,
	kudos.MailRenewalReminder:       true,
	kudos.MailPaymentReceipt:        true,
	kudos.MailPaymentFailed:         true,
	kudos.MailPaymentActionRequired: true,
	kudos.MailPlanExpired:           true,
	kudos.MailRefundIssued:          true,

	kudos.MailTeamInvitation:         true,
	kudos.MailTeamInvitationReminder: true,
	kudos.MailTeamInvitationAccepted: true,
	kudos.MailOwnershipTransferred:   true,
	kudos.MailOwnershipReceived:      true,

	kudos.MailDataExportReady:          true,
	kudos.MailAccountDeletionScheduled: true,
	kudos.MailVATIDChecked:             true,
}

// buttonStyle is inlined into every call-to-action link because many mail
// clients ignore <style> blocks.
const buttonStyle = "display:inline-block;padding:12px 24px;background:#4f46e5;color:#ffffff;" +
	"border-radius:6px;text-decoration:none;font-weight:bold;"

// langTemplates holds one language's parsed templates. Subjects and text
// bodies use text/template; HTML bodies use html/template so that user data
// (the name, the link) is escaped for its context.
type langTemplates struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

var (
	layout    = htmltemplate.Must(htmltemplate.ParseFS(templateFS, "templates/layout.html"))
	templates = parseTemplates()
)

// parseTemplates parses every language at start-up so that a broken template
// fails the first test rather than a mail in production.
func parseTemplates() map[string]langTemplates {
	m := make(map[string]langTemplates, len(languages))
	for _, lang := range languages {
		m[lang] = langTemplates{
			text: texttemplate.Must(texttemplate.ParseFS(templateFS, "templates/"+lang+".txt", "templates/billing."+lang+".txt",
				"templates/team."+lang+".txt")),
			html: htmltemplate.Must(htmltemplate.ParseFS(templateFS, "templates/"+lang+".html", "templates/billing."+lang+".html",
				"templates/team."+lang+".html")),
		}
	}
	return m
}

// templateData is what the templates see.
type templateData struct {
	Lang        string
	Name        string
	Link        string
	To          string
	Subject     string
	ButtonStyle htmltemplate.CSS
	// Billing are the facts of a billing mail, written in Lang (nil for
	// the other mails).
	Billing *billingView
	// Team are the facts of a team mail, written in Lang (nil for the
	// other mails).
	Team *teamView
	// Export are the facts of a data_export_ready mail.
	Export *exportView
	// VAT are the facts of a vat_id_checked mail.
	VAT *vatView
	// Body is the already escaped output of a purpose's HTML template,
	// wrapped by the layout.
	Body htmltemplate.HTML
}

// Render renders the mail asked for by req in req.Language, falling back to
// English for a language the product does not speak. The Message-ID derives
// from req.Key so that every retry of one request carries the same ID.
func Render(req kudos.MailRequest) (kudos.Message, error) {
	needsLink, ok := linkRequired[req.Purpose]
	if !ok {
		return kudos.Message{}, kudos.Errorf(kudos.EInvalid, "mail: unknown purpose %q", req.Purpose)
	}
	if needsLink && strings.TrimSpace(req.Link) == "" {
		return kudos.Message{}, kudos.Errorf(kudos.EInvalid, "mail: purpose %q needs a link", req.Purpose)
	}
	if req.Link != "" && !kudos.IsWebURL(req.Link) {
		return kudos.Message{}, kudos.Errorf(kudos.EInvalid, "mail: the link of a %q mail is not an http(s) URL", req.Purpose)
	}
	lang := language(req.Language)
	billing, err := billingFacts(req, lang)
	if err != nil {
		return kudos.Message{}, err
	}
	team, err := teamFacts(req, lang)
	if err != nil {
		return kudos.Message{}, err
	}
	export, err := exportFacts(req, lang)
	if err != nil {
		return kudos.Message{}, err
	}
	vat, err := vatFacts(req)
	if err != nil {
		return kudos.Message{}, err
	}
	t := templates[lang]
	data := templateData{
		Lang:        lang,
		Name:        mailName(req.Name),
		Link:        req.Link,
		To:          req.To,
		ButtonStyle: htmltemplate.CSS(buttonStyle),
		Billing:     billing,
		Team:        team,
		Export:      export,
		VAT:         vat,
	}
	name := string(req.Purpose)

	var subject, text, body, page bytes.Buffer
	if err := t.text.ExecuteTemplate(&subject, name+".subject", data); err != nil {
		return kudos.Message{}, err
	}
	data.Subject = strings.Join(strings.Fields(subject.String()), " ")
	if err := t.text.ExecuteTemplate(&text, name+".text", data); err != nil {
		return kudos.Message{}, err
	}
	if err := t.html.ExecuteTemplate(&body, name+".html", data); err != nil {
		return kudos.Message{}, err
	}
	data.Body = htmltemplate.HTML(body.String())
	if err := layout.ExecuteTemplate(&page, "layout", data); err != nil {
		return kudos.Message{}, err
	}
	return kudos.Message{
		ID:      "<" + req.Key + "@kudos>",
		Purpose: req.Purpose,
		To:      req.To,
		Subject: data.Subject,
		Text:    strings.TrimSpace(text.String()) + "\n",
		HTML:    page.String(),
	}, nil
}

// linkLike matches what a mail client would turn into a link: a URL, an
// address, or a domain name, in any case, with an international top-level
// domain in its own script or in punycode, and with the full stops that
// IDNA treats as dots (ideographic, full-width, half-width).
var linkLike = regexp.MustCompile(`(?i)\S*(://|www[.\x{3002}\x{ff0e}\x{ff61}]|[@\x{ff20}])\S*|` +
	`\S*[\p{L}\p{N}-][.\x{3002}\x{ff0e}\x{ff61}]\p{L}[\p{L}\p{N}-]+\S*`)

// mailName is a name as it may appear in a mail: without anything a mail
// client would make clickable (a sign-up can name itself "visit evil.example"
// and have us mail that to any address), nor any control character.
func mailName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return ' '
		}
		return r
	}, name)
	name = linkLike.ReplaceAllString(name, "")
	return strings.Join(strings.Fields(name), " ")
}

// language maps a requested language ("nl", "nl-BE", "FR") to a supported
// one, English when it is not supported.
func language(l string) string {
	l = strings.ToLower(strings.TrimSpace(l))
	if i := strings.IndexAny(l, "-_"); i >= 0 {
		l = l[:i]
	}
	if _, ok := templates[l]; ok {
		return l
	}
	return languages[0]
}
