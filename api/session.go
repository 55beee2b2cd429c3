package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

const localSession = "session"

// requireSession admits requests with a valid bearer token whose session row
// is live, and stores the session for the handlers.
func (s *Server) requireSession(c fiber.Ctx) error {
	sid, uid, err := s.bearer(c)
	if err != nil {
		return err
	}
	sess, err := s.liveSession(c, sid, uid)
	if err != nil {
		return err
	}
	c.Locals(localSession, sess)
	return c.Next()
}

// bearer parses the request's bearer token (signature and expiry only: the
// session row is not read).
func (s *Server) bearer(c fiber.Ctx) (sessionID, userID uuid.UUID, err error) {
	token, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
	if !ok {
		return uuid.Nil, uuid.Nil, kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	return s.Sessions.Parse(strings.TrimSpace(token))
}

// liveSession reads the session row of a parsed token: revoked, expired or
// belonging to someone else is 401.
func (s *Server) liveSession(c fiber.Ctx, sessionID, userID uuid.UUID) (*kudos.Session, error) {
	sess, err := s.DB.ActiveSession(ctx(c), sessionID)
	if err != nil {
		return nil, err
	}
	if sess.UserID != userID {
		return nil, kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	return sess, nil
}

// session returns the session stored by requireSession.
func session(c fiber.Ctx) *kudos.Session {
	sess, _ := c.Locals(localSession).(*kudos.Session)
	return sess
}
