package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// Refunds of issue 36: an operator's (`kudos ops refund`, full or partial)
// and those made in the provider's dashboard, booked from the provider's
// event by the subscription workflow. Several refunds of one payment are
// summed and never exceed what was paid; each gets its own credit note
// (issueCreditNote: its number in the KUD-CN series, the VAT in the
// invoice's proportion, its reverse charge kept).

// RefundablePayment is the payment of an invoiced sale as a refund needs
// it: the invoice, the payment that settled it (paid_by: a checkout's id
// or an off-session charge's), the checkout's id at the provider (""
// for a charge) and what was refunded of it so far.
type RefundablePayment struct {
	Invoice    kudos.Invoice
	PaymentRef string
	// ProviderID is the checkout's id at the provider; IsCheckout says
	// PaymentRef is a checkout (else an off-session charge).
	ProviderID string
	IsCheckout bool
	// PaymentID is the provider's id of an off-session charge's payment,
	// known from the charge's events ("" when none came): the provider
	// finds it without the account's customer, which erasure deletes.
	PaymentID string
	Refunded  int64
	// Disputed is the status of a dispute of the payment that bars a
	// refund ("open" or "lost"; "" for none or one won): the card network
	// decides a disputed payment, and Stripe refunds none (charge_disputed).
	Disputed string
	// Credited is what all the invoice's credit notes credit (positive),
	// whichever payment their refunds or disputes gave back: after a
	// returned debit the invoice is paid again by another payment, and
	// what was credited before still stands.
	Credited int64
	// Owed is what failed refunds of this payment still owe the customer
	// against their credit notes (counted in Credited, the money not
	// given back): a refund made again pays it out.
	Owed int64
	// OwedElsewhere names the account's failed refunds still owed that
	// credited no invoice, of another payment (a duplicate's, refunded
	// with no credit note: no invoice names it): a refund of this invoice
	// would not repay them, and would reverse a sale instead.
	OwedElsewhere []string
}

// Left is what the provider can still refund of the payment: what it paid
// less its refunds.
func (p RefundablePayment) Left() int64 { return p.Invoice.Total - p.Refunded }

// Creditable is what Kudos may refund of the payment: Left, never more
// than the invoice has left to credit (its total less all its credit
// notes) plus what failed refunds of the payment still owe against theirs.
// A refund beyond it would pay out money no credit note documents.
func (p RefundablePayment) Creditable() int64 {
	return max(0, min(p.Left(), p.Invoice.Total-p.Credited+p.Owed))
}

// RefundablePaymentOf returns the payment of the invoice named by its id or
// its number (any account's: an operator's look-up). An invoice that is
// not a paid sale (a credit note, unpaid, or paid by nothing that can be
// refunded: a waived upgrade) is EInvalid; an unknown one ENotFound.
func (db *DB) RefundablePaymentOf(ctx context.Context, idOrNumber string) (*RefundablePayment, error) {
	where, arg := "number = $1", any(idOrNumber)
	if id, err := uuid.Parse(idOrNumber); err == nil {
		where, arg = "id = $1", id
	}
	var p RefundablePayment
	var accountID uuid.UUID
	var paidBy *string
	err := db.Pool.QueryRow(ctx, `SELECT id, account_id, paid_by FROM invoices WHERE `+where, arg).Scan(&p.Invoice.ID, &accountID, &paidBy)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "no invoice %q", idOrNumber)
	} else if err != nil {
		return nil, wrapErr(err)
	}
	inv, err := db.Invoice(ctx, accountID, p.Invoice.ID)
	if err != nil {
		return nil, err
	}
	p.Invoice = *inv
	switch {
	case inv.IsCreditNote():
		return nil, kudos.Errorf(kudos.EInvalid, "%s is a credit note: refund the invoice it corrects", inv.Number)
	case inv.Status != kudos.InvoicePaid || paidBy == nil || *paidBy == "":
		return nil, kudos.Errorf(kudos.EInvalid, "invoice %s was not paid through the payment provider: nothing to refund", idOrNumber)
	}
	p.PaymentRef = *paidBy
	err = db.Pool.QueryRow(ctx, `SELECT
		COALESCE((SELECT sum(amount) FROM refunds WHERE checkout_id = $1 AND account_id = $2 AND status = 'refunded'), 0),
		COALESCE((SELECT status FROM disputes WHERE invoice_id = $3 AND account_id = $2 AND status IN ('open', 'lost')
			ORDER BY opened_at DESC LIMIT 1), ''),
		COALESCE((SELECT -sum(total_amount) FROM invoices WHERE corrects = $3 AND kind = $4), 0),
		COALESCE((SELECT sum(f.owed) FROM (`+owedSQL+`) f WHERE f.account_id = $2 AND f.checkout_id = $1 AND f.credited), 0),
		ARRAY(SELECT f.id FROM (`+owedSQL+`) f WHERE f.account_id = $2 AND f.checkout_id <> $1 AND NOT f.credited
			ORDER BY f.failed_at, f.id)`,
		p.PaymentRef, accountID, p.Invoice.ID, kudos.InvoiceCreditNote).Scan(&p.Refunded, &p.Disputed, &p.Credited, &p.Owed, &p.OwedElsewhere)
	if err != nil {
		return nil, wrapErr(err)
	}
	p.ProviderID, p.IsCheckout, p.PaymentID, err = db.paymentAt(ctx, accountID, p.PaymentRef)
	return &p, err
}

