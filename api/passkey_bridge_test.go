package api

import (
	"encoding/json"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// PasskeyAssertionApp is, for the tests of package api_test, a small app
// on s (built by New) whose two routes call beginPasskeyAssertion and
// finishPasskeyAssertion as the second-factor and step-up routes do, with
// any purpose and user (the routes themselves: TestPasskeyMeetsTheSecondFactor):
// POST /begin {user_id?, purpose} answers the options, POST /finish
// {purpose, ceremony_id, credential} the user id.
func PasskeyAssertionApp(s *Server) *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: ErrorHandler(s.Log)})
	app.Post("/begin", func(c fiber.Ctx) error {
		var req struct {
			UserID  *uuid.UUID `json:"user_id"`
			Purpose string     `json:"purpose"`
		}
		if err := json.Unmarshal(c.Body(), &req); err != nil {
			return err
		}
		out, err := s.beginPasskeyAssertion(c, req.UserID, req.Purpose)
		if err != nil {
			return err
		}
		return c.JSON(out)
	})
	app.Post("/finish", func(c fiber.Ctx) error {
		var req struct {
			Purpose string `json:"purpose"`
			passkeyAssertion
		}
		if err := json.Unmarshal(c.Body(), &req); err != nil {
			return err
		}
		id, err := s.finishPasskeyAssertion(c, req.Purpose, req.passkeyAssertion)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"user_id": id})
	})
	return app
}
