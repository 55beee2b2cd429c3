package api_test

import (
	"fmt"
	"testing"

	"kudos"
)

// TestSignupNoticesDoNotUseUpTheOwnersResets: 50 sign-ups with the owner's
// address (each answered like a new sign-up) mail the owner a few notices,
// and the owner's own reset still gets through (issue 27 item 5: the
// notices and the resets shared one bucket per address).
func TestSignupNoticesDoNotUseUpTheOwnersResets(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	h.signedUpUser("owner@example.com")
	for i := range 50 {
		h.expect(h.do("POST", "/v1/auth/signup", signupBody("owner@example.com"), "",
			"X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i)), 201)
	}
	if n := h.mailsOf("owner@example.com", kudos.MailSignupExisting); n < 1 || n > 5 {
		t.Fatalf("%d sign-up notices, want 1 to 5", n)
	}
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "owner@example.com"}, "",
		"X-Forwarded-For", "198.51.100.1"), 202)
	h.deliverQueued()
	if n := h.mailsOf("owner@example.com", kudos.MailPasswordReset); n != 1 {
		t.Fatalf("%d reset mails after 50 sign-up attempts, want 1", n)
	}
}

// TestPendingEmailResendIsLimitedByRecipient: resending the confirmation
// of an e-mail change by the old and the new address in turn mails the
// new address no more than its own limit (issue 27 item 5: the limit was
// per address typed, so two addresses doubled it).
func TestPendingEmailResendIsLimitedByRecipient(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	token, account := h.signedUpUser("old@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"email": "new@example.com", "current_password": "Secret1!"}, token), 200)
	before := h.mailsOf("new@example.com", kudos.MailActivation)
	for i := range 12 {
		typed := []string{"old@example.com", "new@example.com"}[i%2]
		h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": typed}, "",
			"X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i)), 202)
	}
	h.deliverQueued()
	if n := h.mailsOf("new@example.com", kudos.MailActivation) - before; n != 5 {
		t.Fatalf("12 resends by both addresses mailed the new address %d times, want its limit of 5", n)
	}
}
