package api

import (
	"github.com/gofiber/fiber/v3"

	"kudos"
)

// accountResponse is the answer of GET /v1/accounts/{id} (ARCHITECTURE §4).
type accountResponse struct {
	Account *kudos.Account `json:"account"`
	User    *kudos.User    `json:"user"`
}

// registerAccountRoutes adds the /v1/accounts routes. Every one requires a
// session and membership of the account in the path.
func (s *Server) registerAccountRoutes(v1 fiber.Router) {
	v1.Get("/accounts/:accountId", s.requireSession, s.getAccount)
}

// getAccount answers the account with its subscription and the caller, in
// one query. Not a member (or no such account): 404. Unactivated: 403.
func (s *Server) getAccount(c fiber.Ctx) error {
	id, err := pathUUID(c, "accountId")
	if err != nil {
		return err
	}
	a, u, err := s.DB.AccountView(ctx(c), id, session(c).UserID)
	if err != nil {
		return err
	}
	if !u.Activated {
		return kudos.Errorf(kudos.ENotActivated, "the user must be activated")
	}
	return c.JSON(accountResponse{Account: a, User: u})
}
