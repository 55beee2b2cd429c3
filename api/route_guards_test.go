package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos/api"
	"kudos/payment/stripepay"
)

// route is one method and path pattern served by the app.
type route struct{ Method, Path string }

func (r route) String() string { return r.Method + " " + r.Path }

// servedRoutes lists the app's routes (middleware left out). HEAD routes are
// the automatic twins of GET routes, answered without a body, so they are
// covered through their GET.
func servedRoutes(app *fiber.App) []route {
	var out []route
	for _, r := range app.GetRoutes(true) {
		rt := route{r.Method, r.Path}
		if r.Method != fiber.MethodHead && !slices.Contains(out, rt) {
			out = append(out, rt)
		}
	}
	return out
}

// publicRoutes are the routes that answer without a session, each with why.
// Every other route must refuse a request without one: a route added without
// its guard fails TestRouteGuards until it is guarded or listed here.
var publicRoutes = map[string]string{
	"GET /healthz":                       "process probe",
	"GET /readyz":                        "readiness probe",
	"POST /v1/auth/signup":               "creates the user",
	"POST /v1/auth/signin":               "creates the session",
	"POST /v1/auth/signin/mfa":           "creates the session once the second factor of a sign-in challenge is met",
	"PUT /v1/auth/activate-user":         "authenticated by the mailed token",
	"POST /v1/auth/activation-token":     "mails a link",
	"POST /v1/auth/password-reset-token": "mails a link",
	"POST /v1/auth/reset-password":       "authenticated by the mailed token",
	"POST /v1/auth/oidc-signup":          "starts a Google sign-in",
	"POST /v1/auth/oidc-signin":          "starts a Google sign-in",
	"POST /v1/auth/passkey/options":      "starts a passwordless sign-in with a passkey",
	"POST /v1/auth/passkey":              "creates the session (a passkey)",
	"PUT /v1/auth/callback":              "authenticated by the flow's state",
	"POST /v1/webhooks/stripe":           "authenticated by Stripe's signature",
	"GET /v1/invitations/:token":         "the accept page: authenticated by the invitation's token",
	"GET /*":                             "the single-page app",
}

// devPrefixes hold the development-only routes (the capture inbox, the
// payment sandbox, the OIDC identity queue): public, and never served in
// production, which TestRouteGuards checks.
var devPrefixes = []string{"/dev/", "/sandbox/"}

func isDevRoute(r route) bool {
	return slices.ContainsFunc(devPrefixes, func(p string) bool { return strings.HasPrefix(r.Path, p) })
}

// isPublic reports whether r may answer without a session.
func isPublic(r route) bool {
	_, listed := publicRoutes[r.String()]
	return listed || isDevRoute(r)
}

// validBodies are bodies a member could send with success, so that a refusal
// is due to the guard and not to the body. Other routes get {}.
var validBodies = map[string]any{
	"PATCH /v1/accounts/:accountId":                          map[string]any{"name": "Hijacked Inc"},
	"PATCH /v1/accounts/:accountId/billing-address":          validAddress(),
	"PATCH /v1/accounts/:accountId/user":                     map[string]any{"firstname": "Mallory", "email": "mallory@example.com"},
	"POST /v1/accounts/:accountId/feature-request":           map[string]any{"feature_area": "OTHER", "feature_profile": "OTHER", "feature_description": "give me your data"},
	"POST /v1/accounts/:accountId/subscription":              map[string]any{"plan": "PRO"},
	"PATCH /v1/accounts/:accountId/subscription":             map[string]any{"plan": "TEAM"},
	"DELETE /v1/accounts/:accountId/billing/payment-methods": map[string]any{"mandate_id": "pm_1"},
	"POST /v1/accounts/:accountId/upload-logo":               map[string]any{"filename": "logo.png", "size": 1234},
}

func validBody(r route) any {
	if b, ok := validBodies[r.String()]; ok {
		return b
	}
	return map[string]any{}
}

// fillPath puts values into a path pattern's parameters (":name"); a
// parameter without a value gets "x".
func fillPath(pattern string, values map[string]string) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		if name, ok := strings.CutPrefix(s, ":"); ok {
			name = strings.TrimRight(name, "?+*")
			if v, ok := values[name]; ok {
				segs[i] = v
			} else {
				segs[i] = "x"
			}
		}
	}
	return strings.Join(segs, "/")
}

