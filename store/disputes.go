package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// Disputes and returned debits (issue 36 item 3). Each is booked by the
// account's subscription workflow (through an activity) in one
// transaction with its timeline event, and kept on the payment event it
// books (Booking), so that a repeat of the event books nothing twice, and
// a repeat of the booking itself (the activity run again after its
// commit, or a rebuilt run meeting the event again before the workflow
// acted on it) reports what was booked.

// Booking names the payment event a dispute's or a returned debit's
// booking applies (Event, "" : none). Mark marks it applied in the
// booking's transaction (runs from before the event was applied with its
// consequence, and the erased accounts' workflow); otherwise the workflow
// marks it with the last write of what it does about the booking, and
// until then a booking of the same event again reports the first one.
type Booking struct {
	Event string
	Mark  bool
}

// bookedBefore reads into out what the booking of b's event did, when it
// was booked and is not applied yet (found: the booking is run again;
// marked applied at at when b says so), locking the event's row.
func bookedBefore(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, b Booking, at time.Time, out any) (bool, error) {
	if b.Event == "" {
		return false, nil
	}
	var booked []byte
	err := tx.QueryRow(ctx, `SELECT booked FROM payment_events WHERE account_id = $1 AND event_id = $2 AND applied_at IS NULL
		AND booked IS NOT NULL FOR UPDATE`, accountID, b.Event).Scan(&booked)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil
	case err != nil:
		return false, wrapErr(err)
	}
	if err := json.Unmarshal(booked, out); err != nil {
		return false, wrapErr(err)
	}
	if b.Mark {
		return true, markApplied(ctx, tx, accountID, []string{b.Event}, at)
	}
	return true, nil
}

