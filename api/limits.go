package api

import (
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/store"
)

// limits are the rate limits on credential and mail-sending routes, kept in
// Postgres so that they hold across api replicas. Per-client limits slow
// one client. Sign-in is also limited per (e-mail, client), so that a flood
// of wrong passwords from one client slows that client only, and per e-mail
// with a looser ceiling, which one client cannot reach alone: guessing one
// account's password from many addresses stays slow, while the owner, on
// another address, can still sign in.
type limits struct {
	signinIP          *store.Limiter // sign-in attempts per client address
	signinEmailClient *store.Limiter // sign-in attempts per (e-mail, client address)
	signinEmail       *store.Limiter // sign-in attempts per e-mail, from all clients
	publicIP          *store.Limiter // sign-up, resend, reset and Google requests per client address
	resetIP           *store.Limiter // new passwords set with a reset link, per client address
	reauth            *store.Limiter // current-password checks per user
	mailEmail         *store.Limiter // mails triggered per e-mail (silently dropped beyond)
	invitations       *store.Limiter // invitations sent and resent per account
	exports           *store.Limiter // data exports asked for per user and per account
}

func newLimits(db AuthStore) limits {
	return limits{
		signinIP:          db.NewLimiter("signin_ip", 30, time.Minute),
		signinEmailClient: db.NewLimiter("signin_email_ip", 10, 10*time.Minute),
		signinEmail:       db.NewLimiter("signin_email", 50, 10*time.Minute),
		publicIP:          db.NewLimiter("public_ip", 20, 10*time.Minute),
		resetIP:           db.NewLimiter("reset_ip", 10, 10*time.Minute),
		reauth:            db.NewLimiter("reauth", 10, 10*time.Minute),
		mailEmail:         db.NewLimiter("mail_email", 5, time.Hour),
		invitations:       db.NewLimiter("invitations", 20, time.Hour),
		exports:           db.NewLimiter("exports", 5, 24*time.Hour),
	}
}

// allow returns a 429 error when l refuses key.
func allow(c fiber.Ctx, l *store.Limiter, key string) error {
	ok, wait, err := l.Allow(ctx(c), key)
	if err != nil {
		return err
	}
	if !ok {
		return &kudos.Error{Code: kudos.ERateLimited, Message: "Too many requests", RetryAfter: int(math.Ceil(wait.Seconds()))}
	}
	return nil
}

// allowed reports whether l lets key through (for limits that drop silently).
func allowed(c fiber.Ctx, l *store.Limiter, key string) (bool, error) {
	ok, _, err := l.Allow(ctx(c), key)
	return ok, err
}

// clientIP is the address of the client: the peer's, or, when the peer is a
// trusted proxy (KUDOS_TRUSTED_PROXIES), the last address of
// X-Forwarded-For that is not a trusted proxy itself. Every line of the
// header is read, joined in order (a proxy may append its hop as a line of
// its own), from the right; an entry may carry a port ("ip:port",
// "[ipv6]:port") or quotes. The addresses left of the client's were written
// by the client and prove nothing.
func (s *Server) clientIP(c fiber.Ctx) string {
	peer, _ := netip.AddrFromSlice(c.RequestCtx().RemoteIP())
	peer = peer.Unmap()
	if !s.trusted(peer) {
		return peer.String()
	}
	var hops []string
	for _, line := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
		hops = append(hops, strings.Split(string(line), ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break // a forged or broken header: trust what we know
		}
		if !s.trusted(a) {
			return a.String()
		}
		peer = a
	}
	return peer.String()
}

// parseHop reads one X-Forwarded-For entry: an address, optionally quoted,
// bracketed or with a port.
func parseHop(hop string) (netip.Addr, bool) {
	hop = strings.Trim(strings.TrimSpace(hop), `"`)
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(hop, "["), "]")); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(hop); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.Config.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
