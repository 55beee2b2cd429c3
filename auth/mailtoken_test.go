package auth

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

func TestMailTokens(t *testing.T) {
	m := NewMailTokens(testSecret)
	key := NewKey()
	if len(key) != 32 || NewKey() == key {
		t.Fatalf("keys must be 128 random bits: %q", key)
	}
	a := m.Token(kudos.TokenActivation, key)
	if a != m.Token(kudos.TokenActivation, key) {
		t.Fatal("the token of a key is not stable: a retried mail would carry a dead link")
	}
	if a == m.Token(kudos.TokenPasswordReset, key) {
		t.Fatal("tokens of different purposes are equal")
	}
	if a == NewMailTokens("another-secret-another-secret-xx").Token(kudos.TokenActivation, key) {
		t.Fatal("the token does not depend on the secret")
	}
	if !ValidTokenShape(a) || ValidTokenShape(a[:42]) || ValidTokenShape(a[:42]+"*") {
		t.Fatal("ValidTokenShape is wrong")
	}
	if string(HashToken(a)) == a || len(HashToken(a)) != 32 {
		t.Fatal("HashToken must be SHA-256")
	}
}

func FuzzValidTokenShape(f *testing.F) {
	f.Add(NewMailTokens(testSecret).Token(kudos.TokenActivation, "k"))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidTokenShape(s) {
			return
		}
		// Accepted: 43 base64url characters, which carry the 32 bytes of a
		// token and nothing that could upset the database lookup.
		raw, err := base64.RawURLEncoding.DecodeString(s)
		if len(s) != 43 || err != nil || len(raw) != 32 || strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("accepted %q", s)
		}
	})
}

// FuzzMailTokens: every token made for any purpose and key has the shape the
// api accepts, is stable, round-trips through base64url, and is bound to its
// purpose and key.
func FuzzMailTokens(f *testing.F) {
	f.Add(string(kudos.TokenActivation), NewKey())
	f.Add(string(kudos.TokenPasswordReset), "")
	f.Add("", "\x00\xff")
	m := NewMailTokens(testSecret)
	f.Fuzz(func(t *testing.T, purpose, key string) {
		tok := m.Token(kudos.TokenPurpose(purpose), key)
		if !ValidTokenShape(tok) || tok != m.Token(kudos.TokenPurpose(purpose), key) {
			t.Fatalf("token %q of (%q, %q) is refused or unstable", tok, purpose, key)
		}
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 32 || base64.RawURLEncoding.EncodeToString(raw) != tok {
			t.Fatalf("token %q does not round-trip", tok)
		}
		if tok == m.Token(kudos.TokenPurpose(purpose), key+"x") || tok == m.Token(kudos.TokenPurpose(purpose+"x"), key) {
			t.Fatal("the token does not depend on its purpose and key")
		}
		if h := HashToken(tok); len(h) != 32 || string(h) != string(HashToken(tok)) {
			t.Fatal("HashToken is not a stable SHA-256")
		}
	})
}

func TestMailLinks(t *testing.T) {
	m := NewMailTokens(testSecret)
	const root = "https://app.kudos.example"
	account := uuid.MustParse("6f1c2d3e-4a5b-4c6d-8e7f-901234567890")
	dash := root + "/dashboard/" + account.String()
	billing := func(p kudos.MailPurpose, payURL string) kudos.MailRequest {
		return kudos.MailRequest{Key: "k1", Purpose: p, Billing: &kudos.MailBilling{AccountID: account, PayURL: payURL}}
	}
	tests := []struct {
		req  kudos.MailRequest
		want string
	}{
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailActivation}, root + "/auth/confirm-email?token=" + m.Token(kudos.TokenActivation, "k1")},
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailPasswordReset}, root + "/auth/reset-password?token=" + m.Token(kudos.TokenPasswordReset, "k1")},
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailSignupExisting}, root + "/signin"},
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailEmailChanged}, ""},
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailPasswordChanged}, ""},
		{billing(kudos.MailTrialReminder, ""), dash + "/plans?for=trial_expired"},
		{billing(kudos.MailRenewalReminder, ""), dash + "/account-settings/plan"},
		{billing(kudos.MailPaymentReceipt, ""), dash + "/billing/invoices"},
		{billing(kudos.MailPaymentFailed, ""), dash + "/billing/payment-details"},
		// A returned debit that nothing retries: the invoice is paid from the invoices.
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailPaymentFailed, Billing: &kudos.MailBilling{AccountID: account, Returned: true}},
			dash + "/billing/invoices"},
		// One that dunning retries: the payment details, for the next attempt.
		{kudos.MailRequest{Key: "k1", Purpose: kudos.MailPaymentFailed, Billing: &kudos.MailBilling{AccountID: account, Returned: true,
			Date: &time.Time{}}}, dash + "/billing/payment-details"},
		{billing(kudos.MailPlanExpired, ""), dash + "/plans?for=plan_expired"},
		// The provider's page, as the provider gave it (a billing mail's
		// PayURL is a checkout URL: it carries no token of ours).
		{billing(kudos.MailPaymentActionRequired, "https://checkout.stripe.com/c/pay/cs_1?a=1&b=2"), "https://checkout.stripe.com/c/pay/cs_1?a=1&b=2"},
	}
	for _, tt := range tests {
		got, err := m.MailLink(root, tt.req)
		if err != nil || got != tt.want {
			t.Errorf("MailLink(%s) = %q, %v; want %q", tt.req.Purpose, got, err, tt.want)
		}
	}
	// Links without a token need no secret.
	var none *MailTokens
	if got, err := none.MailLink(root, billing(kudos.MailPaymentReceipt, "")); err != nil || got != dash+"/billing/invoices" {
		t.Errorf("without tokens: %q, %v", got, err)
	}
}

func TestMailLinksRefused(t *testing.T) {
	m := NewMailTokens(testSecret)
	tests := []struct {
		name string
		req  kudos.MailRequest
	}{
		{"billing mail without facts", kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentReceipt}},
		{"billing mail without account", kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentFailed, Billing: &kudos.MailBilling{}}},
		{"action without pay URL", kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentActionRequired, Billing: &kudos.MailBilling{AccountID: uuid.New()}}},
		{"action with a javascript URL", kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentActionRequired,
			Billing: &kudos.MailBilling{AccountID: uuid.New(), PayURL: "javascript:alert(document.cookie)"}}},
		{"action with a relative URL", kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentActionRequired,
			Billing: &kudos.MailBilling{AccountID: uuid.New(), PayURL: "//evil.example/pay"}}},
	}
	for _, tt := range tests {
		if got, err := m.MailLink("https://app.kudos.example", tt.req); kudos.ErrorCode(err) != kudos.EInvalid {
			t.Errorf("%s: %q, %v; want an invalid error", tt.name, got, err)
		}
	}
	var none *MailTokens
	if got, err := none.MailLink("https://app.kudos.example", kudos.MailRequest{Key: "k", Purpose: kudos.MailActivation}); err == nil {
		t.Errorf("a token link without tokens: %q", got)
	}
}
