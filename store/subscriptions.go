package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// SubscriptionRecord is the read model of one account's subscription as the
// subscription workflow writes it.
type SubscriptionRecord struct {
	Plan            kudos.Plan       `json:"plan"`
	Status          kudos.ShowStatus `json:"status"`
	TrialExpiresAt  *time.Time       `json:"trial_expires_at"`
	PeriodStartedAt *time.Time       `json:"period_started_at"`
	RenewalAt       *time.Time       `json:"renewal_at"`
	StartNextPeriod bool             `json:"start_next_period"`
}

// WriteSubscription stores the subscription state. It sets absolute values,
// so a retried write changes nothing twice.
func (db *DB) WriteSubscription(ctx context.Context, accountID uuid.UUID, r SubscriptionRecord) error {
	tag, err := db.Pool.Exec(ctx, `UPDATE subscriptions SET plan = $2, show_status = $3, trial_expires_at = $4,
		period_started_at = $5, plan_renewal_at = $6, start_next_period = $7, updated_at = $8 WHERE account_id = $1`,
		accountID, r.Plan, r.Status, r.TrialExpiresAt, r.PeriodStartedAt, r.RenewalAt, r.StartNextPeriod, db.Now())
	if err == nil && tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.ENotFound, "no subscription for account %s", accountID)
	}
	return wrapErr(err)
}

// Subscription returns the stored subscription state of an account.
func (db *DB) Subscription(ctx context.Context, accountID uuid.UUID) (*SubscriptionRecord, error) {
	var r SubscriptionRecord
	err := db.Pool.QueryRow(ctx, `SELECT plan, show_status, trial_expires_at, period_started_at, plan_renewal_at, start_next_period
		FROM subscriptions WHERE account_id = $1`, accountID).Scan(&r.Plan, &r.Status, &r.TrialExpiresAt, &r.PeriodStartedAt,
		&r.RenewalAt, &r.StartNextPeriod)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "Not found")
	}
	return &r, wrapErr(err)
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
	if errors.Is(err, pgx.ErrNoRows) {
		return "", kudos.Errorf(kudos.ENotFound, "Not found")
	}
	return e, wrapErr(err)
}

// CheckoutRecord is a hosted checkout as ops see it.
type CheckoutRecord struct {
	ID, Provider, ProviderID, URL string
	AccountID                     uuid.UUID
	Purpose                       kudos.CheckoutPurpose
	Plan                          kudos.Plan
	InvoiceID                     *uuid.UUID
	ExpiresAt                     time.Time
}

// RecordCheckout stores an opened checkout (idempotent by id).
func (db *DB) RecordCheckout(ctx context.Context, c CheckoutRecord) error {
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
