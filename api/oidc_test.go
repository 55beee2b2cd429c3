package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"kudos"
)

// authorize follows auth_url at the development provider like a browser
// would and returns the callback query it redirects to.
func authorize(t *testing.T, authURL string) url.Values {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if !strings.HasPrefix(loc.String(), "http://127.0.0.1:8080/auth/callback?") {
		t.Fatalf("provider redirected to %s", loc)
	}
	return loc.Query()
}

func callbackPath(q url.Values) string {
	return "/v1/auth/callback?" + url.Values{"state": {q.Get("state")}, "code": {q.Get("code")},
		"redirect_url": {"http://127.0.0.1:8080/auth/callback"}}.Encode()
}

func TestGoogleSignupThenSignin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Terms first.
	r := h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": false}, ""), 422)
	if r.field("opt_in_terms_of_use") != kudos.FMustAcceptTerms {
		t.Fatal(r.Raw)
	}
	h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true, "root_domain": "https://evil.example"}, ""), 422)

	h.oidc.QueueIdentity("google-sub-1", "Grace@Example.com", true)
	start := h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true, "opt_in_marketing": true,
		"preferred_language": "nl", "root_domain": "http://127.0.0.1:8080", "browser_key": testBrowserKey}, ""), 201)
	authURL, _ := url.Parse(start.str("auth_url"))
	if q := authURL.Query(); q.Get("code_challenge_method") != "S256" || q.Get("nonce") == "" || q.Get("state") == "" {
		t.Fatalf("auth_url lacks PKCE/nonce/state: %s", authURL)
	}
	q := authorize(t, start.str("auth_url"))
	cb := h.expect(h.do("PUT", callbackPath(q), nil, ""), 201)
	if cb.str("scope") != "signup" || cb.str("email") != "grace@example.com" || cb.str("token") == "" || cb.str("account_id") == "" {
		t.Fatalf("callback answer %s", cb.Raw)
	}
	// The state is single-use.
	h.expect(h.do("PUT", callbackPath(q), nil, ""), 404)
	// As for every sign-up, the address is confirmed by mail (SPEC §4).
	mail := h.lastMail("grace@example.com")
	// Google gave no name: nothing is made up, so the mail greets plainly.
	if mail.Purpose != kudos.MailActivation || mail.Language != "nl" || mail.Name != "" {
		t.Fatalf("mail %+v", mail)
	}
	act := h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(mail.Link)), ""), 201)
	acc := h.expect(h.do("GET", "/v1/accounts/"+act.str("account_id"), nil, act.str("token")), 200)
	user := acc.Body["user"].(map[string]any)
	if user["social_login"] != true || user["firstname"] != "" || user["lastname"] != "" || user["opt_in_marketing"] != true || user["preferred_language"] != "nl" {
		t.Fatalf("user %v", user)
	}

	// Signing in with the same Google identity opens the same account.
	h.oidc.QueueIdentity("google-sub-1", "grace@example.com", true)
	start = h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{"root_domain": "http://127.0.0.1:8080"}, ""), 201)
	cb = h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 201)
	if cb.str("scope") != "signin" || cb.str("account_id") != act.str("account_id") {
		t.Fatalf("signin callback %s", cb.Raw)
	}
}

func TestGoogleLinkingNeedsVerifiedEmail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, account := h.signedUpUser("pw@example.com")

	h.oidc.QueueIdentity("google-unverified", "pw@example.com", false)
	start := h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 403)

	h.oidc.QueueIdentity("google-verified", "pw@example.com", true)
	start = h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	cb := h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 201)
	if cb.str("account_id") != account || cb.str("scope") != "signin" {
		t.Fatalf("linking answer %s", cb.Raw)
	}
}

func TestGoogleSigninUnknownAndTampered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.oidc.QueueIdentity("google-new", "new@example.com", true)
	start := h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	q := authorize(t, start.str("auth_url"))
	// A redirect other than the flow's own is refused (and burns the state).
	bad := "/v1/auth/callback?" + url.Values{"state": {q.Get("state")}, "code": {q.Get("code")}, "redirect_url": {"https://evil.example/auth/callback"}}.Encode()
	h.expect(h.do("PUT", bad, nil, ""), 422)

	h.oidc.QueueIdentity("google-new", "new@example.com", true)
	start = h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	q = authorize(t, start.str("auth_url"))
	// A forged code fails the exchange.
	forged := "/v1/auth/callback?" + url.Values{"state": {q.Get("state")}, "code": {"forged"}}.Encode()
	h.expect(h.do("PUT", forged, nil, ""), 401)

	h.oidc.QueueIdentity("google-new", "new@example.com", true)
	start = h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	// Sign-in with an identity nobody signed up with: no account is made.
	h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 404)
	h.expect(h.do("PUT", "/v1/auth/callback?state=unknown&code=x", nil, ""), 404)
}
