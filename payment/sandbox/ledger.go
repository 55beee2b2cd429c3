package sandbox

import (
	"context"
	"math"

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
