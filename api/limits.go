package api

import (
	"context"
	"fmt"
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
// one client (clientKey: an IPv4 address or an IPv6 /64). Sign-in is also
// limited per (e-mail, client), so that a flood of wrong passwords from one
// client slows that client only, and per e-mail with a looser ceiling,
// which one client cannot reach alone: guessing one account's password from
// many networks stays slow. A handful of networks can reach the ceiling,
// so a browser that signed in as the owner before (its device cookie) is
// exempt from it, and the owner keeps getting in.
type limits struct {
	signinIP          *store.Limiter // sign-in attempts per client
	signinEmailClient *store.Limiter // sign-in attempts per (e-mail, client)
	signinEmail       *store.Limiter // sign-in attempts per e-mail, from all clients but known devices
	publicIP          *store.Limiter // sign-up, resend, reset and Google requests per client
	resetIP           *store.Limiter // new passwords set with a reset link, per client
	reauth            *store.Limiter // current-password checks per user
	secondFactor      *store.Limiter // second factors tried at sign-in per user, from all clients but known devices
	mail              *store.Limiter // mails triggered per (purpose, recipient) (silently dropped beyond)
	invitations       *store.Limiter // invitations sent, resent and revoked per account
	pmCheckoutHour    *store.Limiter // payment-method checkouts opened per account, per hour
	pmCheckoutDay     *store.Limiter // and per day
	exports           *store.Limiter // data exports asked for per user and per account
	viesAccount       *store.Limiter // VAT ids asked of VIES per account
	viesClient        *store.Limiter // and per client
	promoAccount      *store.Limiter // promotion codes tried per account
	promoClient       *store.Limiter // and per client
	drafts            *store.Limiter // invoice drafts (pro-formas, payment requests) rendered per account
}

func newLimits(db AuthStore) limits {
	return limits{
		signinIP:          db.NewLimiter("signin_ip", 30, time.Minute),
		signinEmailClient: db.NewLimiter("signin_email_ip", 10, 10*time.Minute),
		signinEmail:       db.NewLimiter("signin_email", 50, 10*time.Minute),
		publicIP:          db.NewLimiter("public_ip", 20, 10*time.Minute),
		resetIP:           db.NewLimiter("reset_ip", 10, 10*time.Minute),
		reauth:            db.NewLimiter("reauth", 10, 10*time.Minute),
		secondFactor:      db.NewLimiter("second_factor_user", 10, 10*time.Minute),
		mail:              db.NewLimiter("mail_purpose_to", 5, time.Hour),
		invitations:       db.NewLimiter("invitations", 20, time.Hour),
		pmCheckoutHour:    db.NewLimiter("pm_checkout_hour", 5, time.Hour),
		pmCheckoutDay:     db.NewLimiter("pm_checkout_day", 20, 24*time.Hour),
		exports:           db.NewLimiter("exports", 5, 24*time.Hour),
		viesAccount:       db.NewLimiter("vies_account", 10, time.Hour),
		viesClient:        db.NewLimiter("vies_client", 20, time.Hour),
		promoAccount:      db.NewLimiter("promotion_account", 20, time.Hour),
		promoClient:       db.NewLimiter("promotion_client", 40, time.Hour),
		drafts:            db.NewLimiter("drafts", 20, time.Hour),
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

// mailAllowed reports whether the mail that a public request triggers may
// go: each purpose has its own bucket per recipient, so that sign-up
// notices sent to an address never use up its owner's reset mails, and a
// mail is counted by the address it goes to, whichever address was typed.
// Beyond the limit the mail is dropped silently (the answer tells nothing).
func (s *Server) mailAllowed(ctx context.Context, m store.OutboxEntry) (bool, error) {
	req, ok := m.Payload.(kudos.MailRequest)
	if !ok {
		return false, fmt.Errorf("mail limit: outbox entry %s is no mail", m.Key)
	}
	return s.recipientAllowed(ctx, req.Purpose, req.To)
}

// recipientAllowed takes one from the bucket of mails of purpose to the
// address to (mailAllowed), and reports whether one was left.
func (s *Server) recipientAllowed(ctx context.Context, purpose kudos.MailPurpose, to string) (bool, error) {
	ok, _, err := s.limits.mail.Allow(ctx, string(purpose)+"\x00"+kudos.NormalizeEmail(to))
	return ok, err
}

// clientKey is the client in per-client rate limits: its IPv4 address, or
// the /64 of its IPv6 address (one subscriber's network: a client holding
// a /64 can speak from a new address at every request).
func (s *Server) clientKey(c fiber.Ctx) string {
	ip := s.clientIP(c)
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Is6() {
		return ip
	}
	p, _ := a.Prefix(64)
	return p.String()
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
