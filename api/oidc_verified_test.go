package api_test

import (
	"context"
	"testing"

	"kudos"
)

// googleUnverified runs a whole Google flow (scope signin or signup) with
// an identity whose e-mail Google has not verified.
func (h *harness) googleUnverified(scope, subject, email string) response {
	h.t.Helper()
	return h.googleFlow(scope, subject, email, false)
}

// linkedSubject is the Google subject linked to the user with email ("" for none).
func (h *harness) linkedSubject(email string) string {
	h.t.Helper()
	var sub *string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT oidc_subject FROM users WHERE email = $1`, email).Scan(&sub); err != nil {
		h.t.Fatal(err)
	}
	if sub == nil {
		return ""
	}
	return *sub
}

// TestUnverifiedGoogleIdentityNeverCreatesOrLinks is issue 27's first
// finding: an identity whose email_verified is false (the development
// provider leaves the claim out then, as "missing") neither creates nor
// links a user, on sign-up or sign-in, and the answer is the same whether
// the address is registered or not.
func TestUnverifiedGoogleIdentityNeverCreatesOrLinks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signedUpUser("owner@example.com")                                                   // activated, with a password
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("pending@example.com"), ""), 201) // never activated
	var users int
	count := func() int {
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users`).Scan(&users); err != nil {
			t.Fatal(err)
		}
		return users
	}
	before := count()
	var first *response
	for _, scope := range []string{"signup", "signin"} {
		for _, email := range []string{"owner@example.com", "pending@example.com", "nobody@example.com"} {
			r := h.expect(h.googleUnverified(scope, "unverified-"+email, email), 403)
			msg, _ := r.Body["error"].(map[string]any)["message"].(string)
			if r.errorCode() != kudos.EEmailNotVerified || msg != "Google has not verified this e-mail address" {
				t.Fatalf("%s %s: %s", scope, email, r.Raw)
			}
			if first == nil {
				first = &r
			} else if r.Raw != first.Raw {
				t.Fatalf("%s %s answers %s, the first answered %s", scope, email, r.Raw, first.Raw)
			}
		}
	}
	if after := count(); after != before {
		t.Fatalf("users: %d before, %d after", before, after)
	}
	for _, email := range []string{"owner@example.com", "pending@example.com"} {
		if sub := h.linkedSubject(email); sub != "" {
			t.Fatalf("%s linked to %q", email, sub)
		}
	}
	// The owner still signs in with the password, and a verified identity still links.
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "owner@example.com", "password": "Secret1!"}, ""), 201)
	h.expect(h.googleCallback("signin", "verified-owner", "owner@example.com"), 201)
}

// TestGoogleLinkDroppedWhenTheOwnerProvesTheAddress: a Google identity
// linked to a user before the owner proved the address (a Google sign-up
// awaiting its confirmation, or a link made by older code without a
// verified address) is dropped when the owner proves the address, by the
// activation link or a password reset, and the sessions it opened end. A
// verified identity links again at its next sign-in.
func TestGoogleLinkDroppedWhenTheOwnerProvesTheAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// The link of older code: an unverified identity on a sign-up nobody confirmed.
	for _, proof := range []string{"activation", "reset"} {
		email := proof + "@example.com"
		h.expect(h.do("POST", "/v1/auth/signup", signupBody(email), ""), 201)
		activation := tokenFrom(h.lastMailOf(email, kudos.MailActivation).Link)
		if _, err := h.db.Pool.Exec(context.Background(), `UPDATE users SET oidc_issuer = $2, oidc_subject = 'stranger-'||$1
			WHERE email = $1`, email, h.oidc.Issuer()); err != nil {
			t.Fatal(err)
		}
		stranger := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret1!"}, ""), 201)
		switch proof {
		case "activation":
			h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation), ""), 201)
		case "reset":
			h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
			reset := tokenFrom(h.lastMailOf(email, kudos.MailPasswordReset).Link)
			h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Other2!x"}, ""), 200)
		}
		if sub := h.linkedSubject(email); sub != "" {
			t.Fatalf("%s: still linked to %q", proof, sub)
		}
		h.expect(h.do("GET", "/v1/accounts/"+stranger.str("account_id"), nil, stranger.str("token")), 401)
		// The stranger's identity, unverified, opens nothing any more.
		h.expect(h.googleUnverified("signin", "stranger-"+email, email), 403)
	}

	// A Google sign-up awaiting confirmation: the confirmation drops the
	// link and the session of the sign-up; the owner's verified identity
	// links again when they next sign in with Google, to the same account.
	cb := h.expect(h.googleCallback("signup", "google-pending", "gpending@example.com"), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMailOf("gpending@example.com", kudos.MailActivation).Link)), ""), 201)
	if sub := h.linkedSubject("gpending@example.com"); sub != "" {
		t.Fatalf("google sign-up still linked to %q", sub)
	}
	h.expect(h.do("GET", "/v1/accounts/"+cb.str("account_id"), nil, cb.str("token")), 401)
	again := h.expect(h.googleCallback("signin", "google-pending", "gpending@example.com"), 201)
	if again.str("account_id") != cb.str("account_id") || h.linkedSubject("gpending@example.com") != "google-pending" {
		t.Fatalf("relinked to %s, want %s", again.str("account_id"), cb.str("account_id"))
	}
	// An activated user resetting the password keeps the link made after the proof.
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "gpending@example.com"}, ""), 202)
	reset := tokenFrom(h.lastMailOf("gpending@example.com", kudos.MailPasswordReset).Link)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Other2!x"}, ""), 200)
	if h.linkedSubject("gpending@example.com") != "google-pending" {
		t.Fatal("a link made after the proof was dropped")
	}
}
