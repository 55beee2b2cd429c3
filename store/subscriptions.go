package store

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// WriteSubscription stores the workflow-owned columns of the subscription
// (kudos.SubscriptionState.Record). It sets absolute values, so a retried
// write changes nothing twice.
func (db *DB) WriteSubscription(ctx context.Context, accountID uuid.UUID, r kudos.Subscription) error {
	tag, err := db.Pool.Exec(ctx, `UPDATE subscriptions SET plan = $2, show_status = $3, trial_expires_at = $4,
		period_started_at = $5, plan_renewal_at = $6, start_next_period = $7, updated_at = $8 WHERE account_id = $1`,
		accountID, r.Plan, r.ShowStatus, r.TrialExpiresAt, r.PeriodStartedAt, r.PlanRenewalAt, r.StartNextPeriod, db.Now())
	if err == nil && tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.ENotFound, "no subscription for account %s", accountID)
	}
	return wrapErr(err)
}

// Subscription returns the stored subscription row of an account.
func (db *DB) Subscription(ctx context.Context, accountID uuid.UUID) (*kudos.Subscription, error) {
	var r kudos.Subscription
	err := db.Pool.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions s WHERE account_id = $1`, accountID).
		Scan(subscriptionFields(&r)...)
	return &r, notFound(err)
}

// subscriptionColumns are the columns of a kudos.Subscription, in the order
// of subscriptionFields, of a subscriptions row named s.
const subscriptionColumns = `s.plan, s.show_status, s.show_onboarding, s.trials_left, s.plan_renewal_at, s.trial_expires_at,
	s.start_next_period, s.period_started_at`

// subscriptionFields are the scan targets of subscriptionColumns.
func subscriptionFields(s *kudos.Subscription) []any {
	return []any{&s.Plan, &s.ShowStatus, &s.ShowOnboarding, &s.TrialsLeft, &s.PlanRenewalAt, &s.TrialExpiresAt,
		&s.StartNextPeriod, &s.PeriodStartedAt}
}

// BillingCountry returns the country of the account's billing address, or "".
func (db *DB) BillingCountry(ctx context.Context, accountID uuid.UUID) (string, error) {
	var c string
	err := db.Pool.QueryRow(ctx, `SELECT country FROM billing_addresses WHERE account_id = $1`, accountID).Scan(&c)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return c, wrapErr(err)
}

// OwnerEmail returns the e-mail of the account's owner (the checkout's
// customer e-mail).
func (db *DB) OwnerEmail(ctx context.Context, accountID uuid.UUID) (string, error) {
	var e string
	err := db.Pool.QueryRow(ctx, `SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.account_id = $1 ORDER BY (m.role = 'owner') DESC, m.created_at LIMIT 1`, accountID).Scan(&e)
	return e, notFound(err)
}

// RecordCheckout stores an opened checkout (idempotent by id).
func (db *DB) RecordCheckout(ctx context.Context, c kudos.CheckoutRecord) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO checkouts (id, account_id, purpose, plan, invoice_id, provider, provider_id, url, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
		c.ID, c.AccountID, c.Purpose, c.Plan, c.InvoiceID, c.Provider, c.ProviderID, c.URL, c.ExpiresAt)
	return wrapErr(err)
}

// SetCheckoutStatus records how a checkout ended.
func (db *DB) SetCheckoutStatus(ctx context.Context, id, status string) error {
	_, err := db.Pool.Exec(ctx, `UPDATE checkouts SET status = $2 WHERE id = $1`, id, status)
	return wrapErr(err)
}

// OutboxPaymentEvent delivers a kudos.PaymentEvent to the subscription
// workflow as a signal.
const OutboxPaymentEvent = "payment_event"

// OutboxSubscriptionStart starts an account's subscription workflow.
const OutboxSubscriptionStart = "subscription_start"

// RecordPaymentEvent stores a verified payment event once by its id and, in
// the same transaction, queues its delivery to the subscription workflow. It
// reports whether the event was new; a duplicate changes nothing.
func (db *DB) RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent) (bool, error) {
	var isNew bool
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		isNew, err = recordPaymentEvent(ctx, tx, ev)
		return err
	})
	return isNew, err
}

func recordPaymentEvent(ctx context.Context, tx pgx.Tx, ev kudos.PaymentEvent) (bool, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO payment_events (event_id, provider, account_id, checkout_id, outcome, occurred_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`,
		ev.EventID, ev.Provider, ev.AccountID, ev.CheckoutID, ev.Outcome, ev.OccurredAt)
	if err != nil || tag.RowsAffected() == 0 {
		return false, wrapErr(err)
	}
	return true, insertOutbox(ctx, tx, OutboxEntry{Key: "payment_event:" + ev.EventID, Kind: OutboxPaymentEvent, Payload: ev})
}

// StripeCustomer returns the account's Stripe customer id, or "".
func (db *DB) StripeCustomer(ctx context.Context, accountID uuid.UUID) (string, error) {
	var id string
	err := db.Pool.QueryRow(ctx, `SELECT customer_id FROM payment_customers WHERE account_id = $1 AND provider = 'stripe'`, accountID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return id, wrapErr(err)
}

// SaveStripeCustomer remembers the account's Stripe customer id.
func (db *DB) SaveStripeCustomer(ctx context.Context, accountID uuid.UUID, customerID string) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO payment_customers (account_id, provider, customer_id) VALUES ($1, 'stripe', $2)
		ON CONFLICT (account_id) DO UPDATE SET customer_id = $2, provider = 'stripe'`, accountID, customerID)
	return wrapErr(err)
}

// OwnerLanguage returns the preferred language of the account's owner (the
// language of its invoices).
func (db *DB) OwnerLanguage(ctx context.Context, accountID uuid.UUID) (string, error) {
	var lang string
	err := db.Pool.QueryRow(ctx, `SELECT u.preferred_language FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.account_id = $1 ORDER BY (m.role = 'owner') DESC, m.created_at LIMIT 1`, accountID).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return "en", nil
	}
	return lang, wrapErr(err)
}
