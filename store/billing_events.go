package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// AppendBillingEvent writes ev to the account's billing timeline inside tx,
// the transaction of the state change it records. It is idempotent by
// (account, ev.Key): an event whose key is stored already is not written
// again, and it reports whether ev was new. ev.At defaults to now.
//
//	err := db.InTx(ctx, func(tx pgx.Tx) error {
//		// … the state change …
//		_, err := store.AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: id, At: now,
//			Type: kudos.EventTrialReminderSent, Plan: kudos.PlanTrial, Key: "trial_reminder_sent:" + trialEnd})
//		return err
//	})
func AppendBillingEvent(ctx context.Context, tx pgx.Tx, ev kudos.BillingEvent) (bool, error) {
	if err := ev.Validate(); err != nil {
		return false, err
	}
	var at *time.Time
	if !ev.At.IsZero() {
		at = &ev.At
	}
	var plan, currency *string
	if ev.Plan != "" {
		p := string(ev.Plan)
		plan = &p
	}
	if ev.Amount != nil {
		currency = &ev.Currency
	}
	tag, err := tx.Exec(ctx, `INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key,
		member_email, role, actor_email, factor)
		VALUES ($1, coalesce($2, now()), $3, $4, $5, $6, $7, $8, nullif($9, ''), nullif($10, ''), nullif($11, ''), nullif($12, ''))
		ON CONFLICT (account_id, key) DO NOTHING`,
		ev.AccountID, at, ev.Type, plan, ev.Amount, currency, ev.InvoiceID, ev.Key, ev.MemberEmail, string(ev.Role), ev.ActorEmail, ev.Factor)
	if err != nil {
		return false, wrapErr(err)
	}
	return tag.RowsAffected() == 1, nil
}

// RecordBillingEvent appends ev in a transaction of its own: for an event
// whose change Postgres does not hold (a payment method removed at the
// provider). State changes of ours use AppendBillingEvent in theirs.
func (db *DB) RecordBillingEvent(ctx context.Context, ev kudos.BillingEvent) error {
	if ev.At.IsZero() {
		ev.At = db.Now()
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := AppendBillingEvent(ctx, tx, ev)
		return err
	})
}

// BillingTimeline returns up to limit events of the account, newest first
// (ties on at by the order they were written), before the cursor when one
// is given, of the given types only when some are given. An invoice_id is
// kept only while that invoice exists (a draft dropped with its checkout is
// not linked).
func (db *DB) BillingTimeline(ctx context.Context, accountID uuid.UUID, limit int, before *kudos.TimelineCursor,
	types ...kudos.BillingEventType) ([]kudos.BillingEvent, error) {
	args := []any{accountID, limit}
	cond := ""
	if before != nil {
		cond = ` AND (e.at, e.seq) < ($3, $4)`
		args = append(args, before.At, before.Seq)
	}
	if len(types) > 0 {
		args = append(args, types)
		cond += fmt.Sprintf(` AND e.type = ANY($%d)`, len(args))
	}
	rows, err := db.Pool.Query(ctx, `SELECT e.id, e.account_id, e.at, e.type, coalesce(e.plan, ''), e.amount, coalesce(e.currency, ''),
		i.id, e.key, e.seq, coalesce(e.member_email, ''), coalesce(e.role, ''), coalesce(e.actor_email, ''), coalesce(e.factor, '')
		FROM billing_events e LEFT JOIN invoices i ON i.id = e.invoice_id AND i.account_id = e.account_id
		WHERE e.account_id = $1`+cond+` ORDER BY e.at DESC, e.seq DESC LIMIT $2`, args...)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.BillingEvent, error) {
		var e kudos.BillingEvent
		err := r.Scan(&e.ID, &e.AccountID, &e.At, &e.Type, &e.Plan, &e.Amount, &e.Currency, &e.InvoiceID, &e.Key, &e.Seq,
			&e.MemberEmail, &e.Role, &e.ActorEmail, &e.Factor)
		return e, err
	})
	return out, wrapErr(err)
}

// micros is t as a key part: Postgres keeps microseconds.
func micros(t time.Time) string { return fmt.Sprint(t.Truncate(time.Microsecond).UnixMicro()) }

// invoiceEvent appends an event of type typ about invoice id (its plan and
// amount), keyed "<type>:<invoice id>".
func invoiceEvent(ctx context.Context, tx pgx.Tx, typ kudos.BillingEventType, id uuid.UUID, now time.Time) error {
	inv, err := readInvoiceRow(ctx, tx, id, false)
	if err != nil {
		return err
	}
	return inv.event(ctx, tx, typ, now)
}

