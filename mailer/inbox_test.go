package mailer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kudos"
)

// startInbox runs an inbox on a free loopback port and returns it with a
// sender pointed at it.
func startInbox(t *testing.T) (*Inbox, *SMTPSender) {
	t.Helper()
	inbox := NewInbox()
	if err := inbox.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := inbox.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	sender, err := NewSMTPSender("smtp://"+inbox.Addr(), "Kudos <no-reply@kudos.localhost>")
	if err != nil {
		t.Fatalf("NewSMTPSender: %v", err)
	}
	return inbox, sender
}

// render renders an activation mail for to whose token and key are key.
func render(t *testing.T, key, to, lang string) kudos.Message {
	t.Helper()
	msg, err := Render(kudos.MailRequest{
		Key: key, Purpose: kudos.MailActivation, To: to, Language: lang, Name: "Zoë <b>",
		Link: "https://app.kudos.localhost/confirm-email?token=" + key,
	})
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return msg
}

func send(t *testing.T, s *SMTPSender, msg kudos.Message) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Send(ctx, msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
}

func TestSendToInbox(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			inbox, sender := startInbox(t)
			msg := render(t, "tok-"+lang, "Ann@Example.com", lang)
			send(t, sender, msg)

			got := inbox.Messages("ann@example.com")
			if len(got) != 1 {
				t.Fatalf("got %d messages, want 1", len(got))
			}
			m := got[0]
			if m.Purpose != string(kudos.MailActivation) {
				t.Errorf("purpose %q, want activation (ARCHITECTURE §4: dev mailbox purposes)", m.Purpose)
			}
			if m.To != "Ann@Example.com" || m.Subject != msg.Subject || m.MessageID != msg.ID {
				t.Errorf("to %q subject %q id %q; want %q %q %q", m.To, m.Subject, m.MessageID, msg.To, msg.Subject, msg.ID)
			}
			if strings.TrimSpace(m.Text) != strings.TrimSpace(msg.Text) {
				t.Errorf("text not decoded to the original:\n%q\n%q", m.Text, msg.Text)
			}
			if strings.TrimSpace(m.HTML) != strings.TrimSpace(msg.HTML) {
				t.Errorf("HTML not decoded to the original:\n%q\n%q", m.HTML, msg.HTML)
			}
			if !strings.Contains(m.Text, "confirm-email?token=tok-"+lang) || !strings.Contains(m.HTML, "confirm-email?token=tok-"+lang) {
				t.Errorf("link missing")
			}
			if time.Since(m.ReceivedAt) > time.Minute {
				t.Errorf("ReceivedAt = %v", m.ReceivedAt)
			}
		})
	}
}

func TestInboxStoresADuplicateOnce(t *testing.T) {
	inbox, sender := startInbox(t)
	msg := render(t, "same", "ann@example.com", "en")
	send(t, sender, msg)
	send(t, sender, msg)
	if n := len(inbox.Messages("")); n != 1 {
		t.Fatalf("got %d messages, want 1", n)
	}
}

func TestInboxNewestFirstAndFilter(t *testing.T) {
	inbox, sender := startInbox(t)
	send(t, sender, render(t, "first", "ann@example.com", "en"))
	send(t, sender, render(t, "second", "bob@example.com", "en"))
	send(t, sender, render(t, "third", "ann@example.com", "nl"))

	tests := []struct {
		name string
		to   string
		want []string // tokens, newest first
	}{
		{"all", "", []string{"third", "second", "first"}},
		{"one recipient", "ann@example.com", []string{"third", "first"}},
		{"case-insensitive", "BOB@Example.COM", []string{"second"}},
		{"unknown recipient", "nobody@example.com", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := inbox.Messages(tt.to)
			if got == nil || len(got) != len(tt.want) {
				t.Fatalf("got %d messages (nil=%v), want %d", len(got), got == nil, len(tt.want))
			}
			for k, tok := range tt.want {
				if !strings.Contains(got[k].Text, "token="+tok+"\n") {
					t.Errorf("message %d is not %q", k, tok)
				}
			}
		})
	}
}

func TestInboxRefusing(t *testing.T) {
	inbox, sender := startInbox(t)
	msg := render(t, "down", "ann@example.com", "en")

	inbox.SetRefusing(true)
	err := sender.Send(context.Background(), msg)
	if err == nil || !strings.Contains(err.Error(), "451") {
		t.Fatalf("Send while refusing: err = %v, want a 451", err)
	}
	if n := len(inbox.Messages("")); n != 0 {
		t.Fatalf("stored %d messages while refusing", n)
	}

	inbox.SetRefusing(false)
	send(t, sender, msg)
	if n := len(inbox.Messages("ann@example.com")); n != 1 {
		t.Fatalf("got %d messages after recovery, want 1", n)
	}
}

