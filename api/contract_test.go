package api_test

import (
	"regexp"
	"strings"
	"testing"
)

var pathParam = regexp.MustCompile(`\{(\w+)\}`)

// TestContractRoutes: every operation of the document is a route of the
// app, and every /v1, /dev and /sandbox route of the app is in the document.
func TestContractRoutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Webhooks = fakeWebhooks{} // the Stripe webhook route exists with the stripe provider
	h = newHarnessFrom(t, h)
	spec, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range spec.doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+pathParam.ReplaceAllString(path, ":$1")] = true
		}
	}
	served := map[string]bool{}
	for _, r := range h.app.GetRoutes(true) {
		served[r.Method+" "+r.Path] = true
	}
	for op := range documented {
		if !served[op] {
			t.Errorf("documented but not served: %s", op)
		}
	}
	for op := range served {
		_, path, _ := strings.Cut(op, " ")
		if isAPITarget(path) && !documented[op] && !strings.HasPrefix(op, "HEAD ") {
			t.Errorf("served but not documented in api/openapi.yaml: %s", op)
		}
	}
}

// TestContractResponses drives the operations of the document, with good
// and bad requests; the harness checks each exchange against the document
// (checkContract), as it does for every other api test.
func TestContractResponses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	email := "contract@example.com"
	h.expect(h.do("POST", "/v1/auth/signup", signupBody(email), ""), 201)
	h.expect(h.do("POST", "/v1/auth/signup", map[string]any{"email": "x"}, ""), 422)
	tok := tokenFrom(h.lastMail(email).Link)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tok), ""), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": tok}, ""), 404)
	r := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret1!"}, ""), 201)
	token, account := r.str("token"), r.str("account_id")
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Wrong1!xx"}, ""), 401)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200)
	h.expect(h.do("GET", "/v1/accounts/"+strings.Repeat("0", 8)+"-0000-0000-0000-000000000000", nil, token), 404)
	h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": email}, ""), 202)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
	h.deliverQueued()
	reset := tokenFrom(h.lastMail(email).Link)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Newpass1!"}, ""), 200)
	h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true}, ""), 201)
	h.oidc.QueueIdentity("contract-sub", email, true)
	r = h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, ""), 201)
	cb := h.expect(h.do("PUT", callbackPath(authorize(t, r.str("auth_url"))), nil, ""), 201)
	h.expect(h.do("PUT", "/v1/auth/callback", nil, ""), 500)
	h.expect(h.do("POST", "/v1/auth/signout", nil, cb.str("token")), 204)
	base := "/v1/accounts/" + account
	token = h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Newpass1!"}, ""), 201).str("token")
	h.expect(h.do("PATCH", base, map[string]any{"name": "Contract Co"}, token), 200)
	h.expect(h.do("PATCH", base, map[string]any{"name": "C"}, token), 422)
	saved := h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token, "If-Match", saved.Header.Get("ETag")), 200)
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token, "If-Match", saved.Header.Get("ETag")), 409)
	h.expect(h.do("PATCH", base+"/user", map[string]any{"lastname": "Doe"}, token), 200)
	h.expect(h.do("POST", base+"/feature-request",
		map[string]any{"feature_area": "OTHER", "feature_profile": "OTHER", "feature_description": "x"}, token), 200)
	h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200)
	h.expect(h.do("GET", base+"/billing", nil, token), 200)
	h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 404)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": "x"}, token), 404)
	h.expect(h.do("POST", "/dev/oidc/identities", map[string]any{"subject": "s", "email": "e@example.com"}, ""), 204)
	h.expect(h.do("GET", "/healthz", nil, ""), 200)
	if r := h.do("GET", "/readyz", nil, ""); r.Status != 503 { // this harness has no Temporal
		t.Fatalf("readyz without Temporal: %d %s", r.Status, r.Raw)
	}
	h.expect(h.do("GET", "/metrics", nil, ""), 404) // on the metrics listener only
}
