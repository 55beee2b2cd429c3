package api_test

import (
	"testing"
)

// googleCallback runs a whole Google sign-in (scope signin or signup) at the
// development provider for subject and email, and returns the callback answer.
func (h *harness) googleCallback(scope, subject, email string) response {
	h.t.Helper()
	return h.googleFlow(scope, subject, email, true)
}

// googleFlow is googleCallback for an identity whose address Google has
// verified or not.
func (h *harness) googleFlow(scope, subject, email string, verified bool) response {
	h.t.Helper()
	h.oidc.QueueIdentity(subject, email, verified)
	body := map[string]any{"root_domain": "http://127.0.0.1:8080"}
	if scope == "signup" {
		body["opt_in_terms_of_use"], body["browser_key"] = true, testBrowserKey
	}
	start := h.expect(h.do("POST", "/v1/auth/oidc-"+scope, body, ""), 201)
	return h.do("PUT", callbackPath(authorize(h.t, start.str("auth_url"))), nil, "")
}

// TestGooglePreAccountTakeover is the proof of issue 15's high finding: an
// attacker signs up with the victim's address (never activated), keeps a
// session, and waits. The victim continues with Google and confirms the
// address; the attacker's session and password must no longer open it.
func TestGooglePreAccountTakeover(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const victim = "victim@example.com"
	h.expect(h.do("POST", "/v1/auth/signup", signupBody(victim), ""), 201)
	confirm := tokenFrom(h.lastMail(victim).Link) // the mail the attacker's sign-up sent the victim
	att := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": victim, "password": "Secret1!"}, ""), 201)

	cb := h.expect(h.googleCallback("signup", "google-victim", victim), 201)
	if cb.str("account_id") != att.str("account_id") {
		t.Fatalf("Google opened another account: %s", cb.Raw)
	}
	// The victim confirms the address with the mail in their inbox.
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(confirm), ""), 201)

	// The attacker's session and password are dead.
	h.expect(h.do("GET", "/v1/accounts/"+att.str("account_id"), nil, att.str("token")), 401)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": victim, "password": "Secret1!"}, ""), 401)
	// The victim's session works, and the account is activated.
	acc := h.expect(h.do("GET", "/v1/accounts/"+cb.str("account_id"), nil, cb.str("token")), 200)
	if u := acc.Body["user"].(map[string]any); u["email"] != victim || u["activated"] != true || u["social_login"] != true {
		t.Fatalf("user after linking: %v", u)
	}
}

// TestGoogleNeverRelinked: a user linked to one Google subject is not
// silently re-linked to another one that shows the same address.
func TestGoogleNeverRelinked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.expect(h.googleCallback("signup", "google-one", "one@example.com"), 201)
	r := h.expect(h.googleCallback("signin", "google-two", "one@example.com"), 409)
	if r.Raw == "" {
		t.Fatal("no answer")
	}
	// The first identity still opens the account.
	again := h.expect(h.googleCallback("signin", "google-one", "one@example.com"), 201)
	if again.str("account_id") != first.str("account_id") {
		t.Fatalf("account %s, want %s", again.str("account_id"), first.str("account_id"))
	}
}
