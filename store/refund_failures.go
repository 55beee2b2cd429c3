package store

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// Refunds that fail at the provider after they were made (Stripe's
// refund.updated, status failed or canceled: a closed card account, a
// bank that returns the credit transfer). The money did not go back, so
// the ledger says so: the refund's row is failed (with why and when), the
// timeline has refund_failed, and it no longer counts as refunded — what
// is left to refund of the payment grows by it. Its credit note stands: it
// is a tax document that already reduced the sale, and the customer is
// owed the money. A refund made again (`kudos ops refund`) pays out
// against that credit note (refunds.repays names the failed refund): no
// second credit note for the amount it repays.

// RecordRefundFailure records the failure a provider event reports
// (ev.Movement is kudos.MovementRefundFailed), in one transaction: the
// refund, found by our id or the provider's, becomes failed, with the
// timeline's refund_failed. It reports whether anything changed: a failure
// recorded before (the event again) changes nothing. A failure of a
// refund never booked (its failure came first) is recorded as a failed
// refund, so that its booking, arriving after, books nothing; a refund
// Kudos was refused (no money moved) is left as it is.
func (db *DB) RecordRefundFailure(ctx context.Context, accountID uuid.UUID, ev kudos.PaymentEvent) (bool, error) {
	m := ev.LedgerMovement
	if m.Movement != kudos.MovementRefundFailed || (m.RefundID == "" && m.ProviderRefundID == "") {
		return false, kudos.Errorf(kudos.EInvalid, "event %s is not a refund's failure with an id", ev.EventID)
	}
	reason := m.Reason
	if reason == "" {
		reason = "failed"
	}
	changed := false
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		var id, status, ref, currency string
		var amount int64
		err := tx.QueryRow(ctx, `SELECT id, status, checkout_id, amount, currency FROM refunds WHERE account_id = $1
			AND (id = $2 OR ($3 <> '' AND provider_id = $3)) ORDER BY created_at LIMIT 1 FOR UPDATE`,
			accountID, m.LedgerRefundID(), m.ProviderRefundID).Scan(&id, &status, &ref, &amount, &currency)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if m.Amount == nil || m.Amount.Amount <= 0 {
				return kudos.Errorf(kudos.EInvalid, "event %s: the failure of a refund never booked, without its amount", ev.EventID)
			}
			id, ref, amount, currency = m.LedgerRefundID(), m.PaymentRef(ev.CheckoutID), m.Amount.Amount, m.Amount.Currency
			if _, err := tx.Exec(ctx, `INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason, status,
				failed_at, failure_reason) VALUES ($1, $2, $3, $4, $5, $6, 'refunded at the payment provider', 'failed', $7, $8)`,
				id, accountID, ref, amount, currency, m.ProviderRefundID, now, reason); err != nil {
				return wrapErr(err)
			}
		case err != nil:
			return wrapErr(err)
		case status != "refunded": // failed already, or never made (refused, deferred)
			return nil
		default:
			if _, err := tx.Exec(ctx, `UPDATE refunds SET status = 'failed', failed_at = $2, failure_reason = $3 WHERE id = $1`,
				id, now, reason); err != nil {
				return wrapErr(err)
			}
		}
		changed = true
		var invoiceID *uuid.UUID
		var plan *string
		// The invoice its credit note corrects, else the one its payment
		// pays (a payment returned since pays none any more).
		err = tx.QueryRow(ctx, `SELECT id, plan FROM invoices WHERE account_id = $1 AND id = COALESCE(
				(SELECT corrects FROM invoices WHERE account_id = $1 AND refund_id = $3),
				(SELECT id FROM invoices WHERE account_id = $1 AND paid_by = $2 AND kind <> 'CREDIT_NOTE' ORDER BY created_at LIMIT 1))`,
			accountID, ref, id).Scan(&invoiceID, &plan)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		tev := kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventRefundFailed, Amount: &amount, Currency: currency,
			InvoiceID: invoiceID, Key: string(kudos.EventRefundFailed) + ":" + id}
		if plan != nil {
			tev.Plan = kudos.Plan(*plan)
		}
		if _, err = AppendBillingEvent(ctx, tx, tev); err != nil {
			return err
		}
		// A dispute of the payment lost before (the provider had taken
		// the refund back already) may have given the money back, and so
		// has a return of it booked before.
		if err := settleByDisputes(ctx, tx, accountID, ref); err != nil {
			return err
		}
		if err := settleByBookedReturn(ctx, tx, accountID, ref); err != nil {
			return err
		}
		return oweAgainIfPaidAgain(ctx, tx, accountID, ref)
	})
	return changed, err
}

