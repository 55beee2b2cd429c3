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
	sess, err := s.DB.ActiveSession(ctx(c), sid)
	if err != nil {
		return err
	}
	if sess.UserID != uid {
		return kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
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

// session returns the session stored by requireSession.
func session(c fiber.Ctx) *kudos.Session {
	sess, _ := c.Locals(localSession).(*kudos.Session)
	return sess
}
