package api_test

import (
	"testing"

	"kudos"
)

// otherBrowserKey is the browser key of a browser that did not sign up.
const otherBrowserKey = "b3RoZXItYnJvd3Nlci1vdGhlci1icm93c2VyLW90aGU"

// TestActivationSignsInOnlyTheBrowserThatSignedUp is issue 27's item 4:
// opening an activation link confirms the address wherever it is opened,
// but starts a session only with the browser key the signing-up browser
// sent (password or Google sign-up); elsewhere the answer is 200 without
// a token, and the user signs in.
func TestActivationSignsInOnlyTheBrowserThatSignedUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	activation := func(email string) string {
		return tokenFrom(h.lastMailOf(email, kudos.MailActivation).Link)
	}
	activated := func(email string) bool {
		var ok bool
		if err := h.db.Pool.QueryRow(t.Context(), `SELECT activated FROM users WHERE email = $1`, email).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	for name, body := range map[string]map[string]any{
		"no browser key":      {},
		"another browser key": {"browser_key": otherBrowserKey},
	} {
		email := "elsewhere-" + map[string]string{"no browser key": "a", "another browser key": "b"}[name] + "@example.com"
		h.expect(h.do("POST", "/v1/auth/signup", signupBody(email), ""), 201)
		body["token"] = activation(email)
		r := h.expect(h.do("PUT", "/v1/auth/activate-user", body, ""), 200)
		if r.str("token") != "" || r.str("account_id") != "" {
			t.Fatalf("%s: a session in another browser: %s", name, r.Raw)
		}
		if !activated(email) {
			t.Fatalf("%s: not activated", name)
		}
		// The link is used; the user signs in and opens the dashboard.
		h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(body["token"].(string)), ""), 404)
		in := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret1!"}, ""), 201)
		h.expect(h.do("GET", "/v1/accounts/"+in.str("account_id"), nil, in.str("token")), 200)
	}

	// The browser that signed up is signed in.
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("same@example.com"), ""), 201)
	r := h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation("same@example.com")), ""), 201)
	h.expect(h.do("GET", "/v1/accounts/"+r.str("account_id"), nil, r.str("token")), 200)

	// A Google sign-up binds its activation the same way.
	h.oidc.QueueIdentity("g-bound", "gbound@example.com", true)
	start := h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true, "browser_key": testBrowserKey}, ""), 201)
	h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 201)
	link := activation("gbound@example.com")
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": link, "browser_key": otherBrowserKey}, ""), 200)
	h.oidc.QueueIdentity("g-unbound", "gunbound@example.com", true) // no browser key
	start = h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true}, ""), 201)
	h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation("gunbound@example.com")), ""), 200)
	h.oidc.QueueIdentity("g-bound2", "gbound2@example.com", true)
	start = h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true, "browser_key": testBrowserKey}, ""), 201)
	h.expect(h.do("PUT", callbackPath(authorize(t, start.str("auth_url"))), nil, ""), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation("gbound2@example.com")), ""), 201)

	// A resent link, whoever asks for it, is bound to the browser that signed up.
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("resent@example.com"), ""), 201)
	h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "resent@example.com"}, ""), 202)
	resent := activation("resent@example.com")
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": resent, "browser_key": otherBrowserKey}, ""), 200)
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("resent2@example.com"), ""), 201)
	h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "resent2@example.com"}, ""), 202)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation("resent2@example.com")), ""), 201)

	// A browser key that is not one is refused, and nothing is used up.
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("shape@example.com"), ""), 201)
	bad := h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": activation("shape@example.com"), "browser_key": "short"}, ""), 422)
	if bad.field("browser_key") != kudos.FInvalidValue || activated("shape@example.com") {
		t.Fatalf("bad browser key: %s", bad.Raw)
	}
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation("shape@example.com")), ""), 201)
	signup := signupBody("shape2@example.com")
	signup["browser_key"] = "not a key"
	for path, body := range map[string]map[string]any{"/v1/auth/signup": signup,
		"/v1/auth/oidc-signup": {"opt_in_terms_of_use": true, "browser_key": "not a key"}} {
		if r := h.expect(h.do("POST", path, body, ""), 422); r.field("browser_key") != kudos.FInvalidValue {
			t.Fatalf("%s: %s", path, r.Raw)
		}
	}
}
