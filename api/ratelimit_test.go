package api_test

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"kudos"
)

// trustingHarness is a harness whose api believes X-Forwarded-For from the
// peer of app.Test (0.0.0.0), standing for the load balancer, so that a test
// can speak from many client addresses.
func trustingHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.srv.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("0.0.0.0/32")}
	return newHarnessFrom(t, h)
}

// freezeClock stops the store's clock, so that a rate limit's bucket does
// not refill while a test spends its burst: 31 sign-ins on a loaded
// machine took over 2 s, and a minute's limit of 30 gave one back.
func (h *harness) freezeClock() {
	at := h.db.Now()
	h.db.SetClock(func() time.Time { return at })
}

// TestSigninFloodDoesNotLockTheOwnerOut: a flood of wrong passwords for one
// address from one client is refused, yet the owner signs in from another
// address (issue 15: the per-e-mail limit let anyone lock any owner out).
func TestSigninFloodDoesNotLockTheOwnerOut(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	h.signedUpUser("owner@example.com")
	wrong := map[string]any{"email": "owner@example.com", "password": "Wrong1!x"}
	var last response
	for range 25 {
		last = h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", "203.0.113.9")
	}
	h.expect(last, 429)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "owner@example.com", "password": "Secret1!"}, "",
		"X-Forwarded-For", "198.51.100.20"), 201)
}

// TestForwardedForOnlyThroughTrustedProxies: without KUDOS_TRUSTED_PROXIES a
// client cannot escape its limit by writing X-Forwarded-For; through a
// trusted proxy, the address the proxy appended is the client.
func TestForwardedForOnlyThroughTrustedProxies(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.freezeClock()
	var last response
	for i := range 31 {
		last = h.do("POST", "/v1/auth/signin", map[string]any{"email": "x@example.com", "password": ""}, "",
			"X-Forwarded-For", netip.AddrFrom4([4]byte{203, 0, 113, byte(i)}).String())
	}
	h.expect(last, 429)

	tr := trustingHarness(t)
	tr.freezeClock()
	for i := range 31 {
		// The client forges the left part; the proxy appends the real peer.
		last = tr.do("POST", "/v1/auth/signin", map[string]any{"email": "x@example.com", "password": ""}, "",
			"X-Forwarded-For", netip.AddrFrom4([4]byte{203, 0, 113, byte(i)}).String()+", 198.51.100.7")
	}
	h.expect(last, 429)
	tr.expect(tr.do("POST", "/v1/auth/signin", map[string]any{"email": "x@example.com", "password": ""}, "",
		"X-Forwarded-For", "198.51.100.8"), 422)
}

// TestResetPasswordLooksTheTokenUpFirst: a junk token is refused before any
// argon2id work, so the route is no CPU drain.
func TestResetPasswordLooksTheTokenUpFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	before := h.srv.Hasher.Runs()
	for i := range 8 {
		tok := h.srv.Tokens.Token(kudos.TokenPasswordReset, fmt.Sprint("never-mailed-", i)) // well-shaped, unknown
		h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": tok, "password": "Newpass1!"}, ""), 404)
	}
	if n := h.srv.Hasher.Runs() - before; n != 0 {
		t.Fatalf("8 junk tokens cost %d argon2id computations: the password is hashed before the token is checked", n)
	}
}
