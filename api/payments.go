package api

import (
	"context"
	"kudos/dispatch"

	"github.com/gofiber/fiber/v3"

	"kudos"
)

// WebhookParser verifies a provider's webhook and returns the payment event
// it announces (nil for events of no interest).
type WebhookParser interface {
	ParseWebhook(ctx context.Context, payload []byte, signatureHeader string) (*kudos.PaymentEvent, error)
}

// SandboxRoutes is the development payment sandbox's own routes: its
// hosted checkout and the development route to decline charges
// (sandbox.Provider).
type SandboxRoutes interface {
	RegisterRoutes(app fiber.Router, kick func())
}

// registerPaymentRoutes adds the payment event intake: Stripe's webhook, and
// in development the sandbox's hosted checkout whose buttons feed the same
// intake. Each event is stored once by id with its delivery to the account's
// subscription workflow (ARCHITECTURE §5).
func (s *Server) registerPaymentRoutes(app *fiber.App) {
	if s.Webhooks != nil {
		app.Post("/v1/webhooks/stripe", s.stripeWebhook)
	}
	if sb, ok := s.Payments.(SandboxRoutes); ok && s.Config.IsDevelopment() {
		sb.RegisterRoutes(app, s.Outbox.Kick)
	}
}

func (s *Server) stripeWebhook(c fiber.Ctx) error {
	ev, err := s.Webhooks.ParseWebhook(ctx(c), c.Body(), c.Get("Stripe-Signature"))
	if err != nil {
		return err
	}
	if ev == nil {
		return c.JSON(fiber.Map{"received": true})
	}
	if _, err := s.DB.RecordPaymentEvent(ctx(c), *ev, dispatch.PaymentEvent); err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(fiber.Map{"received": true})
}