// isAccountRoute reports whether a route acts on the account in its path.
func isAccountRoute(r route) bool { return strings.Contains(r.Path, ":accountId") }

// guardedHarness is a harness with every optional route served: Temporal
// and storage (subscriptions, downloads, logos) and the Stripe webhook.
func guardedHarness(t *testing.T) *harness {
	h := newHarness(t)
	hooks, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_abuse", WebhookSecret: "whsec_abuse",
		Currency: "EUR", APIBaseURL: "http://127.0.0.1:9"}, h.db)
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Webhooks = hooks
	return h.withTemporal(time.Hour)
}

// TestRouteGuards enumerates the app's routes: without a session every
// non-public route is 401; for every account route, a signed-in non-member
// gets 404 (never the account's data), an unactivated member 403
// user_not_activated, and a malformed id 404. Nothing reaches the database.
func TestRouteGuards(t *testing.T) {
	t.Parallel()
	h := guardedHarness(t)
	tokenA, _ := h.signedUpUser("guard-a@example.com")
	_, accountB := h.signedUpUser("guard-b@example.com")
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("guard-u@example.com"), ""), 201)
	unactivated := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "guard-u@example.com", "password": "Secret1!"}, ""), 201)
	tokenU, accountU := unactivated.str("token"), unactivated.str("account_id")

	routes := servedRoutes(h.app)
	for key := range publicRoutes {
		if !slices.ContainsFunc(routes, func(r route) bool { return r.String() == key }) {
			t.Errorf("publicRoutes lists %s, which is not served: remove it", key)
		}
	}
	production := *h.srv.Config
	production.Env = "production"
	prod := *h.srv
	prod.Config, prod.Registry = &production, nil
	for _, r := range servedRoutes(api.New(&prod)) {
		if isDevRoute(r) {
			t.Errorf("production serves the development route %s", r)
		}
	}
	query := h.snapshotSQL()
	before := h.settle(t, query)
	accountRoutes := 0
	for _, r := range routes {
		if isPublic(r) {
			continue
		}
		t.Run(r.String(), func(t *testing.T) {
			c := newHarnessFrom(t, h)
			check := func(what string, got response, status int, code string) {
				t.Helper()
				if got.Status != status {
					t.Errorf("%s: status %d, want %d: %s", what, got.Status, status, got.Raw)
				} else if err := checkErrorShape(got); err != nil {
					t.Errorf("%s: %v", what, err)
				} else if got.errorCode() != code {
					t.Errorf("%s: code %q, want %q", what, got.errorCode(), code)
				}
			}
			path := fillPath(r.Path, map[string]string{"accountId": accountB, "invoiceId": "00000000-0000-4000-8000-000000000000"})
			check("no session", c.do(r.Method, path, validBody(r), ""), 401, "unauthorized")
			if !isAccountRoute(r) {
				return
			}
			accountRoutes++
			foreign := c.do(r.Method, path, validBody(r), tokenA)
			check("non-member", foreign, 404, "not_found")
			if strings.Contains(foreign.Raw, accountB) || strings.Contains(foreign.Raw, "guard-b") {
				t.Errorf("non-member: the answer tells about the account: %s", foreign.Raw)
			}
			own := fillPath(r.Path, map[string]string{"accountId": accountU, "invoiceId": "00000000-0000-4000-8000-000000000000"})
			check("unactivated member", c.do(r.Method, own, validBody(r), tokenU), 403, "user_not_activated")
			bad := fillPath(r.Path, map[string]string{"accountId": "not-a-uuid"})
			check("malformed account id", c.do(r.Method, bad, validBody(r), tokenA), 404, "not_found")
		})
	}
	if accountRoutes < 15 {
		t.Errorf("only %d account routes found: is the route enumeration broken?", accountRoutes)
	}
	if changed := changedTables(before, h.snapshot(t, query)); len(changed) > 0 {
		t.Errorf("refused requests changed tables %v", changed)
	}
}

// rateLimitCase is a route whose i-th request is body(i): limit of them
// pass at once, refilled evenly over per (api/limits.go), then 429.
type rateLimitCase struct {
	route   string
	limit   int
	per     time.Duration
	body    func(i int) any
	comment string
}