// owedAfterFailure is what the refunds of the payment ref that failed
// still owe (owedSQL) that a refund of ref made now repays, oldest failure
// first, and the oldest of them (the one it names: repays); "" and 0 when
// none. It repays those whose credit notes stand, or, when ref settled no
// invoice (a duplicate payment, refunded with no credit note), those
// without: the new refund then credits nothing either.
func owedAfterFailure(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, ref string) (string, int64, error) {
	var id *string
	var owed int64
	err := tx.QueryRow(ctx, `SELECT (array_agg(f.id ORDER BY f.failed_at, f.id))[1], COALESCE(sum(f.owed), 0) FROM (`+owedSQL+`) f
		WHERE f.account_id = $1 AND f.checkout_id = $2
		AND (f.credited OR NOT EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = $1 AND i.paid_by = $2 AND i.kind <> 'CREDIT_NOTE'))`,
		accountID, ref).Scan(&id, &owed)
	if err != nil || id == nil {
		return "", 0, wrapErr(err)
	}
	return *id, owed, nil
}

// FailedRefunds counts the refunds that failed at the provider and that
// neither a refund made again nor a lost dispute of the payment has repaid
// in full: money the customers are owed (the gauge kudos_refunds_failed;
// its alert asks an operator to refund again with `kudos ops refund
// --failed`). A refund made again that failed in its turn is counted only
// for what it credited of its own, beyond what it repaid: what it failed
// to repay is the first refunds' debt, owed again (counted with them).
func (db *DB) FailedRefunds(ctx context.Context) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM (`+owedSQL+`) f`).Scan(&n)
	return n, wrapErr(err)
}

// owedSQL lists the failed refunds still owed to the customer (f.owed > 0),
// with their account, the payment they are owed from (checkout_id: their
// own, or the one that paid their invoice again after their own was
// returned, owedFromSQL), failure time and whether their credit note
// stands (credited). What one owes is what it credited of its own (its
// amount less what it repaid of earlier failures, repaid_amount, and what
// it paid beyond its invoice's credit, uncredited: neither is the
// customer's due once it failed) less what lost disputes settled, and less
// what refunds made again of the same payment repaid, oldest failure
// first (owedRowsSQL).
var owedSQL = `SELECT * FROM (` + owedRowsSQL(`'failed'`, true) + `) owed WHERE owed.owed > 0`

// owedRowsSQL lists the refunds of statuses (an SQL list) with what each
// owes: its own part (its amount less repaid_amount and uncredited; less
// settled_amount too when lessSettled: what lost disputes settled), less
// what the refunds made again of their payment repaid (repaid_amount of
// those refunded that repay one of them), the oldest failure repaid first.
// A refund made again names one failed refund (repays, the oldest) but may
// repay several: what it repaid is counted against its payment's failures
// in their order.
func owedRowsSQL(statuses string, lessSettled bool) string {
	own := `greatest(0, f.amount - f.repaid_amount - f.uncredited)`
	if lessSettled {
		own = `greatest(0, f.amount - f.repaid_amount - f.uncredited - f.settled_amount)`
	}
	return `SELECT o.id, o.account_id, o.checkout_id, o.failed_at, o.settled_amount, o.credited,
		least(o.own, greatest(0, o.before + o.own - o.repaid)) AS owed
	FROM (SELECT f.id, f.account_id, ` + owedFromSQL + ` AS checkout_id, f.failed_at, f.settled_amount, ` + own + ` AS own,
		COALESCE(sum(` + own + `) OVER (PARTITION BY f.account_id, ` + owedFromSQL + ` ORDER BY f.failed_at, f.id
			ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
		COALESCE((SELECT sum(r.repaid_amount) FROM refunds r JOIN refunds g ON g.id = r.repays
			WHERE r.account_id = f.account_id AND r.status = 'refunded' AND g.status IN (` + statuses + `)
				AND COALESCE(g.owed_from, g.checkout_id) = ` + owedFromSQL + `), 0) AS repaid,
		EXISTS (SELECT 1 FROM invoices cn WHERE cn.account_id = f.account_id AND cn.refund_id = f.id) AS credited
	FROM refunds f WHERE f.status IN (` + statuses + `)) o`
}

// owedFromSQL is the payment the failed refund f is owed from: its own,
// or, once its own was returned and its invoice paid again by another
// payment, that one (refunds.owed_from, set by oweAgain).
const owedFromSQL = `COALESCE(f.owed_from, f.checkout_id)`

// settleByDisputes settles the failed refunds of the account's payment ref
// by its lost disputes, in the transaction that books the dispute's loss
// or the refund's failure (whichever comes last). The card network gave
// the customer back what was disputed; of it, what the dispute's credit
// note did not credit (the sale left once the refunds' credit notes were
// issued) repays what failed refunds still owed against their credit
// notes. So, of the payment (the invoice it paid; a payment of no invoice
// settles nothing), what is still owed after the disputes is what the
// customer paid less what came back (refunds made, disputes lost), never
// more than the failed refunds owed; the rest is settled, the oldest
// failure first (a refund made again is not one: what it failed to pay is
// its first refund's debt): its row names the dispute (settled_by, the latest lost)
// and how much it settled (settled_amount), and is settled_by_dispute when
// nothing of it is owed any more (no longer counted by FailedRefunds). No
// credit note is issued or changed: the failed refunds' stand, and the
// dispute's was capped to what was left of the invoice. Run again, it
// settles the same.
func settleByDisputes(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, ref string) error {
	var paid, refunded, disputed int64
	var dispute *string
	err := tx.QueryRow(ctx, `SELECT i.total_amount,
		COALESCE((SELECT sum(amount) FROM refunds WHERE account_id = $1 AND checkout_id = $2 AND status = 'refunded'), 0),
		COALESCE((SELECT sum(amount) FROM disputes WHERE account_id = $1 AND payment = $2 AND status = 'lost'), 0),
		(SELECT id FROM disputes WHERE account_id = $1 AND payment = $2 AND status = 'lost' ORDER BY closed_at DESC, id DESC LIMIT 1)
		FROM invoices i WHERE i.account_id = $1 AND i.paid_by = $2 AND i.kind <> 'CREDIT_NOTE' ORDER BY i.created_at LIMIT 1`,
		accountID, ref).Scan(&paid, &refunded, &disputed, &dispute)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && dispute == nil) {
		return nil
	} else if err != nil {
		return wrapErr(err)
	}
	type failed struct {
		id            string
		owed, settled int64
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM refunds f WHERE f.account_id = $1 AND `+owedFromSQL+` = $2
		AND f.status IN ('failed', 'settled_by_dispute') FOR UPDATE`, accountID, ref); err != nil {
		return wrapErr(err)
	}
	rows, err := tx.Query(ctx, `SELECT f.id, f.owed, f.settled_amount FROM (`+owedRowsSQL(`'failed', 'settled_by_dispute'`, false)+`) f
		WHERE f.account_id = $1 AND f.checkout_id = $2 ORDER BY f.failed_at, f.id`, accountID, ref)
	if err != nil {
		return wrapErr(err)
	}
	fs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (failed, error) {
		var f failed
		return f, row.Scan(&f.id, &f.owed, &f.settled)
	})
	if err != nil {
		return wrapErr(err)
	}
	var owed int64
	for _, f := range fs {
		owed += f.owed
	}
	settle := owed - max(0, min(owed, paid-refunded-disputed))
	for _, f := range fs {
		s := min(f.owed, settle)
		settle -= s
		if s == f.settled {
			continue
		}
		if _, err := tx.Exec(ctx, `UPDATE refunds SET settled_amount = $2::bigint, settled_by = CASE WHEN $2 > 0 THEN $3 END,
			status = CASE WHEN $2 > 0 AND $2 = $4::bigint THEN 'settled_by_dispute' ELSE 'failed' END WHERE id = $1`,
			f.id, s, *dispute, f.owed); err != nil {
			return wrapErr(err)
		}
	}
	return nil
}

