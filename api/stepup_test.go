package api_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"kudos"
)

// googleOnlyUser signs up with Google (no password), confirms the address
// in the same browser and signs in with Google again (the confirmation
// drops the link made before it); it returns the session and the account.
func (h *harness) googleOnlyUser(subject, email string) (token, account string) {
	h.t.Helper()
	h.expect(h.googleCallback("signup", subject, email), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMailOf(email, kudos.MailActivation).Link)), ""), 201)
	in := h.expect(h.googleCallback("signin", subject, email), 201)
	return in.str("token"), in.str("account_id")
}

// stepUp runs the step-up flow for the session token with an identity
// that authenticated at the provider at authTime (zero: no auth_time).
func (h *harness) stepUp(token, subject, email string, authTime time.Time) response {
	h.t.Helper()
	start := h.expect(h.do("POST", "/v1/auth/oidc-reauth", map[string]any{"root_domain": "http://127.0.0.1:8080"}, token), 201)
	u, _ := url.Parse(start.str("auth_url"))
	if q := u.Query(); q.Get("prompt") != "login" || q.Get("max_age") != "300" || q.Get("code_challenge_method") != "S256" {
		h.t.Fatalf("step-up auth_url: %s", u)
	}
	h.oidc.QueueIdentityAt(subject, email, true, authTime)
	return h.do("PUT", callbackPath(authorize(h.t, start.str("auth_url"))), nil, "")
}

// TestGoogleOnlyUserStepsUpBeforeSensitiveChanges is issue 27's item 3: a
// user without a password (Google sign-in only) who sets one or hands the
// account over must first sign in with Google again, freshly (prompt=login,
// max_age, auth_time at most 5 minutes old, the same Google account); a
// stolen session alone is refused (403 reauthentication_required) and
// changes nothing.
func TestGoogleOnlyUserStepsUpBeforeSensitiveChanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const email = "gonly@example.com"
	token, account := h.googleOnlyUser("g-only", email)
	heir, heirID := h.join(token, account, "gonly-heir@example.com", "member")
	setPassword := map[string]any{"password": "Chosen1!x"}
	transfer := map[string]any{"user_id": heirID}
	refused := func(what string) {
		t.Helper()
		if r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", setPassword, token), 403); r.errorCode() != kudos.EReauthRequired {
			t.Fatalf("%s: set password: %s", what, r.Raw)
		}
		if r := h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", transfer, token), 403); r.errorCode() != kudos.EReauthRequired {
			t.Fatalf("%s: transfer: %s", what, r.Raw)
		}
		h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Chosen1!x"}, ""), 401)
		if h.roleOf(account, email) != "owner" {
			t.Fatalf("%s: a refused transfer changed the owner", what)
		}
	}
	refused("the session alone")

	// A stale or missing auth_time, or another Google account, steps nobody up.
	for name, r := range map[string]response{
		"stale auth_time":   h.stepUp(token, "g-only", email, time.Now().Add(-10*time.Minute)),
		"missing auth_time": h.stepUp(token, "g-only", email, time.Time{}),
		"future auth_time":  h.stepUp(token, "g-only", email, time.Now().Add(10*time.Minute)),
		"another account":   h.stepUp(token, "g-someone-else", "someone-else@example.com", time.Now()),
	} {
		if r.Status != 403 || r.errorCode() != kudos.EReauthRequired {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	refused("after refused step-ups")
	// Only a signed-in user steps up, with their own session.
	h.expect(h.do("POST", "/v1/auth/oidc-reauth", map[string]any{}, ""), 401)
	h.expect(h.do("POST", "/v1/auth/oidc-reauth", map[string]any{}, heir), 201)

	// A fresh sign-in with the same Google account allows the changes, for
	// this session only and for a few minutes.
	r := h.expect(h.stepUp(token, "g-only", email, time.Now().Add(-time.Minute)), 200)
	if r.str("scope") != "reauth" || r.str("token") != "" {
		t.Fatalf("step-up answer %s", r.Raw)
	}
	other := h.expect(h.googleCallback("signin", "g-only", email), 201).str("token")
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", transfer, other), 403)
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE sessions SET reauthenticated_at = reauthenticated_at - interval '6 minutes'
		WHERE reauthenticated_at IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	refused("after the step-up's window")
	h.expect(h.stepUp(token, "g-only", email, time.Now()), 200)
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", transfer, token), 200)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", setPassword, token), 200)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Chosen1!x"}, ""), 201)
	if h.roleOf(account, "gonly-heir@example.com") != "owner" {
		t.Fatal("transfer after the step-up did not happen")
	}
}
