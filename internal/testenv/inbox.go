package testenv

import (
	"testing"

	"kudos/mailer"
)

// Inbox starts a development capture inbox on a free loopback port, closed
// when the test ends, and returns it with an SMTP sender pointed at it.
func Inbox(t testing.TB) (*mailer.Inbox, *mailer.SMTPSender) {
	t.Helper()
	inbox := mailer.NewInbox()
	if err := inbox.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("testenv: inbox: %v", err)
	}
	t.Cleanup(func() { _ = inbox.Close() })
	sender, err := mailer.NewSMTPSender("smtp://"+inbox.Addr(), "Kudos <no-reply@kudos.localhost>")
	if err != nil {
		t.Fatalf("testenv: SMTP sender: %v", err)
	}
	return inbox, sender
}
