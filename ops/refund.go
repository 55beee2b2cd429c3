package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
	"kudos/store"
)

// Refunds by ops (issue 36 item 2): `kudos ops refund <invoice> [--amount
// 12.34] --reason "…"`. The provider refunds first, under an id derived
// from the invoice, the amount asked and the reason (running the same
// command twice refunds once); the refund is then booked as every refund
// is, by the account's subscription workflow from a provider event (its
// row, its credit note, the refund_issued mail, the timeline's refund
// event), so that the provider's own event for the same refund, when it
// comes, finds it booked.

// RefundStore is the part of the store a Refunder uses (*store.DB).
type RefundStore interface {
	RefundablePaymentOf(ctx context.Context, idOrNumber string) (*store.RefundablePayment, error)
	RefundStatus(ctx context.Context, id string) (string, error)
	RefundByProviderID(ctx context.Context, providerRefundID string) (string, error)
	CreditNoteOfRefund(ctx context.Context, accountID uuid.UUID, refundID string) (*kudos.Invoice, error)
	RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) store.OutboxEntry) (bool, error)
	Now() time.Time
}

// Refunder makes operators' refunds.
type Refunder struct {
	Store    RefundStore
	Payments kudos.PaymentProvider
	// Kick tells the outbox relay an entry waits (nil: the relay of the
	// running api finds it on its next poll).
	Kick func()
	// Wait is how long Refund waits for the workflow to book the refund
	// (0: 30 s).
	Wait time.Duration
}

// RefundResult is what `kudos ops refund` prints.
type RefundResult struct {
	RefundID         string      `json:"refund_id"`
	ProviderRefundID string      `json:"provider_refund_id"`
	Invoice          string      `json:"invoice"`
	Amount           kudos.Money `json:"amount"`
	CreditNoteNumber string      `json:"credit_note_number,omitempty"`
	// Already: the same refund had been made before (nothing new).
	Already bool `json:"already,omitempty"`
	// Booked: the workflow has booked it (else it will, from the outbox).
	Booked bool `json:"booked"`
}

// OpsRefundID is the id of an operator's refund of invoiceID: the amount
// asked (minor units; nil: all that is left) and the reason make it, so
// that the same command twice is the same refund at the provider.
func OpsRefundID(invoiceID string, amount *int64, reason string) string {
	a := "all"
	if amount != nil {
		a = strconv.FormatInt(*amount, 10)
	}
	sum := sha256.Sum256([]byte(invoiceID + "\x00" + a + "\x00" + reason))
	return "ops-refund:" + hex.EncodeToString(sum[:10])
}

// Refund refunds amount (minor units; nil: all that is left) of the payment
// of the invoice named by its id or number, for reason. More than is left
// to refund, a credit note, an invoice not paid through the provider, or
// no reason, is an EInvalid error that says so.
func (r *Refunder) Refund(ctx context.Context, invoice string, amount *int64, reason string) (*RefundResult, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, kudos.Errorf(kudos.EInvalid, "a reason is required (--reason)")
	}
	if amount != nil && *amount <= 0 {
		return nil, kudos.Errorf(kudos.EInvalid, "the amount must be positive")
	}
	pay, err := r.Store.RefundablePaymentOf(ctx, invoice)
	if err != nil {
		return nil, err
	}
	base := OpsRefundID(pay.Invoice.ID.String(), amount, reason)
	id := base
	status, err := r.Store.RefundStatus(ctx, id)
	for n := 2; err == nil && status == "failed"; n++ {
		// The same refund asked again after it failed at the provider: a
		// new refund there (under the failed one's key the provider would
		// answer the failed one), paid out against its credit note.
		id = fmt.Sprintf("%s:%d", base, n)
		status, err = r.Store.RefundStatus(ctx, id)
	}
	res := &RefundResult{RefundID: id, Invoice: pay.Invoice.Number}
	if err == nil && status == "refunded" {
		res.Already, res.Booked = true, true
		return res, r.describe(ctx, pay, res)
	} else if err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
		return nil, err
	}
	v := pay.Left()
	if amount != nil {
		v = *amount
	}
	switch {
	case pay.Disputed == "open":
		return nil, kudos.Errorf(kudos.EInvalid, "invoice %s's payment is disputed (open): the card network decides it, and the provider refunds no disputed payment; once the dispute is won it can be refunded",
			pay.Invoice.Number)
	case pay.Disputed != "":
		return nil, kudos.Errorf(kudos.EInvalid, "invoice %s's payment is disputed (%s): the dispute's credit note has reversed the sale already",
			pay.Invoice.Number, pay.Disputed)
	case pay.Left() <= 0:
		return nil, kudos.Errorf(kudos.EInvalid, "invoice %s is refunded in full already (%s paid)", pay.Invoice.Number, major(pay.Invoice.Total))
	case v > pay.Left():
		return nil, kudos.Errorf(kudos.EInvalid, "refunds would exceed what was paid: invoice %s paid %s, %s refunded already, %s left; %s asked",
			pay.Invoice.Number, major(pay.Invoice.Total), major(pay.Refunded), major(pay.Left()), major(v))
	}
	res.Amount = kudos.Money{Amount: v, Currency: pay.Invoice.Currency}
	req := kudos.RefundRequest{RefundID: id, AccountID: pay.Invoice.AccountID, Amount: res.Amount, Reason: reason}
	if pay.IsCheckout {
		req.ProviderID = pay.ProviderID
	} else {
		// The payment's own id when known: an erased account's customer,
		// through which the provider finds a charge by our key, is gone.
		req.ChargeID, req.PaymentID = pay.PaymentRef, pay.PaymentID
	}
	if res.ProviderRefundID, err = r.Payments.Refund(ctx, req); err != nil {
		return nil, fmt.Errorf("the payment provider did not refund: %w", err)
	}
	ev := kudos.PaymentEvent{EventID: "ops_refund:" + id, Provider: r.Payments.Name(), AccountID: pay.Invoice.AccountID,
		Outcome: kudos.PaymentPaid, OccurredAt: r.Store.Now(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund,
			RefundID: id, ProviderRefundID: res.ProviderRefundID, InvoiceID: &pay.Invoice.ID, Amount: &res.Amount, Reason: reason}}
	if pay.IsCheckout {
		ev.CheckoutID = pay.PaymentRef
	} else {
		ev.ChargeID = pay.PaymentRef
	}
	if _, err := r.Store.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
		return nil, fmt.Errorf("refunded at the provider (%s) but not recorded: run the same command again: %w", res.ProviderRefundID, err)
	}
	if r.Kick != nil {
		r.Kick()
	}
	return res, r.awaitBooking(ctx, pay, res)
}

