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
	OwedRefundOf(ctx context.Context, id string) (*store.OwedRefund, error)
	RefundStatus(ctx context.Context, id string) (string, error)
	RefundMade(ctx context.Context, id string) (uuid.UUID, kudos.Money, error)
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
	RefundID         string `json:"refund_id"`
	ProviderRefundID string `json:"provider_refund_id"`
	Invoice          string `json:"invoice,omitempty"`
	// Repays is the failed refund a `--failed` refund made again (its
	// Invoice is "" when that refund credited none).
	Repays           string      `json:"repays,omitempty"`
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
// of the invoice named by its id or number, for reason. What is left is
// what the payment paid less its refunds, never more than the invoice has
// left to credit (its total less all its credit notes, plus what failed
// refunds of the payment still owe against theirs): after a returned debit
// paid again by another payment, the credit notes of the first stand.
// More than is left, a credit note, an invoice not paid through the
// provider, a failed refund still owed of another payment of the account
// that paid no invoice (a duplicate's: refunded again with RefundFailed,
// never by refunding this sale), or no reason, is an EInvalid error that
// says so.
func (r *Refunder) Refund(ctx context.Context, invoice string, amount *int64, reason string) (*RefundResult, error) {
	reason, err := checkRefund(amount, reason)
	if err != nil {
		return nil, err
	}
	pay, err := r.Store.RefundablePaymentOf(ctx, invoice)
	if err != nil {
		return nil, err
	}
	if len(pay.OwedElsewhere) > 0 {
		return nil, kudos.Errorf(kudos.EInvalid, "the account has a refund of another payment than invoice %s's (one that paid no invoice) that failed at the provider and is still owed: "+
			"refund it again from its own payment with `kudos ops refund --failed %s --reason \"…\"` (refunding this invoice would reverse its sale "+
			"and leave that refund owed); then refund this invoice if that is meant too", pay.Invoice.Number, pay.OwedElsewhere[0])
	}
	res, err := r.refundID(ctx, OpsRefundID(pay.Invoice.ID.String(), amount, reason))
	if err != nil {
		return nil, err
	}
	res.Invoice = pay.Invoice.Number
	if res.Already {
		return res, r.describe(ctx, pay.Invoice.AccountID, res)
	}
	left := pay.Creditable()
	v := left
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
			pay.Invoice.Number, major(pay.Invoice.Total), major(pay.Refunded), major(left), major(v))
	case left <= 0:
		return nil, kudos.Errorf(kudos.EInvalid, "invoice %s is credited in full already (%s of credit notes, some of refunds of an earlier payment of it, returned since): nothing is left to refund against it",
			pay.Invoice.Number, major(pay.Credited))
	case v > left:
		return nil, kudos.Errorf(kudos.EInvalid, "refunds would exceed what is left to credit: invoice %s of %s has %s of credit notes, %s left; %s asked",
			pay.Invoice.Number, major(pay.Invoice.Total), major(pay.Credited), major(left), major(v))
	}
	res.Amount = kudos.Money{Amount: v, Currency: pay.Invoice.Currency}
	err = r.refundAt(ctx, res, refundOf{accountID: pay.Invoice.AccountID, ref: pay.PaymentRef, providerID: pay.ProviderID,
		isCheckout: pay.IsCheckout, paymentID: pay.PaymentID, invoiceID: &pay.Invoice.ID}, reason)
	return res, err
}

// RefundFailed refunds again the refund failedID that failed at the
// provider and is still owed (`kudos ops refund --failed <refund id>`):
// amount of it (nil: all that is owed), from its own payment, for reason.
// The refund is booked as any (BookRefund) and repays the failed one: no
// credit note when that one had none (a duplicate payment's refund), none
// of its own when it had one (it pays out against it). A refund not
// failed, owed no more (repaid, settled by a lost dispute, or by the
// return of its payment: the bank gave the customer all of it back, and
// paying again would pay twice), or more than is owed, is EInvalid.
func (r *Refunder) RefundFailed(ctx context.Context, failedID string, amount *int64, reason string) (*RefundResult, error) {
	reason, err := checkRefund(amount, reason)
	if err != nil {
		return nil, err
	}
	// The same command run again finds its refund made (the failed one
	// is owed no more then).
	res, err := r.refundID(ctx, OpsRefundID("failed:"+failedID, amount, reason))
	if err != nil || res.Already {
		return r.madeBefore(ctx, res, failedID, err)
	}
	f, err := r.Store.OwedRefundOf(ctx, failedID)
	if err != nil {
		return nil, err
	}
	if f.ID != failedID { // a refund made again that failed too: its first refund is owed again
		if res, err = r.refundID(ctx, OpsRefundID("failed:"+f.ID, amount, reason)); err != nil || res.Already {
			return r.madeBefore(ctx, res, f.ID, err)
		}
	}
	res.Repays = f.ID
	res.Amount = f.Owed
	if amount != nil {
		if *amount > f.Owed.Amount {
			return nil, kudos.Errorf(kudos.EInvalid, "refund %s owes the customer %s; %s asked", f.ID, major(f.Owed.Amount), major(*amount))
		}
		res.Amount.Amount = *amount
	}
	err = r.refundAt(ctx, res, refundOf{accountID: f.AccountID, ref: f.PaymentRef, providerID: f.ProviderID, isCheckout: f.IsCheckout,
		paymentID: f.PaymentID, invoiceID: f.InvoiceID}, reason)
	return res, err
}