// paymentAt tells how the provider finds the account's payment ref: a
// checkout's id at the provider (isCheckout), or, for an off-session
// charge, its payment's id as the charge's events named it ("" when none
// came): the provider finds it without the account's customer, which
// erasure deletes.
func (db *DB) paymentAt(ctx context.Context, accountID uuid.UUID, ref string) (providerID string, isCheckout bool, paymentID string, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT COALESCE((SELECT provider_id FROM checkouts WHERE id = $1 AND account_id = $2), ''),
		EXISTS (SELECT 1 FROM checkouts WHERE id = $1 AND account_id = $2),
		COALESCE((SELECT payment_id FROM payment_events WHERE account_id = $2 AND charge_id = $1
			AND payment_id <> '' ORDER BY received_at DESC LIMIT 1), '')`, ref, accountID).Scan(&providerID, &isCheckout, &paymentID)
	if isCheckout {
		paymentID = ""
	}
	return providerID, isCheckout, paymentID, wrapErr(err)
}

// BookedRefund is a refund as booked: its id, and its credit note's
// number ("" when it corrects no invoice).
type BookedRefund struct {
	ID               string
	CreditNoteNumber string
	// New is false when the refund had been booked already.
	New bool
}

// BookRefund books the refund a provider event reports (ev.Movement is
// kudos.MovementRefund), in one transaction: its row (the refunded
// payment's reference as its checkout_id), the timeline's refund event and
// the credit note of the refunded part of the invoice the payment settled.
// A refund booked before, under its id or the provider's refund id (ops
// booked it and the provider's event for it came after), books nothing
// new; a dashboard refund of a payment whose refund Kudos was refused, for
// that amount, is booked as that refund. Refunds that would together
// exceed what the invoice was paid are EInvalid. A refund of the invoice's
// payment beyond what the invoice has left to credit (its total less all
// its credit notes: after a returned debit, paid again by another payment)
// is booked as made, since the money is out: its credit note credits what
// was left, and the rest is recorded as uncredited (kudos_refunds_uncredited).
func (db *DB) BookRefund(ctx context.Context, accountID uuid.UUID, ev kudos.PaymentEvent) (BookedRefund, error) {
	m := ev.LedgerMovement
	if m.Movement != kudos.MovementRefund || m.Amount == nil || m.Amount.Amount <= 0 || (m.RefundID == "" && m.ProviderRefundID == "") {
		return BookedRefund{}, kudos.Errorf(kudos.EInvalid, "event %s is not a refund with an amount and an id", ev.EventID)
	}
	ref := m.PaymentRef(ev.CheckoutID)
	b := BookedRefund{ID: m.LedgerRefundID()}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		// The invoice, locked: two refunds of it are booked one after the
		// other, each seeing the other's amount.
		var invoiceID *uuid.UUID
		var total int64
		var plan *string
		q := `SELECT id, total_amount, plan, COALESCE(paid_by, '') FROM invoices WHERE account_id = $1 AND paid_by = $2 AND kind <> 'CREDIT_NOTE'
			ORDER BY created_at LIMIT 1 FOR UPDATE`
		args := []any{accountID, ref}
		if m.InvoiceID != nil {
			q = `SELECT id, total_amount, plan, COALESCE(paid_by, '') FROM invoices WHERE account_id = $1 AND id = $2 FOR UPDATE`
			args = []any{accountID, *m.InvoiceID}
		}
		var id uuid.UUID
		var paidBy string
		err := tx.QueryRow(ctx, q, args...).Scan(&id, &total, &plan, &paidBy)
		switch {
		case errors.Is(err, pgx.ErrNoRows): // a payment of no invoice (a verification, a duplicate never invoiced)
		case err != nil:
			return wrapErr(err)
		default:
			invoiceID = &id
			if ref == "" {
				ref = paidBy
			}
		}
		var existing string
		// A refund that failed since is not booked again either (its
		// event again, after the failure: the money never went back).
		err = tx.QueryRow(ctx, `SELECT id FROM refunds WHERE account_id = $1 AND status IN ('refunded', 'failed', 'settled_by_dispute', 'settled_by_return')
			AND (id = $2 OR ($3 <> '' AND provider_id = $3)) LIMIT 1`, accountID, b.ID, m.ProviderRefundID).Scan(&existing)
		if err == nil {
			b.ID = existing
			return nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		if m.RefundID == "" {
			// A refund made in the dashboard of a payment whose refund
			// Kudos was refused (for good or for now) for that amount is
			// the runbook's manual fix of that refund: it is booked as
			// that refund (never a second one, and the refusal's retry
			// finds it refunded).
			err := tx.QueryRow(ctx, `SELECT id FROM refunds WHERE account_id = $1 AND checkout_id = $2 AND amount = $3
				AND status IN ('refused', 'deferred') ORDER BY created_at LIMIT 1 FOR UPDATE`, accountID, ref, m.Amount.Amount).Scan(&b.ID)
			if errors.Is(err, pgx.ErrNoRows) {
				b.ID = m.LedgerRefundID()
			} else if err != nil {
				return wrapErr(err)
			}
		}
		if invoiceID != nil {
			var refunded int64
			if err := tx.QueryRow(ctx, `SELECT COALESCE(sum(amount), 0) FROM refunds WHERE account_id = $1 AND checkout_id = $2
				AND status = 'refunded'`, accountID, ref).Scan(&refunded); err != nil {
				return wrapErr(err)
			}
			if refunded+m.Amount.Amount > total {
				return kudos.Errorf(kudos.EInvalid, "refunds would exceed what was paid: %s paid, %s refunded already, %s asked",
					minor(total), minor(refunded), minor(m.Amount.Amount))
			}
		}
		reason := m.Reason
		if reason == "" {
			reason = "refunded at the payment provider"
		}
		// A refund of a payment whose earlier refunds failed pays out
		// first what the customer is still owed against those refunds'
		// credit notes (they stand), the oldest first; only the rest is a
		// new credit.
		repays, owed, err := owedAfterFailure(ctx, tx, accountID, ref)
		if err != nil {
			return err
		}
		var repaysID *string
		var repaid int64
		credit := *m.Amount
		if owed > 0 {
			repaysID, repaid = &repays, min(owed, credit.Amount)
			credit.Amount -= repaid
		}
		if _, err := tx.Exec(ctx, `INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason, repays, repaid_amount)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (id) DO UPDATE SET status = 'refunded', provider_id = EXCLUDED.provider_id, reason = EXCLUDED.reason,
				created_at = now(), retry_at = NULL, repays = EXCLUDED.repays, repaid_amount = EXCLUDED.repaid_amount
				WHERE refunds.status IN ('refused', 'deferred')`,
			b.ID, accountID, ref, m.Amount.Amount, m.Amount.Currency, m.ProviderRefundID, reason, repaysID, repaid); err != nil {
			return wrapErr(err)
		}
		b.New = true
		tev := kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventRefund, Amount: &m.Amount.Amount,
			Currency: m.Amount.Currency, InvoiceID: invoiceID, Key: string(kudos.EventRefund) + ":" + b.ID}
		if plan != nil {
			tev.Plan = kudos.Plan(*plan)
		}
		if _, err := AppendBillingEvent(ctx, tx, tev); err != nil {
			return err
		}
		if credit.Amount == 0 {
			return nil
		}
		return creditRefund(ctx, tx, accountID, b.ID, ref, invoiceID, credit, now)
	})
	if err != nil {
		return BookedRefund{}, err
	}
	if cn, err := db.CreditNoteOfRefund(ctx, accountID, b.ID); err == nil {
		b.CreditNoteNumber = cn.Number
	} else if kudos.ErrorCode(err) != kudos.ENotFound {
		return BookedRefund{}, err
	}
	return b, nil
}

// creditRefund gives the refund refundID of the payment ref its credit
// note against invoiceID (issueCreditNote) for credit (what it is to
// credit: its amount less what it repays of a failed refund), never more
// than the invoice has left to credit, and, when ref settled that invoice
// (the refund undoes its sale), records what of credit the credit note did
// not credit (recordUncredited). Every path that credits a refund goes
// through it: BookRefund, RecordRefund (a checkout given back, or a
// refused refund made by hand) and creditEarlierRefunds (refunds booked
// before their payment settled the invoice).
func creditRefund(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, refundID, ref string, invoiceID *uuid.UUID, credit kudos.Money,
	now time.Time) error {
	if err := issueCreditNote(ctx, tx, accountID, refundID, ref, invoiceID, credit, now); err != nil || invoiceID == nil {
		return err
	}
	return recordUncredited(ctx, tx, accountID, refundID, ref, *invoiceID, credit.Amount)
}

// recordUncredited records on the refund refundID of the payment ref what
// of credit its credit note did not credit, the invoice having less left:
// money paid out with no credit note, for an operator. A refund of a
// payment that did not settle invoiceID (a duplicate, a payment not
// applied yet: its credit note comes then) undid no sale: nothing.
func recordUncredited(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, refundID, ref string, invoiceID uuid.UUID, credit int64) error {
	_, err := tx.Exec(ctx, `UPDATE refunds SET uncredited = $3::bigint + COALESCE((SELECT total_amount FROM invoices
		WHERE id = $4 AND account_id = $2 AND kind = $5), 0) WHERE id = $1 AND account_id = $2
		AND EXISTS (SELECT 1 FROM invoices WHERE id = $6 AND account_id = $2 AND paid_by = $7 AND kind <> $5)`,
		refundID, accountID, credit, CreditNoteID(refundID), kudos.InvoiceCreditNote, invoiceID, ref)
	return wrapErr(err)
}

// UncreditedRefunds counts the refunds that paid out more than their
// invoice had left to credit (the gauge kudos_refunds_uncredited: every
// one ever booked; its alert fires when it grows). One that failed at the
// provider since paid nothing out: it is not counted (nor is its
// uncredited part owed: owedSQL).
func (db *DB) UncreditedRefunds(ctx context.Context) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM refunds WHERE uncredited > 0 AND status = 'refunded'`).Scan(&n)
	return n, wrapErr(err)
}

// minor formats an amount in minor units as major units (12.34).
func minor(v int64) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }

// RefundMade returns the account of refund id and its amount, or
// ENotFound.
func (db *DB) RefundMade(ctx context.Context, id string) (uuid.UUID, kudos.Money, error) {
	var accountID uuid.UUID
	var m kudos.Money
	err := db.Pool.QueryRow(ctx, `SELECT account_id, amount, currency FROM refunds WHERE id = $1`, id).Scan(&accountID, &m.Amount, &m.Currency)
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, m, kudos.Errorf(kudos.ENotFound, "no refund %q", id)
	}
	return accountID, m, wrapErr(err)
}

// RefundByProviderID returns the id of the refund booked under the
// provider's refund id providerRefundID, or ENotFound.
func (db *DB) RefundByProviderID(ctx context.Context, providerRefundID string) (string, error) {
	var id string
	err := db.Pool.QueryRow(ctx, `SELECT id FROM refunds WHERE provider_id = $1 AND provider_id <> '' AND status = 'refunded'
		ORDER BY created_at LIMIT 1`, providerRefundID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", kudos.Errorf(kudos.ENotFound, "no refund %q", providerRefundID)
	}
	return id, wrapErr(err)
}