// finishBooking keeps what the booking of b's event did (booked) on the
// event, and marks it applied when b says so.
func finishBooking(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, b Booking, booked any, at time.Time) error {
	if b.Event == "" {
		return nil
	}
	raw, err := json.Marshal(booked)
	if err != nil {
		return wrapErr(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE payment_events SET booked = $3 WHERE account_id = $1 AND event_id = $2`, accountID, b.Event,
		raw); err != nil {
		return wrapErr(err)
	}
	if !b.Mark {
		return nil
	}
	return markApplied(ctx, tx, accountID, []string{b.Event}, at)
}

// DisputeCreditNoteID is the id of the credit note that reverses the sale
// of lost dispute disputeID.
func DisputeCreditNoteID(disputeID string) uuid.UUID { return CreditNoteID("dispute:" + disputeID) }

// RecordDispute books what dispute event d says of the account's payment
// d.Payment, at at, as payment event b (kept on it, marked applied when b
// says so), all in one transaction; a booking of b's event again before it
// is applied returns what the first one did. A dispute first seen is opened (dispute_opened,
// whatever its status: a decision seen first is an opening and its close);
// an open one closed as won (dispute_won) or lost (dispute_lost: the
// amount is booked as lost and the sale of the invoice the payment settled
// is reversed by a credit note of that amount, status CREDITED, never more
// than refunds left of it; a refund of the payment that failed at the
// provider is settled by what the network gave back beyond that credit
// note: settleByDisputes). A decided dispute never moves again (a late or
// repeated event changes nothing).
func (db *DB) RecordDispute(ctx context.Context, accountID uuid.UUID, d kudos.DisputeEvent, at time.Time, b Booking) (
	kudos.DisputeApplied, error) {
	var out kudos.DisputeApplied
	if !d.Status.Valid() || d.ID == "" {
		return out, kudos.Errorf(kudos.EInvalid, "dispute %q: unknown status %q", d.ID, d.Status)
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		out = kudos.DisputeApplied{}
		if again, err := bookedBefore(ctx, tx, accountID, b, at, &out); err != nil || again {
			return err
		}
		var invoiceID *uuid.UUID
		var plan kudos.Plan
		err := tx.QueryRow(ctx, `SELECT id, plan FROM invoices WHERE account_id = $1 AND paid_by = $2 AND kind <> 'CREDIT_NOTE'
			ORDER BY created_at LIMIT 1`, accountID, d.Payment).Scan(&invoiceID, &plan)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		var status kudos.DisputeStatus
		err = tx.QueryRow(ctx, `SELECT status, opened_at, invoice_id FROM disputes WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			d.ID, accountID).Scan(&status, &out.OpenedAt, &out.InvoiceID)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			out.OpenedAt, out.InvoiceID = at, invoiceID
			if _, err := tx.Exec(ctx, `INSERT INTO disputes (id, account_id, invoice_id, payment, amount, currency, status, reason, opened_at)
				VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8)`, d.ID, accountID, invoiceID, d.Payment, d.Amount.Amount, d.Amount.Currency,
				d.Reason, at); err != nil {
				return wrapErr(err)
			}
			if err := disputeEvent(ctx, tx, accountID, d, kudos.EventDisputeOpened, plan, invoiceID, at); err != nil {
				return err
			}
			status, out.Changed = kudos.DisputeOpen, true
		case err != nil:
			return wrapErr(err)
		case out.InvoiceID == nil && invoiceID != nil:
			// Opened before its payment settled the invoice (its event
			// replayed later): the invoice it disputes is known now.
			if _, err := tx.Exec(ctx, `UPDATE disputes SET invoice_id = $2 WHERE id = $1`, d.ID, *invoiceID); err != nil {
				return wrapErr(err)
			}
			out.InvoiceID = invoiceID
		}
		if status == kudos.DisputeOpen && d.Status.Closed() {
			if _, err := tx.Exec(ctx, `UPDATE disputes SET status = $2, closed_at = $3 WHERE id = $1`, d.ID, d.Status, at); err != nil {
				return wrapErr(err)
			}
			typ := kudos.EventDisputeWon
			if d.Status == kudos.DisputeLost {
				typ = kudos.EventDisputeLost
			}
			if err := disputeEvent(ctx, tx, accountID, d, typ, plan, out.InvoiceID, at); err != nil {
				return err
			}
			if d.Status == kudos.DisputeLost { // refunded in full before: nothing credited, the provider took nothing more back
				src := creditSource{id: DisputeCreditNoteID(d.ID), column: "dispute_id", ref: d.ID}
				// Issued now, in this year's series: never at the provider's
				// event time (a late or replayed event would backdate it).
				if out.CreditNoteID, out.RefundedBefore, err = creditSale(ctx, tx, src, accountID, d.Payment, out.InvoiceID, d.Amount, db.Now()); err != nil {
					return err
				}
				// What the network gave back beyond that credit note repays
				// refunds of the payment that failed (owed no more).
				if err := settleByDisputes(ctx, tx, accountID, d.Payment); err != nil {
					return err
				}
			}
			status, out.Changed = d.Status, true
		}
		out.Status = status
		if out.InvoiceID != nil {
			var from, to *time.Time
			var lines []byte
			var created time.Time
			var code, currency *string
			var off *int64
			if err := tx.QueryRow(ctx, `SELECT service_from, service_to, kind, lines, plan, created_at, discount_code, discount_amount,
				currency FROM invoices WHERE id = $1`, *out.InvoiceID).Scan(&from, &to, &out.Kind, &lines, &out.Plan, &created,
				&code, &off, &currency); err != nil {
				return wrapErr(err)
			}
			if code != nil && off != nil {
				if out.Discount, err = invoiceDiscountTerms(ctx, tx, *code, *off, *currency); err != nil {
					return err
				}
			}
			if out.Kind == kudos.InvoiceUpgrade {
				err := tx.QueryRow(ctx, `SELECT plan FROM invoices WHERE account_id = $1 AND status = 'PAID' AND created_at < $2
					AND kind IN ('SUBSCRIPTION', 'RENEWAL', 'PAYMENTDUE', 'UPGRADE') ORDER BY created_at DESC LIMIT 1`,
					accountID, created).Scan(&out.PlanBefore)
				if err != nil && !errors.Is(err, pgx.ErrNoRows) {
					return wrapErr(err)
				}
			}
			if from != nil && to != nil {
				out.Service = &kudos.ServicePeriod{From: from.UTC(), To: to.UTC()}
			}
			if out.Kind == kudos.InvoiceSeats {
				if out.Seats, err = seatsOf(lines); err != nil {
					return err
				}
			}
		}
		return finishBooking(ctx, tx, accountID, b, out, at)
	})
	return out, err
}

// invoiceDiscountTerms are the terms of the promotion code that took off
// an invoice's discount line (its code, the amount off in currency), for
// one more payment at the price that invoice agreed: the code's own (a
// percentage of the new net, the plans it covers), or, for a code no
// longer stored, the same amount off.
func invoiceDiscountTerms(ctx context.Context, tx pgx.Tx, code string, off int64, currency string) (*kudos.Discount, error) {
	p, err := scanPromotion(tx.QueryRow(ctx, `SELECT `+promotionColumns+` FROM promotion_codes WHERE code = $1`, code))
	switch {
	case err == nil:
		d := p.Discount()
		d.RenewalsLeft = 0
		return &d, nil
	case kudos.ErrorCode(notFound(err)) == kudos.ENotFound:
		return &kudos.Discount{Code: code, AmountOff: off, Currency: currency, Duration: kudos.PromotionOnce}, nil
	}
	return nil, wrapErr(err)
}

// disputeEvent appends the timeline event typ of dispute d (its amount:
// what was disputed, won back or lost).
func disputeEvent(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, d kudos.DisputeEvent, typ kudos.BillingEventType,
	plan kudos.Plan, invoiceID *uuid.UUID, at time.Time) error {
	amount := d.Amount.Amount
	_, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: at, Type: typ, Plan: plan, Amount: &amount,
		Currency: d.Amount.Currency, InvoiceID: invoiceID, Key: string(typ) + ":" + d.ID})
	return err
}

// returnBooked is what a returned debit's booking did: the invoice due
// again (nil: none).
type returnBooked struct {
	InvoiceID *uuid.UUID `json:"invoice_id"`
}