// madeBefore answers RefundFailed's refund of failedID made before (or
// the error looking it up).
func (r *Refunder) madeBefore(ctx context.Context, res *RefundResult, failedID string, err error) (*RefundResult, error) {
	if err != nil {
		return nil, err
	}
	res.Repays = failedID
	accountID, amount, err := r.Store.RefundMade(ctx, res.RefundID)
	if err != nil {
		return nil, err
	}
	res.Amount = amount
	return res, r.describe(ctx, accountID, res)
}

// checkRefund checks an operator's amount and reason, and returns the
// reason trimmed.
func checkRefund(amount *int64, reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "", kudos.Errorf(kudos.EInvalid, "a reason is required (--reason)")
	}
	if amount != nil && *amount <= 0 {
		return "", kudos.Errorf(kudos.EInvalid, "the amount must be positive")
	}
	return reason, nil
}

// refundID returns the refund to make under base: base itself, or, when
// that refund failed at the provider (the same command run again after the
// failure; failed, or settled since by a lost dispute or a return), the
// next of base:2, base:3…: a new refund there (under the failed one's key
// the provider would answer the failed one). Already is set when it was
// made before.
func (r *Refunder) refundID(ctx context.Context, base string) (*RefundResult, error) {
	id := base
	status, err := r.Store.RefundStatus(ctx, id)
	for n := 2; err == nil && (status == "failed" || status == "settled_by_dispute" || status == "settled_by_return"); n++ {
		id = fmt.Sprintf("%s:%d", base, n)
		status, err = r.Store.RefundStatus(ctx, id)
	}
	res := &RefundResult{RefundID: id}
	if err == nil && status == "refunded" {
		res.Already, res.Booked = true, true
	} else if err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
		return nil, err
	}
	return res, nil
}

// refundOf is the payment a refund gives back: the account's payment ref
// (a checkout, found at the provider by its providerID, or an off-session
// charge, by its paymentID when known) and the invoice it settled (nil:
// none, or the one BookRefund finds by ref).
type refundOf struct {
	accountID  uuid.UUID
	ref        string
	providerID string
	isCheckout bool
	paymentID  string
	invoiceID  *uuid.UUID
}

// refundAt refunds res.Amount of p at the provider under res.RefundID,
// records the provider event the account's workflow books it from, and
// waits for the booking.
func (r *Refunder) refundAt(ctx context.Context, res *RefundResult, p refundOf, reason string) error {
	var err error
	req := kudos.RefundRequest{RefundID: res.RefundID, AccountID: p.accountID, Amount: res.Amount, Reason: reason}
	if p.isCheckout {
		req.ProviderID = p.providerID
	} else {
		// The payment's own id when known: an erased account's customer,
		// through which the provider finds a charge by our key, is gone.
		req.ChargeID, req.PaymentID = p.ref, p.paymentID
	}
	if res.ProviderRefundID, err = r.Payments.Refund(ctx, req); err != nil {
		return fmt.Errorf("the payment provider did not refund: %w", err)
	}
	ev := kudos.PaymentEvent{EventID: "ops_refund:" + res.RefundID, Provider: r.Payments.Name(), AccountID: p.accountID,
		Outcome: kudos.PaymentPaid, OccurredAt: r.Store.Now(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund,
			RefundID: res.RefundID, ProviderRefundID: res.ProviderRefundID, InvoiceID: p.invoiceID, Amount: &res.Amount, Reason: reason}}
	if p.isCheckout {
		ev.CheckoutID = p.ref
	} else {
		ev.ChargeID = p.ref
	}
	if _, err := r.Store.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
		return fmt.Errorf("refunded at the provider (%s) but not recorded: run the same command again: %w", res.ProviderRefundID, err)
	}
	if r.Kick != nil {
		r.Kick()
	}
	return r.awaitBooking(ctx, p.accountID, res)
}

// awaitBooking waits (up to r.Wait) for the workflow to book the refund,
// under its id or, when the provider's event came first, the provider's.
func (r *Refunder) awaitBooking(ctx context.Context, accountID uuid.UUID, res *RefundResult) error {
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
			return r.describe(ctx, accountID, res)
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
func (r *Refunder) describe(ctx context.Context, accountID uuid.UUID, res *RefundResult) error {
	cn, err := r.Store.CreditNoteOfRefund(ctx, accountID, res.RefundID)
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
	of := "invoice " + r.Invoice
	if r.Repays != "" {
		of = "failed refund " + r.Repays + " refunded again"
	}
	_, err := fmt.Fprintf(w, "%s: %s %s %s\nrefund:      %s (provider %s)\n", of, what, r.Amount.Currency, major(r.Amount.Amount),
		r.RefundID, orNone(r.ProviderRefundID))
	if err != nil {
		return err
	}
	switch {
	case r.CreditNoteNumber != "" && r.Repays != "":
		_, err = fmt.Fprintf(w, "credit note: %s (the failed refund's: it pays out against it)\n", r.CreditNoteNumber)
	case r.CreditNoteNumber != "":
		_, err = fmt.Fprintf(w, "credit note: %s\n", r.CreditNoteNumber)
	case r.Booked && r.Repays != "":
		_, err = fmt.Fprintln(w, "credit note: none (the failed refund had none: its payment settled no invoice)")
	case r.Booked:
		_, err = fmt.Fprintln(w, "credit note: none (the payment settled no numbered invoice)")
	default:
		_, err = fmt.Fprintln(w, "credit note: not booked yet: the subscription workflow books it from the outbox (see `kudos ops account`)")
	}
	return err
}
