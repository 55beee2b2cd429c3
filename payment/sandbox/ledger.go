package sandbox

import (
	"context"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/store"
)

// providerRefundRequest is the body of POST /dev/sandbox/provider-refund:
// a refund made in the provider's dashboard, of amount (major units; nil:
// all that is left) of the payment of an invoice.
type providerRefundRequest struct {
	AccountID uuid.UUID `json:"account_id"`
	InvoiceID uuid.UUID `json:"invoice_id"`
	Amount    *float64  `json:"amount"`
}

// providerRefund makes a refund as an operator would in Stripe's dashboard
// (issue 36 item 5): the sandbox gives the money back and records the
// event Stripe would send (charge.refunded), which Kudos books as any
// refund: its credit note, mail and timeline, once. 200 {refund_id}.
func (p *Provider) providerRefund(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		var req providerRefundRequest
		if err := decodeRequired(c, &req); err != nil {
			return err
		}
		if req.AccountID == uuid.Nil || req.InvoiceID == uuid.Nil {
			return kudos.FieldErrors{"invoice_id": kudos.FRequired}.Err()
		}
		var amount *int64
		if req.Amount != nil {
			v := int64(math.Round(*req.Amount * 100))
			if v <= 0 || math.IsNaN(*req.Amount) || math.IsInf(*req.Amount, 0) {
				return kudos.FieldErrors{"amount": kudos.FInvalidValue}.Err()
			}
			amount = &v
		}
		id, err := p.RefundAtProvider(c.Context(), req.AccountID, req.InvoiceID, amount)
		if err != nil {
			return err
		}
		kick()
		return c.JSON(fiber.Map{"refund_id": id})
	}
}

// RefundAtProvider refunds amount (minor units; nil: all that is left) of
// the payment of the account's invoice as a dashboard refund: the sandbox's
// refund and the provider event that reports it, in one transaction. It
// returns the provider's refund id. More than is left is EInvalid; an
// invoice of another account, or none, ENotFound.
func (p *Provider) RefundAtProvider(ctx context.Context, accountID, invoiceID uuid.UUID, amount *int64) (string, error) {
	pay, err := p.DB.RefundablePaymentOf(ctx, invoiceID.String())
	if kudos.ErrorCode(err) == kudos.ENotFound || (err == nil && pay.Invoice.AccountID != accountID) {
		return "", kudos.NotFound()
	} else if err != nil {
		return "", err
	}
	v := pay.Left()
	if amount != nil {
		v = *amount
	}
	if v <= 0 || v > pay.Left() {
		return "", kudos.Errorf(kudos.EInvalid, "the payment of this invoice has %d.%02d left to refund", pay.Left()/100, pay.Left()%100)
	}
	charge := pay.PaymentRef
	if pay.IsCheckout {
		charge = "checkout:" + pay.ProviderID
	}
	money := kudos.Money{Amount: v, Currency: pay.Invoice.Currency}
	id := "re_sandbox_dashboard_" + uuid.NewString()[:8]
	err = p.DB.InTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, refunded)
			VALUES ($1, $2, $3, $4, true, true) ON CONFLICT (charge_id) DO UPDATE SET refunded = true`,
			charge, accountID, pay.Invoice.Total, money.Currency); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_refunds (id, charge_id, amount, currency, created_at) VALUES ($1, $2, $3, $4, $5)`,
			id, charge, money.Amount, money.Currency, p.DB.Now()); err != nil {
			return err
		}
		ev := kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox", AccountID: accountID,
			Outcome: kudos.PaymentPaid, OccurredAt: p.DB.Now(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund,
				ProviderRefundID: id, InvoiceID: &pay.Invoice.ID, Amount: &money}}
		if pay.IsCheckout {
			ev.CheckoutID = pay.PaymentRef
		} else {
			ev.ChargeID = pay.PaymentRef
		}
		return p.emit(ctx, tx, "charge.refunded", ev)
	})
	return id, store.Classify(err)
}

// refundFailedRequest is the body of POST /dev/sandbox/refund-failed: a
// refund (the provider's id, as provider-refund or `kudos ops refund`
// answered it) that fails after it was made.
type refundFailedRequest struct {
	AccountID uuid.UUID `json:"account_id"`
	RefundID  string    `json:"refund_id"`
	// Reason is the provider's failure reason (default
	// expired_or_canceled_card, as Stripe's).
	Reason string `json:"reason"`
}

// refundFailed makes a refund fail at the provider after it was made, as
// a bank does when the card account is closed (Stripe's refund.updated
// with status failed): the sandbox marks it failed and emits the event,
// which Kudos records once (the refund failed, refund_failed on the
// timeline, its credit note standing). 200 {refund_id}; a refund of
// another account, or none, 404; one failed already 409.
func (p *Provider) refundFailed(kick func()) fiber.Handler {
	return func(c fiber.Ctx) error {
		var req refundFailedRequest
		if err := decodeRequired(c, &req); err != nil {
			return err
		}
		if req.AccountID == uuid.Nil || req.RefundID == "" {
			return kudos.FieldErrors{"refund_id": kudos.FRequired}.Err()
		}
		if req.Reason == "" {
			req.Reason = "expired_or_canceled_card"
		}
		if err := p.FailRefund(c.Context(), req.AccountID, req.RefundID, req.Reason); err != nil {
			return err
		}
		kick()
		return c.JSON(fiber.Map{"refund_id": req.RefundID})
	}
}

// FailRefund makes the account's refund providerRefundID fail, with the
// provider event that reports it (refund.updated), in one transaction.
func (p *Provider) FailRefund(ctx context.Context, accountID uuid.UUID, providerRefundID, reason string) error {
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		var charge string
		var amount kudos.Money
		var failed *time.Time
		err := tx.QueryRow(ctx, `SELECT r.charge_id, r.amount, r.currency, r.failed_at FROM sandbox_refunds r
			JOIN sandbox_charges c USING (charge_id) WHERE r.id = $1 AND c.account_id = $2 FOR UPDATE OF r`, providerRefundID, accountID).
			Scan(&charge, &amount.Amount, &amount.Currency, &failed)
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.NotFound()
		} else if err != nil {
			return err
		}
		if failed != nil {
			return kudos.Errorf(kudos.EConflict, "this refund failed already")
		}
		if _, err := tx.Exec(ctx, `UPDATE sandbox_refunds SET failed_at = $2 WHERE id = $1`, providerRefundID, p.DB.Now()); err != nil {
			return err
		}
		ev := kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox", AccountID: accountID,
			Outcome: kudos.PaymentPaid, OccurredAt: p.DB.Now(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed,
				ProviderRefundID: providerRefundID, Amount: &amount, Reason: reason}}
		if checkout, ok := strings.CutPrefix(charge, "checkout:"); ok {
			var ref string
			if err := tx.QueryRow(ctx, `SELECT checkout_id FROM sandbox_checkouts WHERE id = $1`, checkout).Scan(&ref); err != nil {
				return err
			}
			ev.CheckoutID = ref
		} else {
			ev.ChargeID = charge
		}
		return p.emit(ctx, tx, "refund.updated", ev)
	})
	return store.Classify(err)
}