// settleByReturn settles the failed refunds still owed of the account's
// payment ref by its return (returnID: the provider's object that
// announced it), in the transaction that books the return or the refund's
// failure, whichever comes last: the bank gave the customer the whole
// debit back, so nothing a failed refund of it owed is owed any more, and
// a refund made again would pay it out twice (Stripe refunds no returned
// charge). Their rows turn settled_by_return, naming the return (no longer
// counted by FailedRefunds; OwedRefundOf refuses them, saying why). No
// credit note is issued or changed: theirs stand. Run again, it settles
// nothing more.
func settleByReturn(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, ref, returnID string) error {
	_, err := tx.Exec(ctx, `UPDATE refunds SET status = 'settled_by_return', settled_by_return = $3
		WHERE id IN (SELECT f.id FROM (`+owedSQL+`) f WHERE f.account_id = $1 AND f.checkout_id = $2)`, accountID, ref, returnID)
	return wrapErr(err)
}

// oweAgain makes the failed refunds that the return of their payment
// settled, whose credit notes correct invoice id, owed again from payment
// paidBy, which has just paid that invoice again (dunning collected it, or
// the customer paid it): the customer, who had the returned payment back,
// has now paid the invoice's whole total again against an invoice their
// credit notes reduced. Their rows turn failed again, owed from paidBy
// (owed_from): counted by FailedRefunds, and `kudos ops refund --failed`
// refunds them from paidBy against their credit notes (no second one). A
// return of paidBy in its turn settles them again (settleByReturn). Run in
// the transaction that marks the invoice paid, or that books a failure
// after it was paid again; run again, it changes nothing.
func oweAgain(ctx context.Context, tx pgx.Tx, accountID, id uuid.UUID, paidBy string) error {
	_, err := tx.Exec(ctx, `UPDATE refunds f SET status = 'failed', settled_by_return = NULL, owed_from = $3
		WHERE f.account_id = $1 AND f.status = 'settled_by_return' AND `+owedFromSQL+` <> $3
			AND EXISTS (SELECT 1 FROM invoices cn WHERE cn.account_id = $1 AND cn.refund_id = f.id AND cn.corrects = $2)`,
		accountID, id, paidBy)
	return wrapErr(err)
}

