package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kudos/api"
)

// TestIPv6ClientsAreLimitedByTheirSlash64: a client holds a whole /64 and
// can speak from a new address at every request; its sign-ins are limited,
// and its argon2id work bounded, per /64 (issue 27 item 2: each address was
// a client of its own). IPv4 clients stay apart by address.
func TestIPv6ClientsAreLimitedByTheirSlash64(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	frozen := time.Now() // no bucket refills while the test runs, however slow the machine
	h.db.SetClock(func() time.Time { return frozen })
	before := h.srv.Hasher.Runs()
	var last response
	for i := range 40 {
		last = h.do("POST", "/v1/auth/signin", map[string]any{"email": fmt.Sprintf("u%d@example.com", i), "password": "Wrong1!x"}, "",
			"X-Forwarded-For", fmt.Sprintf("2001:db8:1:2:%x::%x", i, i+1))
	}
	h.expect(last, 429)
	if n := h.srv.Hasher.Runs() - before; n > 30 {
		t.Fatalf("one /64 had %d passwords hashed, want at most its limit of 30", n)
	}
	// Another /64, and IPv4 neighbours, are other clients.
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "v@example.com", "password": "Wrong1!x"}, "",
		"X-Forwarded-For", "2001:db8:1:3::1"), 401)
	for i := range 31 {
		h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "w@example.com", "password": ""}, "",
			"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i)), 422)
	}
}

// deviceCookie returns the device cookie a sign-in answer sets ("" for none).
func deviceCookie(t *testing.T, r response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "kudos_device" {
			return c
		}
	}
	return nil
}

// TestDeviceCookieLetsTheOwnerInDuringAFlood: wrong passwords for one
// address from a handful of networks use up the address's shared ceiling,
// so that a sign-in from an unknown browser waits; the owner's browser,
// which signed in before and holds the signed device cookie, still gets in
// from a network of its own (issue 27 item 2). Another user's cookie, or a
// forged one, exempts nothing.
func TestDeviceCookieLetsTheOwnerInDuringAFlood(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	frozen := time.Now() // no bucket refills while the test runs, however slow the machine
	h.db.SetClock(func() time.Time { return frozen })
	h.signedUpUser("owner@example.com")
	h.signedUpUser("other@example.com")
	right := map[string]any{"email": "owner@example.com", "password": "Secret1!"}
	in := h.expect(h.do("POST", "/v1/auth/signin", right, "", "X-Forwarded-For", "198.51.100.20"), 201)
	dc := deviceCookie(t, in)
	if dc == nil {
		t.Fatalf("a sign-in set no device cookie: %v", in.Header)
	}
	if !dc.HttpOnly || dc.SameSite != http.SameSiteLaxMode || dc.Path != "/v1/auth" ||
		dc.MaxAge < 80*24*3600 || dc.MaxAge > 100*24*3600 {
		t.Fatalf("device cookie %+v: want HttpOnly, SameSite=Lax, Path=/v1/auth, about 90 days", dc)
	}
	other := deviceCookie(t, h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "other@example.com", "password": "Secret1!"}, "",
		"X-Forwarded-For", "198.51.100.21"), 201))

	wrong := map[string]any{"email": "owner@example.com", "password": "Wrong1!x"}
	for n := range 6 { // six networks, each within its own (e-mail, client) limit of 10
		for i := range 10 {
			h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", fmt.Sprintf("2001:db8:%x::%x", n+10, i+1))
		}
	}
	fresh := func(ip string, cookie string) response {
		return h.do("POST", "/v1/auth/signin", right, "", "X-Forwarded-For", ip, "Cookie", cookie)
	}
	h.expect(fresh("192.0.2.1", ""), 429)
	h.expect(fresh("192.0.2.2", "kudos_device="+other.Value), 429)
	forged := strings.Replace(dc.Value, dc.Value[len(dc.Value)-4:], "AAAA", 1)
	h.expect(fresh("192.0.2.3", "kudos_device="+forged), 429)
	again := h.expect(fresh("192.0.2.4", "kudos_device="+dc.Value), 201)
	if deviceCookie(t, again) == nil {
		t.Fatal("the sign-in did not renew the device cookie")
	}
	// The cookie exempts the browser from the shared ceiling only: its own
	// per-client limits hold.
	for range 10 {
		h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", "192.0.2.5", "Cookie", "kudos_device="+dc.Value)
	}
	h.expect(fresh("192.0.2.5", "kudos_device="+dc.Value), 429)
	// In production the cookie goes over https only.
	production := *h.srv.Config
	production.Env = "production"
	prod := *h.srv
	prod.Config, prod.Registry = &production, nil
	h.app = api.New(&prod)
	if c := deviceCookie(t, h.expect(fresh("192.0.2.9", "kudos_device="+dc.Value), 201)); c == nil || !c.Secure {
		t.Fatalf("a production device cookie %+v, want Secure", c)
	}
}
