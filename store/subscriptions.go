package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// WriteSubscription stores the workflow-owned columns of the subscription
// (kudos.SubscriptionState.Record), and in the same transaction the billing
// events of what changed and the mark of the payment events applied, whose
// application the write ends. It sets absolute values, so a retried write
// changes nothing twice.
func (db *DB) WriteSubscription(ctx context.Context, accountID uuid.UUID, r kudos.Subscription, applied ...string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := writeSubscription(ctx, tx, accountID, r, db.Now(), nil); err != nil {
			return err
		}
		return markApplied(ctx, tx, accountID, applied, db.Now())
	})
}

// paying, when set, is the invoice this transaction pays (PAID by the time
// it commits): the event of a plan it starts or upgrades names it.
func writeSubscription(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, r kudos.Subscription, now time.Time, paying *invoiceRow) error {
	var old kudos.Subscription
	err := tx.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions s WHERE account_id = $1 FOR UPDATE`, accountID).
		Scan(subscriptionFields(&old)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return kudos.Errorf(kudos.ENotFound, "no subscription for account %s", accountID)
	} else if err != nil {
		return wrapErr(err)
	}
	var failedInvoice *uuid.UUID
	var failedAmount *int64
	var failedCurrency *string
	if f := r.FailedPayment; f != nil {
		failedInvoice, failedAmount, failedCurrency = &f.InvoiceID, &f.Amount.Amount, &f.Amount.Currency
	}
	if _, err := tx.Exec(ctx, `UPDATE subscriptions SET plan = $2, show_status = $3, trial_expires_at = $4,
		period_started_at = $5, plan_renewal_at = $6, start_next_period = $7, updated_at = $8, payment_retry_at = $9,
		failed_invoice_id = $10, failed_amount = $11, failed_currency = $12, promotion = $13, scheduled_plan = $14, scheduled_at = $15,
		extra_seats = $16, scheduled_extra_seats = $17, payment_retry_base = $18, pending_renewal = $19 WHERE account_id = $1`,
		accountID, r.Plan, r.ShowStatus, r.TrialExpiresAt, r.PeriodStartedAt, r.PlanRenewalAt, r.StartNextPeriod, now,
		r.PaymentRetryAt, failedInvoice, failedAmount, failedCurrency, r.Promotion, r.ScheduledPlan, r.ScheduledAt, r.ExtraSeats,
		r.ScheduledExtraSeats, r.PaymentRetryBase, r.PendingRenewal); err != nil {
		return wrapErr(err)
	}
	return subscriptionEvents(ctx, tx, accountID, old, r, now, paying)
}

// Subscription returns the stored subscription row of an account.
func (db *DB) Subscription(ctx context.Context, accountID uuid.UUID) (*kudos.Subscription, error) {
	var r kudos.Subscription
	err := db.Pool.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions s WHERE account_id = $1`, accountID).
		Scan(subscriptionFields(&r)...)
	return &r, notFound(err)
}

// subscriptionColumns are the columns of a kudos.Subscription, in the order
// of subscriptionFields, of a subscriptions row named s. The failed payment
// being retried is one column: its JSON (kudos.FailedPayment's own, amount in
// major units), NULL when none.
const subscriptionColumns = `s.plan, s.show_status, s.show_onboarding, s.trials_left, s.plan_renewal_at, s.trial_expires_at,
	s.start_next_period, s.period_started_at, s.payment_retry_at,
	CASE WHEN s.failed_invoice_id IS NOT NULL THEN json_build_object('invoice_id', s.failed_invoice_id,
		'amount', s.failed_amount / 100.0, 'currency', s.failed_currency) END, s.promotion,
	s.scheduled_plan, s.scheduled_at, s.extra_seats, s.scheduled_extra_seats`

// subscriptionFields are the scan targets of subscriptionColumns.
func subscriptionFields(s *kudos.Subscription) []any {
	return []any{&s.Plan, &s.ShowStatus, &s.ShowOnboarding, &s.TrialsLeft, &s.PlanRenewalAt, &s.TrialExpiresAt,
		&s.StartNextPeriod, &s.PeriodStartedAt, &s.PaymentRetryAt, &s.FailedPayment, &s.Promotion, &s.ScheduledPlan, &s.ScheduledAt,
		&s.ExtraSeats, &s.ScheduledExtraSeats}
}