// oweAgainIfPaidAgain is oweAgain for the failed refunds owed from payment
// ref (their own, or owed from it since) whose invoice another payment has
// paid again since ref was returned (a failure booked after that, of
// theirs or of a refund made again of them: settleByBookedReturn settled
// them).
func oweAgainIfPaidAgain(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, ref string) error {
	var id uuid.UUID
	var paidBy string
	err := tx.QueryRow(ctx, `SELECT i.id, i.paid_by FROM refunds f
		JOIN invoices cn ON cn.account_id = f.account_id AND cn.refund_id = f.id
		JOIN invoices i ON i.id = cn.corrects
		WHERE f.account_id = $1 AND `+owedFromSQL+` = $2 AND f.status = 'settled_by_return'
			AND i.status = 'PAID' AND i.paid_by IS NOT NULL AND i.paid_by <> $2
		ORDER BY f.created_at LIMIT 1`, accountID, ref).Scan(&id, &paidBy)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return wrapErr(err)
	}
	return oweAgain(ctx, tx, accountID, id, paidBy)
}

// settleByBookedReturn is settleByReturn for a refund's failure booked
// after the return of its payment ref (one booked, or applied: its
// workflow has seen it), the first return's.
func settleByBookedReturn(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, ref string) error {
	var returnID string
	err := tx.QueryRow(ctx, `SELECT COALESCE(NULLIF(returned->>'id', ''), event_id) FROM payment_events
		WHERE account_id = $1 AND returned->>'payment' = $2 AND returned IS NOT NULL AND (booked IS NOT NULL OR applied_at IS NOT NULL)
		ORDER BY received_at LIMIT 1`, accountID, ref).Scan(&returnID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return wrapErr(err)
	}
	return settleByReturn(ctx, tx, accountID, ref, returnID)
}

// OwedRefund is a refund that failed at the provider and is still owed to
// the customer, as `kudos ops refund --failed` refunds it again: from its
// own payment (PaymentRef, found at the provider as RefundablePayment
// finds one), Owed of it.
type OwedRefund struct {
	ID         string
	AccountID  uuid.UUID
	PaymentRef string
	ProviderID string
	IsCheckout bool
	PaymentID  string
	Owed       kudos.Money
	// InvoiceID is the invoice its credit note corrects (nil: it had none,
	// the payment settled no invoice; the refund made again credits
	// nothing either).
	InvoiceID *uuid.UUID
}

