package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestErrorsHaveOneShape(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for name, tc := range map[string]struct {
		method, path, body string
		status             int
		code               string
	}{
		"unknown v1 route":   {"GET", "/v1/nope", "", 404, "not_found"},
		"unknown v1 method":  {"DELETE", "/v1/auth/signup", "", 404, "not_found"},
		"malformed json":     {"POST", "/v1/auth/signin", `{"email":`, 400, "bad_request"},
		"not an object":      {"POST", "/v1/auth/signin", `[1,2]`, 400, "bad_request"},
		"wrong type":         {"POST", "/v1/auth/signin", `{"email":1,"password":"x"}`, 400, "bad_request"},
		"unknown field":      {"POST", "/v1/auth/signin", `{"email":"a@b.co","password":"x","admin":true}`, 400, "bad_request"},
		"two objects":        {"POST", "/v1/auth/signin", `{"email":"a@b.co"}{"x":1}`, 400, "bad_request"},
		"empty body":         {"POST", "/v1/auth/signin", ``, 400, "bad_request"},
		"deep nesting":       {"POST", "/v1/auth/signin", strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000), 400, "bad_request"},
		"callback no params": {"PUT", "/v1/auth/callback", "", 500, "internal"},
	} {
		t.Run(name, func(t *testing.T) {
			r := h.expect(h.do(tc.method, tc.path, tc.body, ""), tc.status)
			if r.errorCode() != tc.code {
				t.Fatalf("code %q, want %q: %s", r.errorCode(), tc.code, r.Raw)
			}
		})
	}
	r := h.do("PUT", "/v1/auth/callback?state=x", "", "")
	if msg := r.Body["error"].(map[string]any)["message"]; msg != "Authorization code or state is missing from URL" {
		t.Fatalf("callback message %q", msg)
	}
	r = h.do("GET", "/v1/nope", "", "")
	if msg := r.Body["error"].(map[string]any)["message"]; msg != "Not found" {
		t.Fatalf("404 message %q", msg)
	}
}

func TestSecurityHeadersAndRequestID(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, path := range []string{"/healthz", "/v1/nope", "/signin"} {
		r := h.do("GET", path, nil, "")
		csp := r.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-eval") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Referrer-Policy") == "" {
			t.Errorf("%s: headers %v", path, r.Header)
		}
		if len(r.Header.Get("X-Request-Id")) < 16 {
			t.Errorf("%s: no request id", path)
		}
	}
	r := h.do("GET", "/healthz", nil, "", "X-Request-Id", "trace-123")
	if r.Header.Get("X-Request-Id") != "trace-123" {
		t.Fatal("a well-formed incoming request id is not kept")
	}
	r = h.do("GET", "/healthz", nil, "", "X-Request-Id", "bad id\"<>")
	if r.Header.Get("X-Request-Id") == "bad id\"<>" {
		t.Fatal("a malformed request id is echoed")
	}
}

func TestCORSOnlyForUIOrigins(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ok := h.do("OPTIONS", "/v1/auth/signin", nil, "", "Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST")
	if ok.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Fatalf("allowed origin refused: %v", ok.Header)
	}
	bad := h.do("OPTIONS", "/v1/auth/signin", nil, "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if v := bad.Header.Get("Access-Control-Allow-Origin"); v != "" {
		t.Fatalf("foreign origin allowed: %q", v)
	}
}

func TestSPAHistoryFallback(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, path := range []string{"/", "/signin", "/dashboard/x/billing", "/dashboard/x/billing/invoices", "/auth/confirm-email"} {
		r := h.expect(h.do("GET", path, nil, ""), 200)
		if !strings.Contains(r.Raw, "<title>Kudos</title>") || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s did not serve the app: %s", path, r.Raw)
		}
	}
	js := h.expect(h.do("GET", "/assets/app-abc.js", nil, ""), 200)
	if !strings.Contains(js.Header.Get("Content-Type"), "javascript") || !strings.Contains(js.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset headers %v", js.Header)
	}
	h.expect(h.do("GET", "/assets/missing.js", nil, ""), 404)
	h.expect(h.do("GET", "/v1/nothing-here", nil, ""), 404)
}

func TestUIAssetsAreSentGzipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	big := strings.Repeat("console.log('kudos');\n", 200)
	h.srv.UI = fstest.MapFS{
		"index.html":        {Data: []byte("<!doctype html><title>Kudos</title>" + strings.Repeat("<!-- padding -->", 100))},
		"assets/app-abc.js": {Data: []byte(big)},
		"assets/logo.png":   {Data: bytes.Repeat([]byte{0x89}, 4096)},
	}
	h = newHarnessFrom(t, h)
	for _, c := range []struct {
		path, accept string
		gzipped      bool
	}{
		// With br offered too the answer may be brotli once it is ready
		// (TestUIContentNegotiation in spa_test.go covers brotli).
		{"/assets/app-abc.js", "gzip, deflate", true},
		{"/assets/app-abc.js", "br;q=0, gzip;q=0.5", true},
		{"/assets/app-abc.js", "", false},
		{"/assets/app-abc.js", "gzip;q=0", false},
		{"/assets/app-abc.js", "identity", false},
		{"/dashboard/x/billing", "gzip", true},
		{"/assets/logo.png", "gzip", false}, // images are compressed already
	} {
		r := h.expect(h.do("GET", c.path, nil, "", "Accept-Encoding", c.accept), 200)
		if got := r.Header.Get("Content-Encoding") == "gzip"; got != c.gzipped {
			t.Errorf("%s with %q: gzipped %v", c.path, c.accept, got)
		}
		if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", c.path, r.Header.Get("Vary"))
		}
		if !c.gzipped {
			continue
		}
		zr, err := gzip.NewReader(strings.NewReader(r.Raw))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if c.path == "/assets/app-abc.js" && string(plain) != big || len(r.Raw) >= len(plain) {
			t.Errorf("%s: %d bytes gzipped for %d", c.path, len(r.Raw), len(plain))
		}
	}
}

func TestHealthAndMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if r := h.expect(h.do("GET", "/healthz", nil, ""), 200); r.str("status") != "ok" {
		t.Fatal(r.Raw)
	}
	// No Temporal client in this harness: not ready, and it says why.
	r := h.do("GET", "/readyz", nil, "")
	if checks, _ := r.Body["checks"].(map[string]any); r.Status != 503 || checks["postgres"] != "ok" || checks["temporal"] == "ok" {
		t.Fatal(r.Raw)
	}
	h.do("GET", "/v1/nope", nil, "")
	// Not on the public address: on the metrics listener only.
	if pub := h.do("GET", "/metrics", nil, ""); strings.Contains(pub.Raw, "kudos_http_requests_total") {
		t.Fatal("the public address serves /metrics")
	}
	rec := httptest.NewRecorder()
	h.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	m := response{Status: rec.Code, Raw: rec.Body.String()}
	if m.Status != 200 || !strings.Contains(m.Raw, `kudos_http_requests_total{method="GET",route="/healthz",status="200"}`) ||
		!strings.Contains(m.Raw, "kudos_http_request_duration_seconds_bucket") {
		t.Fatalf("metrics:\n%s", m.Raw)
	}
}

func TestDevRoutesOnlyInDevelopment(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.expect(h.do("GET", "/dev/mailbox", nil, ""), 404) // no inbox in this harness
	h.srv.Config.Env = "production"
	prod := newHarnessFrom(t, h)
	r := prod.do("GET", "/dev/mailbox", nil, "")
	if r.Status != 404 || strings.Contains(r.Raw, "capture inbox") {
		t.Fatalf("production answers /dev/mailbox: %d %s", r.Status, r.Raw)
	}
}

// TestOversizedBody runs over a real socket: fasthttp refuses the body before
// any handler, and the answer must still be a 413 in the one shape.
func TestOversizedBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Over a real socket, reading the answer while the body is still being
	// written (the server answers before reading it all): send, as the abuse
	// cases do.
	body := `{"email":"` + strings.Repeat("a", 70*1024) + `"}`
	out := h.expect(h.send(t, abuseCase{method: "POST", path: "/v1/auth/signin", body: body, socket: true}), 413)
	if out.errorCode() != "payload_too_large" || out.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("413 answer: %s %v", out.Raw, out.Header)
	}
}