// SubscriptionReadModel returns everything Postgres holds of an account's
// subscription: the row, the latest DUE_PAYMENT invoice (only while the plan
// is expired: it is what reactivates it), the checkout of the workflow's
// still open, the payment events not yet applied, and the refunds the
// provider refused for now (deferred). It is what a subscription workflow
// is (re)started from. An erased account has none (ENotFound): nothing may
// start a run that would apply a payment to it (issue 34; its payments are
// refunded by the ErasedPayment workflow).
func (db *DB) SubscriptionReadModel(ctx context.Context, accountID uuid.UUID) (*kudos.SubscriptionReadModel, error) {
	var rm kudos.SubscriptionReadModel
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		// payment_retry_base is the rebuilt run's alone (never shown).
		if err := tx.QueryRow(ctx, `SELECT `+subscriptionColumns+`, s.payment_retry_base, a.deletion_at IS NOT NULL, s.pending_renewal
			FROM subscriptions s JOIN accounts a ON a.id = s.account_id WHERE s.account_id = $1 AND a.deleted_at IS NULL`, accountID).
			Scan(append(subscriptionFields(&rm.Subscription), &rm.PaymentRetryBase, &rm.Deleting, &rm.PendingRenewal)...); err != nil {
			return notFound(err)
		}
		var due kudos.DueInvoice
		var kind kudos.InvoiceKind
		err := tx.QueryRow(ctx, `SELECT id, plan, kind FROM invoices WHERE account_id = $1 AND status = 'DUE_PAYMENT'
			ORDER BY created_at DESC LIMIT 1`, accountID).Scan(&due.ID, &due.Plan, &kind)
		switch {
		case err == nil:
			if kind.WithinPeriod() {
				due.Kind = kind
			}
			rm.Due = &due
		case !errors.Is(err, pgx.ErrNoRows):
			return wrapErr(err)
		}
		if f := rm.FailedPayment; f != nil {
			// Returned: the invoice was paid and its payment came back,
			// so the period being retried is the one running now.
			err := tx.QueryRow(ctx, `SELECT i.kind, (SELECT max(e.at) FROM billing_events e WHERE e.account_id = i.account_id
				AND e.type = 'payment_returned' AND e.invoice_id = i.id) FROM invoices i WHERE i.id = $1`, f.InvoiceID).
				Scan(&rm.FailedKind, &rm.FailedReturnedAt)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return wrapErr(err)
			}
		}
		if rm.Returned, err = returnedDue(ctx, tx, accountID); err != nil {
			return err
		}
		// The workflow owns every checkout but those that add a payment
		// method (the api opens them): the newest open one of its own is
		// the one it continues.
		var c kudos.CheckoutRecord
		var code *string
		err = tx.QueryRow(ctx, `SELECT id, provider, provider_id, url, account_id, purpose, coalesce(plan, ''), invoice_id, expires_at,
			extra_seats, discount_code
			FROM checkouts WHERE account_id = $1 AND status = 'open' AND purpose <> 'payment_method' ORDER BY created_at DESC LIMIT 1`,
			accountID).Scan(&c.ID, &c.Provider, &c.ProviderID, &c.URL, &c.AccountID, &c.Purpose, &c.Plan, &c.InvoiceID, &c.ExpiresAt,
			&c.ExtraSeats, &code)
		switch {
		case err == nil:
			rm.Checkout = &c
		case !errors.Is(err, pgx.ErrNoRows):
			return wrapErr(err)
		}
		if code != nil { // priced with a promotion code: its terms, for the renewals after the payment
			p, err := scanPromotion(tx.QueryRow(ctx, `SELECT `+promotionColumns+` FROM promotion_codes WHERE code = $1`, *code))
			if err != nil {
				return notFound(err)
			}
			d := p.Discount()
			c.Promotion = &d
		}
		rows, err := tx.Query(ctx, `SELECT `+paymentEventColumns+` FROM payment_events WHERE account_id = $1 AND applied_at IS NULL
			ORDER BY received_at, event_id`, accountID)
		if err != nil {
			return wrapErr(err)
		}
		if rm.Unapplied, err = pgx.CollectRows(rows, scanPaymentEvent); err != nil {
			return wrapErr(err)
		}
		if rm.Refunds, err = deferredRefunds(ctx, tx, accountID); err != nil {
			return err
		}
		rm.Disputes, err = openDisputes(ctx, tx, accountID)
		return err
	}, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	return &rm, err
}

// SubscriptionStatus is one account's plan and shown status.
type SubscriptionStatus struct {
	AccountID  uuid.UUID
	Plan       kudos.Plan
	ShowStatus kudos.ShowStatus
}

// SubscriptionStatusPage lists, in account order, the plan and shown status
// of at most limit accounts after the account after (uuid.Nil: from the
// first), for the reconciliation's paged sweep (issue 39): a keyset page on
// the subscriptions' primary key, whose cost does not grow with the
// accounts before it. The bound is given on both tables: with it on
// subscriptions alone, the planner merge-joined accounts from their first
// row, and a page deep into 100 000 accounts read 50 000 of them (637 ms
// against 16 ms: the scale benchmark found it).
func (db *DB) SubscriptionStatusPage(ctx context.Context, after uuid.UUID, limit int) ([]SubscriptionStatus, error) {
	rows, err := db.Pool.Query(ctx, `SELECT s.account_id, s.plan, s.show_status FROM subscriptions s
		JOIN accounts a ON a.id = s.account_id WHERE a.deleted_at IS NULL AND s.account_id > $1 AND a.id > $1
		ORDER BY s.account_id LIMIT $2`, after, limit)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[SubscriptionStatus])
	return out, wrapErr(err)
}

// returnedDue are the account's DUE_PAYMENT invoices whose debit came back
// (a payment_returned event names them), oldest first, with the period
// each paid.
func returnedDue(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) ([]kudos.OwedInvoice, error) {
	rows, err := tx.Query(ctx, `SELECT i.id, i.plan, i.service_from, i.service_to, i.total_amount, i.currency, i.kind FROM invoices i
		WHERE i.account_id = $1 AND i.status = 'DUE_PAYMENT' AND EXISTS (SELECT 1 FROM billing_events e
			WHERE e.account_id = i.account_id AND e.type = 'payment_returned' AND e.invoice_id = i.id)
		ORDER BY i.created_at, i.id`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.OwedInvoice, error) {
		var o kudos.OwedInvoice
		var from, to *time.Time
		var amount kudos.Money
		if err := row.Scan(&o.ID, &o.Plan, &from, &to, &amount.Amount, &amount.Currency, &o.Kind); err != nil {
			return o, err
		}
		o.Amount = &amount
		if from != nil && to != nil {
			o.Service = &kudos.ServicePeriod{From: from.UTC(), To: to.UTC()}
		}
		return o, nil
	})
	return out, wrapErr(err)
}
