-- +goose Up
-- A refund that fails at the provider after it was booked (Stripe's
-- refund.updated, status failed or canceled: the money never reached the
-- customer) is kept as failed, with why and when: its credit note stands
-- (a tax document that already reduced the sale), and the customer is owed
-- the money. A refund made again for it (`kudos ops refund`) pays out
-- against that credit note: repays names the failed refund, and no second
-- credit note is issued for the amount it repays.
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused', 'deferred', 'failed'));
ALTER TABLE refunds
    ADD COLUMN failed_at      timestamptz,
    ADD COLUMN failure_reason text NOT NULL DEFAULT '',
    ADD COLUMN repays         text;
CREATE INDEX refunds_failed_idx ON refunds (failed_at) WHERE status = 'failed';
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed', 'credit_note_issued',
    'second_factor_added', 'second_factor_removed', 'mfa_policy_changed', 'vat_id_checked',
    'dispute_opened', 'dispute_won', 'dispute_lost', 'payment_returned', 'refund_failed'));

-- +goose Down
DELETE FROM billing_events WHERE type = 'refund_failed';
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed', 'credit_note_issued',
    'second_factor_added', 'second_factor_removed', 'mfa_policy_changed', 'vat_id_checked',
    'dispute_opened', 'dispute_won', 'dispute_lost', 'payment_returned'));
DROP INDEX refunds_failed_idx;
UPDATE refunds SET status = 'refunded' WHERE status = 'failed';
ALTER TABLE refunds DROP COLUMN failed_at, DROP COLUMN failure_reason, DROP COLUMN repays;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused', 'deferred'));
