package sandbox

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/store"
)

// The provider's side of disputes and returned debits (issue 36 item 5):
// development routes that emit the events Stripe would
// (charge.dispute.created / closed, a SEPA debit's charge.failed after it
// succeeded) through the same intake as every payment event.

// ledgerRequest is the body of the dispute and return routes.
type ledgerRequest struct {
	AccountID uuid.UUID `json:"account_id"`
	InvoiceID uuid.UUID `json:"invoice_id"`
	// Status is the dispute's: open, won or lost.
	Status kudos.DisputeStatus `json:"status"`
}

// disputeRoute plays a dispute of the payment that paid an invoice:
// opened (status open) or closed (won, lost), as Stripe's
// charge.dispute.created and charge.dispute.closed. The dispute's id
// derives from the invoice, so its opening and its close are one dispute.
func (p *Provider) disputeRoute(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		var req ledgerRequest
		if err := decodeRequired(c, &req); err != nil {
			return err
		}
		if !req.Status.Valid() {
			return kudos.FieldErrors{"status": kudos.FInvalidValue}.Err()
		}
		typ := "charge.dispute.created"
		if req.Status.Closed() {
			typ = "charge.dispute.closed"
		}
		id, err := p.ledgerEvent(c.Context(), req, typ, false, func(payment string, amount kudos.Money) kudos.PaymentEvent {
			return kudos.PaymentEvent{Dispute: &kudos.DisputeEvent{ID: "dp_sandbox_" + req.InvoiceID.String(), Status: req.Status,
				Amount: amount, Payment: payment, Reason: "fraudulent"}}
		})
		if err != nil {
			return err
		}
		kick()
		return c.JSON(fiber.Map{"event_id": id})
	}
}

// returnRoute plays the bank taking back the debit that paid an invoice
// after it succeeded (a SEPA debit returned: Stripe's charge.failed of a
// charge that had succeeded). The invoice must be paid.
func (p *Provider) returnRoute(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		var req ledgerRequest
		if err := decodeRequired(c, &req); err != nil {
			return err
		}
		id, err := p.ledgerEvent(c.Context(), req, "charge.failed", true, func(payment string, amount kudos.Money) kudos.PaymentEvent {
			return kudos.PaymentEvent{Return: &kudos.ReturnEvent{ID: "py_sandbox_" + uuid.NewString(), Payment: payment, Amount: amount,
				Reason: "insufficient_funds"}}
		})
		if err != nil {
			return err
		}
		kick()
		return c.JSON(fiber.Map{"event_id": id})
	}
}

// ledgerEvent emits (as event type typ), with its delivery, the payment
// event that build builds for the payment of the account's invoice req.InvoiceID (its
// reference and amount), and returns its id. An invoice the account does
// not have is ENotFound; one no payment settled (or, with paid, one not
// paid now) is EConflict.
func (p *Provider) ledgerEvent(ctx context.Context, req ledgerRequest, typ string, paid bool,
	build func(payment string, amount kudos.Money) kudos.PaymentEvent) (string, error) {
	var payment *string
	var status string
	var amount kudos.Money
	err := p.DB.Pool.QueryRow(ctx, `SELECT paid_by, status, total_amount, currency FROM invoices WHERE id = $1 AND account_id = $2
		AND kind <> 'CREDIT_NOTE'`, req.InvoiceID, req.AccountID).Scan(&payment, &status, &amount.Amount, &amount.Currency)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", kudos.NotFound()
	case err != nil:
		return "", store.Classify(err)
	case payment == nil || (paid && status != string(kudos.InvoicePaid)):
		return "", kudos.Errorf(kudos.EConflict, "no payment of this invoice to take back")
	}
	ev := build(*payment, amount)
	ev.EventID, ev.Provider, ev.AccountID, ev.OccurredAt = "sandbox_"+uuid.NewString(), "sandbox", req.AccountID, p.DB.Now()
	err = p.DB.InTx(ctx, func(tx pgx.Tx) error {
		if err := keepDispute(ctx, tx, ev); err != nil {
			return err
		}
		return p.emit(ctx, tx, typ, ev)
	})
	return ev.EventID, store.Classify(err)
}

// keepDispute keeps the dispute of ev (none: nothing) in the sandbox's own
// list of disputes (sandbox_disputes, what ListDisputes reads), as the
// provider stands on it: opened when first seen, then decided once (a
// decision is final; a repeated close changes nothing).
func keepDispute(ctx context.Context, tx pgx.Tx, ev kudos.PaymentEvent) error {
	d := ev.Dispute
	if d == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO sandbox_disputes (id, account_id, payment, amount, currency, status, reason, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status WHERE sandbox_disputes.status = 'open'`,
		d.ID, ev.AccountID, d.Payment, d.Amount.Amount, d.Amount.Currency, d.Status, d.Reason, ev.OccurredAt)
	return err
}
