package api

import (
	"net/netip"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos/store"
)

// registerSessionRoutes adds the signed-in devices of the caller (personal
// details) to the account group acc (session and membership guards): list
// them, end one, end all but this one. They only ever touch the caller's own
// sessions.
func (s *Server) registerSessionRoutes(acc fiber.Router) {
	acc.Get("/sessions", s.listSessions)
	acc.Delete("/sessions", s.endOtherSessions)
	acc.Delete("/sessions/:sessionId", s.endSession)
}

// sessionView is one signed-in device.
type sessionView struct {
	ID         string `json:"id"`
	CreatedAt  string `json:"created_at"`
	LastSeenAt string `json:"last_seen_at"`
	ExpiresAt  string `json:"expires_at"`
	UserAgent  string `json:"user_agent"`
	// Current marks the session making the request.
	Current bool `json:"current"`
	// SignInMethod is how it signed in (password, google, passkey, link;
	// null for sessions older than issue 29), SecondFactor the second
	// factor it met then (totp, recovery_code, passkey; null when none).
	SignInMethod *string `json:"sign_in_method"`
	SecondFactor *string `json:"second_factor"`
	// Browser and System name the device from its User-Agent ("Chrome",
	// "macOS"; "Safari", "iPhone"), "" when the parser does not know it;
	// Network is where it signed in from (a /24 or /48, "" before issue 37).
	Browser string `json:"browser"`
	System  string `json:"system"`
	Network string `json:"network"`
}

func (s *Server) listSessions(c fiber.Ctx) error {
	sess := session(c)
	list, err := s.DB.UserSessions(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	out := make([]sessionView, 0, len(list))
	for _, x := range list {
		browser, system := describeAgent(x.UserAgent)
		out = append(out, sessionView{ID: x.ID.String(), CreatedAt: x.CreatedAt.UTC().Format(time.RFC3339),
			LastSeenAt: x.LastSeenAt.UTC().Format(time.RFC3339), ExpiresAt: x.ExpiresAt.UTC().Format(time.RFC3339),
			UserAgent: x.UserAgent, Current: x.ID == sess.ID, SignInMethod: nonEmpty(x.SignInMethod), SecondFactor: nonEmpty(x.SecondFactor),
			Browser: browser, System: system, Network: x.Network})
	}
	return c.JSON(fiber.Map{"sessions": out})
}

func (s *Server) endSession(c fiber.Ctx) error {
	id, err := pathUUID(c, "sessionId")
	if err != nil {
		return err
	}
	if err := s.DB.RevokeUserSession(ctx(c), session(c).UserID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) endOtherSessions(c fiber.Ctx) error {
	sess := session(c)
	if err := s.DB.RevokeOtherSessions(ctx(c), sess.UserID, sess.ID); err != nil {
		return err
	}
	s.setDeviceCookie(c, sess.UserID) // the others' cookies are void
	return c.SendStatus(fiber.StatusNoContent)
}

// withClient lets a session created by the request record the client's
// User-Agent and network (store.WithUserAgent, store.WithNetwork), shown in
// the list of devices.
func (s *Server) withClient(c fiber.Ctx) error {
	ctx := store.WithUserAgent(c.Context(), c.Get(fiber.HeaderUserAgent))
	c.SetContext(store.WithNetwork(ctx, networkOf(s.clientIP(c))))
	return c.Next()
}

// networkOf is the network of a client address as the list of devices
// shows it: its /24 (IPv4) or /48 (IPv6), what a person recognises (home,
// office, a provider) without the list keeping the address itself; "" for
// no address.
func networkOf(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	bits := 24
	if a.Is6() {
		bits = 48
	}
	p, _ := a.Prefix(bits)
	return p.String()
}

// nonEmpty is s, or nil (JSON null) when it is empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