// OwedRefundOf returns the failed refund id as an owed refund; a refund
// made again that failed in its turn answers what it credited of its own
// (beyond what it repaid), or, when it credited nothing, the refund it
// repaid (owed again). While an older failure of the same payment is
// still owed, that one is answered: a refund made now repays it first. An unknown id is ENotFound; a refund not failed, or owed no
// more (repaid by a refund made again, settled by a lost dispute or by
// the return of its payment: that one's error says so), or
// failed without a credit note though its payment settled an invoice
// (refund that invoice), is EInvalid with why.
func (db *DB) OwedRefundOf(ctx context.Context, id string) (*OwedRefund, error) {
	var r OwedRefund
	var status, ref string
	var repays, returnID *string
	err := db.Pool.QueryRow(ctx, `SELECT account_id, status, repays FROM refunds WHERE id = $1`, id).Scan(&r.AccountID, &status, &repays)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "no refund %q", id)
	} else if err != nil {
		return nil, wrapErr(err)
	}
	var ownOwed bool
	if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM (`+owedSQL+`) f WHERE f.id = $1)`, id).Scan(&ownOwed); err != nil {
		return nil, wrapErr(err)
	}
	if status == "failed" && repays != nil && !ownOwed { // it owes nothing of its own: what it failed to repay is owed again
		id = *repays
		if err := db.Pool.QueryRow(ctx, `SELECT status FROM refunds WHERE id = $1`, id).Scan(&status); err != nil {
			return nil, wrapErr(err)
		}
	}
	// A refund made now repays its payment's failures oldest first: an
	// older one still owed is answered first (then this one, asked again).
	var older string
	err = db.Pool.QueryRow(ctx, `SELECT o.id FROM (`+owedSQL+`) o JOIN refunds f ON f.id = $1
		WHERE f.status = 'failed' AND o.account_id = f.account_id AND o.checkout_id = COALESCE(f.owed_from, f.checkout_id)
			AND (o.failed_at, o.id) < (f.failed_at, f.id)
		ORDER BY o.failed_at, o.id LIMIT 1`, id).Scan(&older)
	switch {
	case err == nil:
		id = older
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, wrapErr(err)
	}
	if status == "settled_by_return" {
		if err := db.Pool.QueryRow(ctx, `SELECT COALESCE(owed_from, checkout_id), settled_by_return FROM refunds WHERE id = $1`, id).Scan(&ref, &returnID); err != nil {
			return nil, wrapErr(err)
		}
		return nil, kudos.Errorf(kudos.EInvalid, "refund %s is owed no more: its payment %s was returned by the bank since (return %s): the customer has the whole payment back, and refunding it again would pay it out twice (the provider refunds no returned payment; kudos ops account)",
			id, ref, *returnID)
	}
	var credited, paysInvoice bool
	var cnOf *uuid.UUID
	err = db.Pool.QueryRow(ctx, `SELECT f.checkout_id, f.owed, r.currency, f.credited,
			EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = f.account_id AND i.paid_by = f.checkout_id AND i.kind <> 'CREDIT_NOTE'),
			(SELECT cn.corrects FROM invoices cn WHERE cn.account_id = f.account_id AND cn.refund_id = f.id)
		FROM (`+owedSQL+`) f JOIN refunds r USING (id) WHERE f.id = $1`, id).
		Scan(&r.PaymentRef, &r.Owed.Amount, &r.Owed.Currency, &credited, &paysInvoice, &cnOf)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if status == "failed" || status == "settled_by_dispute" {
			return nil, kudos.Errorf(kudos.EInvalid, "refund %s is owed no more: a refund made again repaid it, or a lost dispute gave the money back (kudos ops account)", id)
		}
		return nil, kudos.Errorf(kudos.EInvalid, "refund %s did not fail at the provider (%s): nothing to refund again", id, status)
	case err != nil:
		return nil, wrapErr(err)
	case !credited && paysInvoice:
		return nil, kudos.Errorf(kudos.EInvalid, "refund %s failed without a credit note while its payment settled an invoice: refund that invoice (kudos ops refund <invoice>)", id)
	}
	r.ID, r.InvoiceID = id, cnOf
	r.ProviderID, r.IsCheckout, r.PaymentID, err = db.paymentAt(ctx, r.AccountID, r.PaymentRef)
	return &r, err
}