func TestInboxCapDropsOldest(t *testing.T) {
	inbox := NewInbox()
	for k := range maxInboxMessages + 5 {
		inbox.store(InboxMessage{To: "a@b.c", Subject: fmt.Sprint(k), MessageID: fmt.Sprintf("<%d@kudos>", k)})
	}
	got := inbox.Messages("")
	if len(got) != maxInboxMessages {
		t.Fatalf("kept %d messages, want %d", len(got), maxInboxMessages)
	}
	if got[0].Subject != fmt.Sprint(maxInboxMessages+4) || got[len(got)-1].Subject != "5" {
		t.Errorf("kept %s..%s, want %d..5", got[0].Subject, got[len(got)-1].Subject, maxInboxMessages+4)
	}
}

func TestInboxStartErrors(t *testing.T) {
	inbox, _ := startInbox(t)
	if err := inbox.Start("127.0.0.1:0"); err == nil {
		t.Error("second Start succeeded")
	}
	other := NewInbox()
	if err := other.Start(inbox.Addr()); err == nil {
		other.Close()
		t.Error("Start on a taken port succeeded")
	}
	if other.Addr() != "" {
		t.Errorf("Addr of an unstarted inbox = %q", other.Addr())
	}
	if err := other.Close(); err != nil {
		t.Errorf("Close of an unstarted inbox: %v", err)
	}
}

func TestSendErrors(t *testing.T) {
	inbox, sender := startInbox(t)
	msg := render(t, "ctx", "ann@example.com", "en")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sender.Send(ctx, msg); err == nil {
		t.Error("Send with a cancelled context succeeded")
	}
	bad := msg
	bad.To = "not an address"
	if code := kudos.ErrorCode(sender.Send(context.Background(), bad)); code != kudos.EInvalid {
		t.Errorf("invalid recipient: code %q, want %q", code, kudos.EInvalid)
	}
	if err := inbox.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sender.Send(context.Background(), msg); err == nil {
		t.Error("Send to a closed inbox succeeded")
	}
}

func TestNewSMTPSender(t *testing.T) {
	const from = "Kudos <no-reply@kudos.localhost>"
	tests := []struct {
		name    string
		url     string
		from    string
		wantErr bool
	}{
		{"plain", "smtp://127.0.0.1:2525", from, false},
		{"default port", "smtp://mail.example.com", from, false},
		{"implicit TLS with credentials", "smtps://user:p%40ss@mail.example.com:465", from, false},
		{"unknown scheme", "http://mail.example.com", from, true},
		{"no host", "smtp://", from, true},
		{"bad port", "smtp://mail.example.com:99999", from, true},
		{"bad from", "smtp://mail.example.com", "not an address", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSMTPSender(tt.url, tt.from)
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

// TestRequireTLSRefusesPlainSMTP: with TLS required (production), a server
// that does not offer STARTTLS (or an attacker who strips it) gets nothing.
func TestRequireTLSRefusesPlainSMTP(t *testing.T) {
	inbox, sender := startInbox(t)
	sender.RequireTLS()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sender.Send(ctx, render(t, "tls", "tls@example.com", "en")); err == nil {
		t.Fatal("a mail went out over plain SMTP with TLS required")
	}
	if len(inbox.Messages("tls@example.com")) != 0 {
		t.Fatal("the plain-text server received the mail")
	}
}

// TestBillingMailsReachTheInboxWithTheirPurpose: the dev mailbox tells each
// billing mail by its purpose (the X-Kudos-Purpose header), and the amount
// with its no-break spaces survives the trip through SMTP.
func TestBillingMailsReachTheInboxWithTheirPurpose(t *testing.T) {
	inbox, sender := startInbox(t)
	seen := map[string]bool{}
	for _, c := range billingCases() {
		msg, err := Render(c.request("fr"))
		if err != nil {
			t.Fatal(err)
		}
		to := strings.ReplaceAll(c.file, ".", "-") + "@example.com"
		msg.To = to
		send(t, sender, msg)
		got := inbox.Messages(to)
		if len(got) != 1 || got[0].Purpose != string(c.purpose) {
			t.Fatalf("%s: %d messages, purpose %q; want one with purpose %s", c.file, len(got), purposeOf(got), c.purpose)
		}
		amount := wantFacts["fr"].amount
		if strings.Contains(msg.Text, amount) && (!strings.Contains(got[0].Text, amount) || !strings.Contains(got[0].HTML, amount)) {
			t.Errorf("%s: the amount %q did not survive SMTP:\n%s", c.file, amount, got[0].Text)
		}
		seen[got[0].Purpose] = true
	}
	for _, p := range []kudos.MailPurpose{kudos.MailTrialReminder, kudos.MailRenewalReminder, kudos.MailPaymentReceipt,
		kudos.MailPaymentFailed, kudos.MailPaymentActionRequired, kudos.MailPlanExpired} {
		if !seen[string(p)] {
			t.Errorf("no %s mail reached the inbox", p)
		}
	}
}

func purposeOf(msgs []InboxMessage) string {
	if len(msgs) == 0 {
		return ""
	}
	return msgs[0].Purpose
}
