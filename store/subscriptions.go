package store

import (
	"context"

	"github.com/google/uuid"

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