// rateLimited are the public routes that take credentials or send mail.
// Requests refused by validation count too where the limit is checked first.
var rateLimited = []rateLimitCase{
	{"POST /v1/auth/signin", 30, time.Minute, func(i int) any {
		return map[string]any{"email": fmt.Sprintf("guess%d@example.com", i), "password": ""} // no hashing: fast
	}, "per client address"},
	{"POST /v1/auth/signin", 10, 10 * time.Minute, func(int) any {
		return map[string]any{"email": "victim@example.com", "password": "Wrong1!x"}
	}, "per e-mail"},
	{"POST /v1/auth/signin/mfa", 30, time.Minute, func(int) any {
		return map[string]any{"challenge": strings.Repeat("A", 43), "code": "123456"} // unknown challenge: fast
	}, "per client address, like sign-in"},
	{"POST /v1/auth/signup", 20, 10 * time.Minute, func(int) any { return map[string]any{} }, "per client address"},
	{"POST /v1/auth/password-reset-token", 20, 10 * time.Minute, func(i int) any {
		return map[string]any{"email": fmt.Sprintf("r%d@example.com", i)}
	}, "per client address"},
	{"POST /v1/auth/activation-token", 20, 10 * time.Minute, func(i int) any {
		return map[string]any{"email": fmt.Sprintf("a%d@example.com", i)}
	}, "per client address"},
	{"POST /v1/auth/reset-password", 10, 10 * time.Minute, func(int) any {
		return map[string]any{"token": strings.Repeat("A", 43), "password": "Newpass1!"}
	}, "per client address"},
	{"POST /v1/auth/oidc-signin", 20, 10 * time.Minute, func(int) any { return map[string]any{} }, "per client address"},
	{"POST /v1/auth/passkey/options", 30, time.Minute, func(int) any { return nil }, "per client address, as sign-in"},
	{"POST /v1/auth/passkey", 30, time.Minute, func(int) any { return map[string]any{} }, "per client address, as sign-in"},
	{"POST /v1/auth/oidc-signup", 20, 10 * time.Minute, func(int) any { return map[string]any{"opt_in_terms_of_use": true} }, "per client address"},
}

// unlimitedPublicRoutes are the public /v1 routes without a rate limit, and why
// guessing there is hopeless.
var unlimitedPublicRoutes = map[string]string{
	"PUT /v1/auth/activate-user": "the token has 256 bits",
	"PUT /v1/auth/callback":      "the state has 256 bits and is single use",
	"POST /v1/webhooks/stripe":   "HMAC-signed by Stripe",
	"GET /v1/invitations/:token": "the token has 256 bits",
}

// TestRouteRateLimits sends each credential route's request until it is
// refused: the first refusal comes right after the limit (and what refilled
// meanwhile), as a 429 in the one error shape with Retry-After. Every public /v1 route is either limited
// or listed with the reason it needs no limit.
func TestRouteRateLimits(t *testing.T) {
	t.Parallel()
	h := guardedHarness(t)
	for _, r := range servedRoutes(h.app) {
		key := r.String()
		public := isPublic(r)
		_, unlimited := unlimitedPublicRoutes[key]
		limited := slices.ContainsFunc(rateLimited, func(l rateLimitCase) bool { return l.route == key })
		if public && strings.HasPrefix(r.Path, "/v1/") && !limited && !unlimited {
			t.Errorf("public route %s has no rate-limit test and no reason to go without", key)
		}
	}
	for _, tc := range rateLimited {
		t.Run(tc.route+" "+tc.comment, func(t *testing.T) {
			c := newHarnessFrom(t, h) // fresh limits
			method, path, _ := strings.Cut(tc.route, " ")
			start := time.Now()
			var r response
			passed := 0
			for ; passed <= 2*tc.limit; passed++ {
				if r = c.do(method, path, tc.body(passed), ""); r.Status == 429 {
					break
				}
			}
			// The bucket refills while the requests run (slowly under -race).
			refilled := int(time.Since(start).Seconds() * float64(tc.limit) / tc.per.Seconds())
			if r.Status != 429 {
				t.Fatalf("no 429 after %d requests: %s", passed, r.Raw)
			}
			if passed < tc.limit || passed > tc.limit+refilled {
				t.Fatalf("%d requests passed before a 429, want %d (+%d refilled): %s", passed, tc.limit, refilled, r.Raw)
			}
			if err := checkErrorShape(r); err != nil || r.errorCode() != "too_many_requests" {
				t.Fatalf("429 answer: %v %s", err, r.Raw)
			}
			if r.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		})
	}
}
