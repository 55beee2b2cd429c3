package api

import (
	"context"
	"fmt"
	"html/template"
	"kudos/dispatch"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// WebhookParser verifies a provider's webhook and returns the payment event
// it announces (nil for events of no interest).
type WebhookParser interface {
	ParseWebhook(ctx context.Context, payload []byte, signatureHeader string) (*kudos.PaymentEvent, error)
}

// registerPaymentRoutes adds the payment event intake: Stripe's webhook, and
// in development the sandbox's hosted checkout whose buttons feed the same
// intake. Each event is stored once by id with its delivery to the account's
// subscription workflow (ARCHITECTURE §5).
func (s *Server) registerPaymentRoutes(app *fiber.App) {
	if s.Webhooks != nil {
		app.Post("/v1/webhooks/stripe", s.stripeWebhook)
	}
	if s.Config.IsDevelopment() && s.Payments.Name() == "sandbox" {
		app.Get("/sandbox/checkout/:id", s.sandboxPage)
		app.Post("/sandbox/checkout/:id/pay", s.sandboxSettle(kudos.PaymentPaid))
		app.Post("/sandbox/checkout/:id/fail", s.sandboxSettle(kudos.PaymentFailed))
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

var sandboxPage = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · Kudos</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;margin:0;display:grid;place-items:center;min-height:100vh;color:#18181b}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002;padding:2rem;max-width:26rem;width:100%}
.tag{display:inline-block;font-size:.75rem;background:#fef3c7;color:#92400e;padding:.15rem .5rem;border-radius:999px}
h1{font-size:1.25rem;margin:.75rem 0 .25rem} .amount{font-size:2rem;font-weight:700;margin:1rem 0}
form{display:inline} button{font:inherit;border:0;border-radius:8px;padding:.6rem 1.1rem;cursor:pointer;margin-right:.5rem}
.pay{background:#4f46e5;color:#fff} .fail{background:#e4e4e7} p{color:#52525b}
</style></head><body><main>
<span class="tag">Sandbox — no real money moves</span>
<h1>{{.Description}}</h1>
{{if eq .Status "open"}}
<div class="amount">{{.Amount}}</div>
<p>Test card Visa •••• 4242. Choose how this payment ends.</p>
<form method="post" action="/sandbox/checkout/{{.ID}}/pay"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="/sandbox/checkout/{{.ID}}/fail"><button class="fail" type="submit">Fail</button></form>
{{else}}
<p>This checkout is {{.Status}}.</p>
{{end}}
<p><a href="{{.CancelURL}}">Back to Kudos</a></p>
</main></body></html>`))

// sandboxPage renders the hosted checkout of the sandbox.
func (s *Server) sandboxPage(c fiber.Ctx) error {
	co, err := s.DB.SandboxCheckoutByID(ctx(c), c.Params("id"))
	if err != nil {
		return err
	}
	status := co.Status
	if status == "open" && !co.ExpiresAt.After(s.DB.Now()) {
		status = "expired"
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	var b strings.Builder
	err = sandboxPage.Execute(&b, map[string]any{"ID": co.ID, "Description": co.Description, "Status": status,
		"CancelURL": co.CancelURL, "Amount": fmt.Sprintf("%s %.2f", co.Amount.Currency, float64(co.Amount.Amount)/100)})
	if err != nil {
		return err
	}
	return c.SendString(b.String())
}

// sandboxSettle is a Pay or Fail button: it settles the checkout, stores the
// payment event with its delivery, and sends the browser back to the app
// (API clients asking for JSON get the event's outcome instead).
func (s *Server) sandboxSettle(outcome kudos.PaymentOutcome) fiber.Handler {
	return func(c fiber.Ctx) error {
		co, err := s.DB.CompleteSandboxCheckout(ctx(c), c.Params("id"), outcome, dispatch.PaymentEvent)
		if err != nil {
			return err
		}
		s.Outbox.Kick()
		if strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMEApplicationJSON) {
			return c.JSON(fiber.Map{"status": string(outcome)})
		}
		target := co.SuccessURL
		if outcome != kudos.PaymentPaid {
			target = co.CancelURL
		}
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
}

type declineRequest struct {
	AccountID uuid.UUID `json:"account_id"`
	Decline   bool      `json:"decline"`
}

// devDeclines makes the sandbox decline (or accept again) an account's
// off-session charges, to try failed renewals.
func (s *Server) devDeclines(c fiber.Ctx) error {
	var req declineRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := s.DB.SetSandboxDeclines(ctx(c), req.AccountID, req.Decline); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