// ReturnPayment books the return of the account's payment r.Payment (a
// SEPA debit its bank took back after it succeeded) as payment event b
// (kept on it, marked applied when b says so), in one transaction: the
// invoice that payment settled is due again (DUE_PAYMENT, keeping its
// number: the sale stands, its payment is missing), with its
// payment_returned event; and the failed refunds of the payment still owed
// are settled by the return (settleByReturn). It returns that invoice, or
// nil when the payment settles no invoice that is paid (returned already,
// or never one of an invoice's). A booking of b's event again before it is applied returns
// the invoice the first one made due, while it is still due.
func (db *DB) ReturnPayment(ctx context.Context, accountID uuid.UUID, r kudos.ReturnEvent, at time.Time, b Booking) (*kudos.Invoice, error) {
	var inv *kudos.Invoice
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var before returnBooked
		again, err := bookedBefore(ctx, tx, accountID, b, at, &before)
		switch {
		case err != nil:
			return err
		case again && before.InvoiceID == nil:
			inv = nil
			return nil
		case again:
			inv, err = scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1 AND account_id = $2
				AND status = 'DUE_PAYMENT'`, *before.InvoiceID, accountID))
			if kudos.ErrorCode(err) == kudos.ENotFound { // paid meanwhile: nothing is due any more
				inv, err = nil, nil
			}
			return err
		}
		inv, err = scanInvoice(tx.QueryRow(ctx, `UPDATE invoices SET status = 'DUE_PAYMENT', paid_at = NULL, paid_by = NULL
			WHERE account_id = $1 AND paid_by = $2 AND status = 'PAID' AND kind <> 'CREDIT_NOTE' RETURNING `+invoiceColumns,
			accountID, r.Payment))
		switch {
		case kudos.ErrorCode(err) == kudos.ENotFound:
			inv = nil
		case err != nil:
			return err
		default:
			amount, id := inv.Total, inv.ID
			if _, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: at, Type: kudos.EventPaymentReturned,
				Plan: inv.Plan, Amount: &amount, Currency: inv.Currency, InvoiceID: &id,
				Key: string(kudos.EventPaymentReturned) + ":" + id.String() + ":" + r.Payment}); err != nil {
				return err
			}
		}
		// The bank gave the customer the whole payment back: what its
		// failed refunds still owed is owed no more.
		returnID := r.ID
		if returnID == "" {
			returnID = cmp.Or(b.Event, r.Payment)
		}
		if err := settleByReturn(ctx, tx, accountID, r.Payment, returnID); err != nil {
			return err
		}
		var booked returnBooked
		if inv != nil {
			booked.InvoiceID = &inv.ID
		}
		return finishBooking(ctx, tx, accountID, b, booked, at)
	})
	return inv, err
}

// openDisputes returns the account's open disputes as a workflow's state
// holds them, oldest first.
func openDisputes(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) ([]kudos.OpenDispute, error) {
	rows, err := tx.Query(ctx, `SELECT id, COALESCE(invoice_id, '00000000-0000-0000-0000-000000000000'), amount, currency, opened_at
		FROM disputes WHERE account_id = $1 AND status = 'open' ORDER BY opened_at, id`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.OpenDispute, error) {
		var d kudos.OpenDispute
		err := row.Scan(&d.ID, &d.InvoiceID, &d.Amount.Amount, &d.Amount.Currency, &d.OpenedAt)
		d.OpenedAt = d.OpenedAt.UTC()
		return d, err
	})
	return out, wrapErr(err)
}

// AccountDisputes returns the account's disputes, newest first (ops).
func (db *DB) AccountDisputes(ctx context.Context, accountID uuid.UUID) ([]kudos.Dispute, error) {
	rows, err := db.Pool.Query(ctx, `SELECT d.id, d.account_id, d.invoice_id, d.payment, d.amount, d.currency, d.status, d.reason,
		d.opened_at, d.closed_at, (SELECT c.id FROM invoices c WHERE c.dispute_id = d.id)
		FROM disputes d WHERE d.account_id = $1 ORDER BY d.opened_at DESC, d.id LIMIT $2`, accountID, OpsRecentRows)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.Dispute, error) {
		var d kudos.Dispute
		err := row.Scan(&d.ID, &d.AccountID, &d.InvoiceID, &d.Payment, &d.Amount.Amount, &d.Amount.Currency, &d.Status, &d.Reason,
			&d.OpenedAt, &d.ClosedAt, &d.CreditNoteID)
		return d, err
	})
	return out, wrapErr(err)
}

// OpenDisputes counts the disputes still open (the gauge
// kudos_disputes_open): money a card network holds until it decides, and
// evidence to give at the provider before its due date.
func (db *DB) OpenDisputes(ctx context.Context) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM disputes WHERE status = 'open'`).Scan(&n)
	return n, wrapErr(err)
}

// seatsOf is the number of extra seats an invoice of lines bought.
func seatsOf(lines []byte) (int, error) {
	ls, err := scanLines(lines)
	n := kudos.SeatsBilled(ls)
	return n, err
}
