package sandbox

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/internal/reqparse"
)

// RegisterRoutes adds the hosted checkout (GET /sandbox/checkout/:id, its
// Pay, Fail and Cancel buttons of ARCHITECTURE §4) and the development
// routes that make an account's off-session charges decline and play the
// provider's disputes and returned debits (ledger.go). kick tells
// the outbox relay that a payment event waits. Errors are *kudos.Error for
// the app's error handler.
func (p *Provider) RegisterRoutes(app fiber.Router, kick func()) {
	app.Get("/sandbox/checkout/:id", p.page)
	app.Post("/sandbox/checkout/:id/pay", p.button(kudos.PaymentPaid, kick))
	app.Post("/sandbox/checkout/:id/fail", p.button(kudos.PaymentFailed, kick))
	app.Post("/sandbox/checkout/:id/cancel", p.button(kudos.PaymentCancelled, kick))
	app.Post("/sandbox/checkout/:id/settle", p.settleButton(kick))
	app.Post("/dev/sandbox/declines", p.declines)
	app.Post("/dev/sandbox/settle", p.settleAccount(kick))
	app.Post("/dev/sandbox/refunds", p.refunds)
	app.Post("/dev/sandbox/provider-refund", p.providerRefund(kick))
	app.Post("/dev/sandbox/refund-failed", p.refundFailed(kick))
	app.Post("/dev/sandbox/dispute", p.disputeRoute(kick))
	app.Post("/dev/sandbox/return", p.returnRoute(kick))
}

