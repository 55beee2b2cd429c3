package kudos

import "context"

// MailPurpose names the kind of an e-mail; each has a template per language.
type MailPurpose string

// The mails the product sends.
const (
	MailActivation     MailPurpose = "activation"
	MailSignupExisting MailPurpose = "signup_existing"
	MailPasswordReset  MailPurpose = "password_reset"
	MailEmailChanged   MailPurpose = "email_changed"
	// MailPasswordChanged tells the owner that the password was changed.
	MailPasswordChanged MailPurpose = "password_changed"
)

// HeaderMailPurpose carries a mail's purpose, so that the development
// mailbox (and a mail filter) can tell mails apart without reading them.
const HeaderMailPurpose = "X-Kudos-Purpose"

// MailRequest asks for one e-mail to be delivered. Key identifies the request:
// it is the e-mail workflow's ID suffix and the idempotency key of the send, so
// one request yields at most one mail however often delivery is retried.
type MailRequest struct {
	Key      string      `json:"key"`
	Purpose  MailPurpose `json:"purpose"`
	To       string      `json:"to"`
	Language string      `json:"language"`
	// Name greets the recipient.
	Name string `json:"name"`
	// Link is the call to action (activation, reset). It is never part of
	// the request as stored or sent to Temporal (it may carry a token): the
	// mail activity builds it from Key and Purpose just before rendering.
	Link string `json:"-"`
}

// Message is a rendered e-mail ready for SMTP.
type Message struct {
	// ID becomes the Message-ID header, derived from the request key so that
	// a resent duplicate can be recognised by the receiver.
	ID      string
	Purpose MailPurpose
	To      string
	Subject string
	Text    string
	HTML    string
}

// MailSender delivers a rendered message (SMTP in every environment; the
// development capture inbox is an SMTP server too).
type MailSender interface {
	Send(ctx context.Context, msg Message) error
}