// latestInvoice is the id of the account's newest invoice in status of one
// of kinds, or nil.
func latestInvoice(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, status kudos.InvoiceStatus, kinds ...kudos.InvoiceKind) (*uuid.UUID, error) {
	var id uuid.UUID
	err := tx.QueryRow(ctx, `SELECT id FROM invoices WHERE account_id = $1 AND status = $2 AND kind = ANY($3)
		ORDER BY coalesce(paid_at, finalized_at, created_at) DESC LIMIT 1`, accountID, status, kinds).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &id, wrapErr(err)
}

// subscriptionEvents appends the events of the change of an account's
// subscription row from old to r (the workflow's transitions are written
// as absolute rows; what changed says what happened), payment_retry_scheduled
// included (a new payment_retry_at). A retried write changes nothing, so it
// appends nothing. The invoice a plan event names is the account's latest
// paid one of its kinds, or paying when this transaction pays one of them.
func subscriptionEvents(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, old, r kudos.Subscription, now time.Time, paying *invoiceRow) error {
	paid := func(kinds ...kudos.InvoiceKind) (*uuid.UUID, error) {
		if paying != nil && slices.Contains(kinds, paying.kind) {
			return &paying.id, nil
		}
		return latestInvoice(ctx, tx, accountID, kudos.InvoicePaid, kinds...)
	}
	var evs []kudos.BillingEvent
	add := func(typ kudos.BillingEventType, plan kudos.Plan, key string, invoice *uuid.UUID) {
		evs = append(evs, kudos.BillingEvent{AccountID: accountID, At: now, Type: typ, Plan: plan, Key: key, InvoiceID: invoice})
	}
	newPeriod := r.PeriodStartedAt != nil && !sameInstant(old.PeriodStartedAt, r.PeriodStartedAt)
	switch {
	case r.ShowStatus == kudos.StatusTrialExpired && old.ShowStatus != kudos.StatusTrialExpired:
		add(kudos.EventTrialExpired, kudos.PlanTrial, string(kudos.EventTrialExpired), nil)
	case r.ShowStatus == kudos.StatusPlanExpired && old.ShowStatus != kudos.StatusPlanExpired:
		due, err := latestInvoice(ctx, tx, accountID, kudos.InvoiceDue, kudos.InvoiceRenewal, kudos.InvoicePaymentDue)
		if err != nil {
			return err
		}
		if due != nil {
			return invoiceEvent(ctx, tx, kudos.EventPlanExpired, *due, now)
		}
		key := string(kudos.EventPlanExpired) + ":"
		if old.PlanRenewalAt != nil {
			key += micros(*old.PlanRenewalAt)
		}
		add(kudos.EventPlanExpired, r.Plan, key, nil)
	case newPeriod && r.Plan.IsPaid() && !sameInstant(old.PlanRenewalAt, r.PeriodStartedAt):
		// A new period that does not begin at the old renewal date is a
		// plan started (a renewal's event is its invoice's).
		invoice, err := paid(kudos.InvoiceSubscription, kudos.InvoicePaymentDue, kudos.InvoiceRenewal)
		if err != nil {
			return err
		}
		add(kudos.EventPlanStarted, r.Plan, string(kudos.EventPlanStarted)+":"+micros(*r.PeriodStartedAt), invoice)
	case old.Plan.IsPaid() && kudos.PlanRank(r.Plan) > kudos.PlanRank(old.Plan):
		invoice, err := paid(kudos.InvoiceUpgrade)
		if err != nil {
			return err
		}
		period := ""
		if r.PeriodStartedAt != nil {
			period = micros(*r.PeriodStartedAt)
		}
		add(kudos.EventPlanUpgraded, r.Plan, fmt.Sprintf("%s:%s:%s", kudos.EventPlanUpgraded, r.Plan, period), invoice)
	case r.Plan.IsPaid() && !newPeriod && old.StartNextPeriod != r.StartNextPeriod:
		typ := kudos.EventAutoRenewalStopped
		if r.StartNextPeriod {
			typ = kudos.EventAutoRenewalRestarted
		}
		add(typ, r.Plan, fmt.Sprintf("%s:%s", typ, micros(now)), nil)
	}
	if f := r.FailedPayment; f != nil && r.PaymentRetryAt != nil && !sameInstant(old.PaymentRetryAt, r.PaymentRetryAt) {
		// Dunning scheduled the next attempt at a failed renewal.
		amount, invoice := f.Amount.Amount, f.InvoiceID
		evs = append(evs, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventPaymentRetryScheduled, Plan: r.Plan,
			Amount: &amount, Currency: f.Amount.Currency, InvoiceID: &invoice,
			Key: fmt.Sprintf("%s:%s:%s", kudos.EventPaymentRetryScheduled, invoice, micros(*r.PaymentRetryAt))})
	}
	for _, ev := range evs {
		if _, err := AppendBillingEvent(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}
