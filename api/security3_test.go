package api_test

import (
	"net/netip"
	"strings"
	"testing"
)

// TestForwardedForLinesAndPorts: a proxy may append its hop as a header line
// of its own, and some write ip:port; the client is read from the right of
// all lines joined, so a client cannot escape its limit by writing a first
// line of its own, and ip:port entries count as their address (issue 27
// item 7: only the first line was read, and ip:port ended the walk at the
// proxy, putting every client behind it in one bucket).
func TestForwardedForLinesAndPorts(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	h.freezeClock()
	signin := map[string]any{"email": "x@example.com", "password": ""}
	var last response
	for i := range 31 {
		forged := netip.AddrFrom4([4]byte{203, 0, 113, byte(i)}).String()
		last = h.do("POST", "/v1/auth/signin", signin, "", "X-Forwarded-For", forged, "X-Forwarded-For", "198.51.100.7")
	}
	h.expect(last, 429)

	for range 31 {
		last = h.do("POST", "/v1/auth/signin", signin, "", "X-Forwarded-For", "198.51.100.9:4711")
	}
	h.expect(last, 429)
	// Another client behind the same proxies is a bucket of its own.
	h.expect(h.do("POST", "/v1/auth/signin", signin, "", "X-Forwarded-For", "198.51.100.10:4711"), 422)
	for range 31 {
		last = h.do("POST", "/v1/auth/signin", signin, "", "X-Forwarded-For", `"[2001:db8::1]:443"`)
	}
	h.expect(last, 429)
	h.expect(h.do("POST", "/v1/auth/signin", signin, "", "X-Forwarded-For", "[2001:db9::1]:443"), 422)
}

// TestDevRoutesOnlyForLoopbackHosts: the development routes (every mail with
// its links, the sandbox's money switches) answer only a request addressed
// to a loopback name and carrying no forwarding header, so neither a DNS
// rebinding page nor a proxy in front of a development instance reaches
// them (issue 27 item 9).
func TestDevRoutesOnlyForLoopbackHosts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	body := map[string]any{"subject": "s1", "email": "a@example.com", "email_verified": true}
	h.expect(h.do("POST", "/dev/oidc/identities", body, ""), 204)
	h.expect(h.do("POST", "/dev/oidc/identities", body, "", "Host", "localhost:8080"), 204)
	h.expect(h.do("POST", "/dev/oidc/identities", body, "", "Host", "[::1]:8080"), 204)
	for _, headers := range [][]string{
		{"Host", "evil.example"},
		{"Host", "127.0.0.1.evil.example:8080"},
		{"Host", "localhost.evil.example"},
		{"X-Forwarded-For", "203.0.113.5"},
		{"Forwarded", "for=203.0.113.5"},
		{"X-Forwarded-Host", "kudos.example"},
		{"X-Real-Ip", "203.0.113.5"},
	} {
		r := h.do("POST", "/dev/oidc/identities", body, "", headers...)
		if r.Status != 404 || r.errorCode() != "not_found" {
			t.Errorf("%v: %d %s, want 404 not_found", headers, r.Status, r.Raw)
		}
	}
}

// TestAPIAnswersAreNotStored: every answer of the api carries
// Cache-Control: no-store (tokens, personal data and billing must not stay
// in a shared or browser cache), errors included (issue 27 item 11). The
// contract check of every api test asserts it too.
func TestAPIAnswersAreNotStored(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("nostore@example.com")
	for _, r := range []response{
		h.do("POST", "/v1/auth/signin", map[string]any{"email": "nostore@example.com", "password": "Secret1!"}, ""),
		h.do("GET", "/v1/accounts/"+account, nil, token),
		h.do("GET", "/v1/accounts/"+account+"/user", nil, token),
		h.do("GET", "/v1/accounts/"+account+"/billing", nil, token),
		h.do("GET", "/v1/accounts", nil, token),
		h.do("GET", "/v1/accounts/"+account, nil, ""),
		h.do("GET", "/v1/nope", nil, ""),
	} {
		if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
			t.Errorf("%d %.80s: Cache-Control %q", r.Status, r.Raw, cc)
		}
	}
	if cc := h.do("GET", "/signin", nil, "").Header.Get("Cache-Control"); strings.Contains(cc, "no-store") {
		t.Errorf("the UI's pages are cached as before (no-cache), got %q", cc)
	}
}