var page = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · Kudos</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;margin:0;display:grid;place-items:center;min-height:100vh;color:#18181b}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002;padding:2rem;max-width:28rem;width:100%;box-sizing:border-box}
.tag{display:inline-block;font-size:.75rem;background:#fef3c7;color:#92400e;padding:.15rem .5rem;border-radius:999px}
h1{font-size:1.25rem;margin:.75rem 0 .25rem} .amount{font-size:2rem;font-weight:700;margin:1rem 0}
fieldset{border:1px solid #e4e4e7;border-radius:8px;margin:0 0 1rem;padding:.5rem 1rem}
label{display:block;padding:.3rem 0} code{font-size:.9rem}
form{display:inline} button{font:inherit;border:0;border-radius:8px;padding:.6rem 1.1rem;cursor:pointer;margin:.25rem .5rem .25rem 0}
.pay{background:#4f46e5;color:#fff} .fail{background:#e4e4e7} .link{background:none;color:#4338ca;text-decoration:underline;padding:0}
p{color:#52525b}
</style></head><body><main>
<span class="tag">Sandbox — no real money moves</span>
<h1>{{.Description}}</h1>
{{if eq .Status "open"}}
<div class="amount">{{.Amount}}</div>
<form method="post" action="/sandbox/checkout/{{.ID}}/pay">
<fieldset><legend>Test card or IBAN</legend>
{{range $i, $c := .Cards}}<label><input type="radio" name="card" value="{{$c.Number}}"{{if eq $i 0}} checked{{end}}> <code>{{$c.Number}}</code> — {{$c.Label}}</label>
{{end}}</fieldset>
<button class="pay" type="submit">Pay</button></form>
<form method="post" action="/sandbox/checkout/{{.ID}}/fail"><button class="fail" type="submit">Fail</button></form>
<p><form method="post" action="/sandbox/checkout/{{.ID}}/cancel"><button class="link" type="submit">Cancel and go back to Kudos</button></form></p>
{{else if eq .Status "pending"}}
<p>The bank is settling this SEPA Direct Debit: it takes days at Stripe. Settle it now, as the IBAN says.</p>
<form method="post" action="/sandbox/checkout/{{.ID}}/settle"><button class="pay" type="submit">Settle now</button></form>
<p><a href="{{.CancelURL}}">Back to Kudos</a></p>
{{else}}
<p>This checkout is {{.Status}}.</p>
<p><a href="{{.CancelURL}}">Back to Kudos</a></p>
{{end}}
</main></body></html>`))

// page renders the hosted checkout.
func (p *Provider) page(c fiber.Ctx) error {
	co, err := p.CheckoutByID(c.Context(), c.Params("id"))
	if err != nil {
		return err
	}
	status := co.Status
	if status == "open" && !co.ExpiresAt.After(p.DB.Now()) {
		status = "expired"
	}
	var b bytes.Buffer
	err = page.Execute(&b, map[string]any{"ID": co.ID, "Description": co.Description, "Status": status, "Cards": TestCards,
		"CancelURL": co.CancelURL, "Amount": fmt.Sprintf("%s %.2f", co.Amount.Currency, float64(co.Amount.Amount)/100)})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(b.Bytes())
}

// button is Pay, Fail or Cancel: it settles the checkout, stores the payment
// event with its delivery, and sends the browser back to the app with 303
// (the success URL after a payment, the cancel URL otherwise). API clients
// asking for JSON get the outcome instead. Pay takes the test card as the
// form field or JSON property "card" (default 4242424242424242).
func (p *Provider) button(outcome kudos.PaymentOutcome, kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		card := TestCards[0]
		if outcome == kudos.PaymentPaid {
			var err error
			if card, err = cardOf(c); err != nil {
				return err
			}
		}
		co, settled, err := p.settle(c.Context(), c.Params("id"), outcome, card)
		if err != nil {
			return err
		}
		kick()
		if strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMEApplicationJSON) {
			return c.JSON(fiber.Map{"status": string(settled)})
		}
		target := co.CancelURL
		switch settled {
		case kudos.PaymentPaid:
			target = co.SuccessURL
		case kudos.PaymentFailed: // declined: the app says so (Stripe keeps the customer on its page instead)
			target = strings.Replace(target, "checkout=cancelled", "checkout=failed", 1)
		}
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
}

// settleButton settles a pending checkout (a SEPA debit) as its IBAN says,
// recording its payment event unless the JSON body says {"notify": false}
// (a final webhook lost on the way), and sends the browser back to the app.
func (p *Provider) settleButton(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		req := settleRequest{Notify: true}
		if err := decodeOptional(c, &req); err != nil {
			return err
		}
		co, outcome, err := p.settlePending(c.Context(), c.Params("id"), req.Notify)
		if err != nil {
			return err
		}
		kick()
		if strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMEApplicationJSON) {
			return c.JSON(fiber.Map{"status": string(outcome)})
		}
		return c.Redirect().Status(fiber.StatusSeeOther).To(co.CancelURL)
	}
}

// settleRequest is the body of the settle routes.
type settleRequest struct {
	AccountID uuid.UUID `json:"account_id"`
	// Notify records the final payment event (default true).
	Notify bool `json:"notify"`
	// Authenticate also completes the charges waiting on the customer's
	// authentication, as the customer would on the provider's page
	// (POST /dev/sandbox/settle only; default false).
	Authenticate bool `json:"authenticate"`
}

// settleAccount settles everything of an account that is settling: its
// processing off-session charges (SEPA renewals) and pending checkouts.
func (p *Provider) settleAccount(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		req := settleRequest{Notify: true}
		if err := decodeRequired(c, &req); err != nil {
			return err
		}
		n, err := p.Settle(c.Context(), req.AccountID, req.Notify, req.Authenticate)
		if err != nil {
			return err
		}
		kick()
		return c.JSON(fiber.Map{"settled": n})
	}
}

// refunds makes the sandbox refuse an account's refunds for now
// ("temporary"), for good ("permanent"), or accept them again ("").
func (p *Provider) refunds(c fiber.Ctx) error {
	var req struct {
		AccountID uuid.UUID `json:"account_id"`
		Refuse    string    `json:"refuse"`
	}
	if err := decodeRequired(c, &req); err != nil {
		return err
	}
	if err := p.SetRefundRefusal(c.Context(), req.AccountID, req.Refuse); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// decodeRequired reads a JSON body into v.
func decodeRequired(c fiber.Ctx, v any) error {
	if !reqparse.IsJSONContentType(c.Get(fiber.HeaderContentType)) {
		return kudos.Errorf(kudos.EBadRequest, "the Content-Type must be application/json")
	}
	return reqparse.DecodeJSON(c.Body(), v)
}

// decodeOptional reads a JSON body into v when there is one (a form post
// from the hosted page has none to read).
func decodeOptional(c fiber.Ctx, v any) error {
	if len(bytes.TrimSpace(c.Body())) == 0 || !reqparse.IsJSONContentType(c.Get(fiber.HeaderContentType)) {
		return nil
	}
	return reqparse.DecodeJSON(c.Body(), v)
}

// cardOf reads the test card of a Pay press.
func cardOf(c fiber.Ctx) (TestCard, error) {
	var number string
	if body := bytes.TrimSpace(c.Body()); len(body) > 0 {
		if reqparse.IsJSONContentType(c.Get(fiber.HeaderContentType)) {
			var req struct {
				Card string `json:"card"`
			}
			if err := reqparse.DecodeJSON(body, &req); err != nil {
				return TestCard{}, err
			}
			number = req.Card
		} else {
			number = c.FormValue("card")
		}
	}
	card, ok := CardByNumber(number)
	if !ok {
		return TestCard{}, kudos.FieldErrors{"card": kudos.FInvalidValue}.Err()
	}
	return card, nil
}

// declines makes the sandbox decline (or accept again) an account's
// off-session charges, to try failed renewals.
func (p *Provider) declines(c fiber.Ctx) error {
	var req struct {
		AccountID uuid.UUID `json:"account_id"`
		Decline   bool      `json:"decline"`
	}
	if err := decodeRequired(c, &req); err != nil {
		return err
	}
	if err := p.SetDeclines(c.Context(), req.AccountID, req.Decline); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
