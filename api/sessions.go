package api

import (
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
}

func (s *Server) listSessions(c fiber.Ctx) error {
	sess := session(c)
	list, err := s.DB.UserSessions(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	out := make([]sessionView, 0, len(list))
	for _, x := range list {
		out = append(out, sessionView{ID: x.ID.String(), CreatedAt: x.CreatedAt.UTC().Format(time.RFC3339),
			LastSeenAt: x.LastSeenAt.UTC().Format(time.RFC3339), ExpiresAt: x.ExpiresAt.UTC().Format(time.RFC3339),
			UserAgent: x.UserAgent, Current: x.ID == sess.ID, SignInMethod: nonEmpty(x.SignInMethod), SecondFactor: nonEmpty(x.SecondFactor)})
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
	return c.SendStatus(fiber.StatusNoContent)
}

// withUserAgent lets a session created by the request record the client's
// User-Agent (store.WithUserAgent), shown in the list of devices.
func withUserAgent(c fiber.Ctx) error {
	c.SetContext(store.WithUserAgent(c.Context(), c.Get(fiber.HeaderUserAgent)))
	return c.Next()
}

// nonEmpty is s, or nil (JSON null) when it is empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
