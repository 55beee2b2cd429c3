package api_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"kudos/auth"
)

// abuseCase is one bad request and the refusal it must get.
type abuseCase struct {
	kind    string // the kind of bad input (TestAbuse wants at least 25)
	name    string
	method  string
	path    string
	body    any // a string is sent raw, anything else as JSON; nil sends nothing
	token   string
	headers []string // name, value pairs; they replace the defaults
	status  int
	field   string // a field that error.fields must name, if set
	// socket sends the case over a real socket, for what the in-memory
	// app.Test refuses before the server sees it (sizes, multipart bodies).
	socket bool
}

// abuseFixture is what the cases refer to: two activated users A and B with
// an account each (B with an invoice), and the secret that signs sessions.
type abuseFixture struct {
	tokenA, accountA string
	userA, sessionA  uuid.UUID
	tokenB, accountB string
	userB            uuid.UUID
	invoiceB         string
	revokedA         string // a token of A's whose session was signed out
	secret           string
}

// newAbuseFixture signs A and B up; B opens a checkout, which makes an
// invoice. A signs in a second time and out again, for an ended session.
func newAbuseFixture(h *harness) *abuseFixture {
	t := h.t
	f := &abuseFixture{secret: h.srv.Config.JWTSecret}
	f.tokenA, f.accountA = h.signedUpUser("abuse-a@example.com")
	f.tokenB, f.accountB = h.signedUpUser("abuse-b@example.com")
	sessions := auth.NewSessions(f.secret, nil)
	var err error
	if f.sessionA, f.userA, err = sessions.Parse(f.tokenA); err != nil {
		t.Fatal(err)
	}
	if _, f.userB, err = sessions.Parse(f.tokenB); err != nil {
		t.Fatal(err)
	}
	baseB := "/v1/accounts/" + f.accountB
	h.expect(h.do("PATCH", baseB+"/billing-address", validAddress(), f.tokenB), 200)
	h.expect(h.do("POST", baseB+"/subscription", map[string]any{"plan": "STARTER"}, f.tokenB), 201)
	invoices := h.expect(h.do("GET", baseB+"/billing", nil, f.tokenB), 200).Body["invoices"].([]any)
	f.invoiceB = invoices[0].(map[string]any)["id"].(string)
	again := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "abuse-a@example.com", "password": "Secret1!"}, ""), 201)
	f.revokedA = again.str("token")
	h.expect(h.do("POST", "/v1/auth/signout", nil, f.revokedA), 204)
	return f
}

// forge signs a copy of token's claims, changed by edit, with method and key.
func forge(t *testing.T, token string, method jwt.SigningMethod, key any, edit func(jwt.MapClaims)) string {
	t.Helper()
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		t.Fatal(err)
	}
	edit(claims)
	signed, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// TestAbuse sends every kind of bad input to the API and checks that each is
// refused with a 4xx in the one error shape, reflects no markup, and leaves
// every table of the database exactly as it was.
func TestAbuse(t *testing.T) {
	t.Parallel()
	h := guardedHarness(t)
	f := newAbuseFixture(h)
	cases := slices.Concat(bodyCases(f), sessionCases(t, f), validationCases(f), injectionCases(f), foreignCases(f, servedRoutes(h.app)))
	query := h.snapshotSQL()
	h.settle(t, query)
	kinds := map[string]int{}
	for _, tc := range cases {
		kinds[tc.kind]++
		t.Run(tc.kind+"/"+tc.name, func(t *testing.T) {
			c := newHarnessFrom(t, h) // fresh rate limits: no case is refused for an earlier one
			before := h.snapshot(t, query)
			r := c.send(t, tc)
			if r.Status != tc.status {
				t.Errorf("status %d, want %d: %.300s", r.Status, tc.status, r.Raw)
			}
			if r.Status < 400 || r.Status >= 500 {
				t.Errorf("a client mistake answered %d", r.Status)
			}
			if err := checkErrorShape(r); err != nil {
				t.Error(err)
			}
			if tc.field != "" && r.field(tc.field) == "" {
				t.Errorf("error.fields does not name %q: %s", tc.field, r.Raw)
			}
			if strings.Contains(strings.ToLower(r.Raw), "<script") || strings.Contains(r.Raw, "<img") {
				t.Errorf("the answer reflects markup: %s", r.Raw)
			}
			for _, secret := range []string{f.accountB, f.invoiceB, "abuse-b@example.com"} {
				if strings.Contains(r.Raw, secret) {
					t.Errorf("the answer tells about B (%s): %s", secret, r.Raw)
				}
			}
			if changed := changedTables(before, h.snapshot(t, query)); len(changed) > 0 {
				t.Errorf("the refused request changed tables %v", changed)
			}
		})
	}
	if len(kinds) < 25 {
		t.Errorf("%d kinds of bad input, want at least 25", len(kinds))
	}
	t.Logf("%d abuse cases of %d kinds", len(cases), len(kinds))
}

// send sends tc through the app (or over a socket) and decodes the answer.
func (h *harness) send(t *testing.T, tc abuseCase) response {
	t.Helper()
	if !tc.socket {
		return h.do(tc.method, tc.path, tc.body, tc.token, tc.headers...)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = h.app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
	defer func() { _ = h.app.Shutdown() }()
	body, ok := tc.body.(string)
	if !ok && tc.body != nil {
		raw, _ := json.Marshal(tc.body)
		body = string(raw)
	}
	req, err := http.NewRequest(tc.method, "http://"+ln.Addr().String()+tc.path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if tc.token != "" {
		req.Header.Set("Authorization", "Bearer "+tc.token)
	}
	for i := 0; i+1 < len(tc.headers); i += 2 {
		req.Header.Set(tc.headers[i], tc.headers[i+1])
	}
	// The answer is read while the request is still being written: the
	// server refuses an oversized request before reading all of it and
	// resets the connection, which would fail a client that writes first.
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() { _ = req.Write(conn) }()
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	_ = json.Unmarshal(raw, &out.Body)
	h.checkContract(tc.method, tc.path, req.Header, []byte(body), out)
	return out
}

// foreignCases are, for every account route, A's session with B's account
// id (404, never B's data), and A's account with B's invoice.
func foreignCases(f *abuseFixture, routes []route) []abuseCase {
	var out []abuseCase
	for _, r := range routes {
		if !isAccountRoute(r) {
			continue
		}
		out = append(out, abuseCase{kind: "foreign account id", name: r.String(), method: r.Method,
			path: fillPath(r.Path, map[string]string{"accountId": f.accountB, "invoiceId": f.invoiceB}),
			body: validBody(r), token: f.tokenA, status: 404})
		if strings.Contains(r.Path, ":invoiceId") {
			out = append(out, abuseCase{kind: "foreign invoice id", name: r.String(), method: r.Method,
				path: fillPath(r.Path, map[string]string{"accountId": f.accountA, "invoiceId": f.invoiceB}),
				body: validBody(r), token: f.tokenA, status: 404})
		}
	}
	return out
}