// awaitBooking waits (up to r.Wait) for the workflow to book the refund,
// under its id or, when the provider's event came first, the provider's.
func (r *Refunder) awaitBooking(ctx context.Context, pay *store.RefundablePayment, res *RefundResult) error {
	wait := r.Wait
	if wait == 0 {
		wait = 30 * time.Second
	}
	deadline := time.Now().Add(wait)
	for {
		booked, err := r.Store.RefundByProviderID(ctx, res.ProviderRefundID)
		if err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
			return err
		}
		if booked != "" {
			res.RefundID, res.Booked = booked, true
			return r.describe(ctx, pay, res)
		}
		if time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// describe fills in the booked refund's credit note.
func (r *Refunder) describe(ctx context.Context, pay *store.RefundablePayment, res *RefundResult) error {
	cn, err := r.Store.CreditNoteOfRefund(ctx, pay.Invoice.AccountID, res.RefundID)
	if err == nil && cn != nil {
		res.CreditNoteNumber = cn.Number
		if res.Amount.Amount == 0 {
			res.Amount = kudos.Money{Amount: -cn.Total, Currency: cn.Currency}
		}
		return nil
	}
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	}
	return err
}

// major formats minor units as major ones (12.34).
func major(v int64) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }

// ParseAmount reads an amount in major units ("12.34", "12", "12.3") as
// minor units; anything else (a negative, three decimals) is EInvalid.
func ParseAmount(s string) (int64, error) {
	whole, frac, _ := strings.Cut(strings.TrimSpace(s), ".")
	if len(frac) > 2 || whole == "" || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, kudos.Errorf(kudos.EInvalid, "invalid amount %q: want major units, as 12.34", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e12 {
		return 0, kudos.Errorf(kudos.EInvalid, "invalid amount %q: want major units, as 12.34", s)
	}
	var f int64
	if frac != "" {
		for len(frac) < 2 {
			frac += "0"
		}
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil || f < 0 {
			return 0, kudos.Errorf(kudos.EInvalid, "invalid amount %q: want major units, as 12.34", s)
		}
	}
	if v := w*100 + f; v > 0 {
		return v, nil
	}
	return 0, kudos.Errorf(kudos.EInvalid, "the amount must be positive")
}

// WriteRefund prints what an operator's refund did.
func WriteRefund(w io.Writer, r *RefundResult) error {
	what := "refunded"
	if r.Already {
		what = "was refunded before (nothing new)"
	}
	_, err := fmt.Fprintf(w, "invoice %s: %s %s %s\nrefund:      %s (provider %s)\n", r.Invoice, what, r.Amount.Currency, major(r.Amount.Amount),
		r.RefundID, orNone(r.ProviderRefundID))
	if err != nil {
		return err
	}
	switch {
	case r.CreditNoteNumber != "":
		_, err = fmt.Fprintf(w, "credit note: %s\n", r.CreditNoteNumber)
	case r.Booked:
		_, err = fmt.Fprintln(w, "credit note: none (the payment settled no numbered invoice)")
	default:
		_, err = fmt.Fprintln(w, "credit note: not booked yet: the subscription workflow books it from the outbox (see `kudos ops account`)")
	}
	return err
}
