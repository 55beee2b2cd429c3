-- +goose Up
-- Account deletion (issue 28): the owner schedules it (deletion_at, after
-- KUDOS_DELETION_GRACE); the workflow deletion:account:<id> erases the
-- account's personal data at that time and marks it deleted_at. Invoices and
-- their numbers stay (10 years), with the buyer as the issued PDF shows it;
-- the timeline keeps its money events without any e-mail address.
ALTER TABLE accounts ADD COLUMN deletion_at timestamptz, ADD COLUMN deleted_at timestamptz;
-- A user's own deletion (issue 28): scheduled like an account's; the
-- erasure deletes the row (the address can sign up anew).
ALTER TABLE users ADD COLUMN deletion_at timestamptz;
-- What an erasure ('account:<id>' or 'user:<id>') left to remove outside
-- Postgres (the provider's customer, stored files), kept with it so that a
-- retried erasure hands the same work to the workflow however often it runs.
CREATE TABLE erasures (
    subject     text PRIMARY KEY,
    customer_id text        NOT NULL DEFAULT '',
    objects     text[]      NOT NULL DEFAULT '{}',
    erased_at   timestamptz NOT NULL
);
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed'));

-- Append-only but for one change: erasing e-mail addresses (a deleted
-- account's events, or a deleted user's in the timelines that name them;
-- issue 28): an address may become NULL, nothing else changes.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION billing_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.member_email IS NULL OR NEW.member_email IS NOT DISTINCT FROM OLD.member_email)
       AND (NEW.actor_email IS NULL OR NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email)
       AND (NEW.id, NEW.seq, NEW.account_id, NEW.at, NEW.type, NEW.plan, NEW.amount, NEW.currency, NEW.invoice_id, NEW.key, NEW.role)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.seq, OLD.account_id, OLD.at, OLD.type, OLD.plan, OLD.amount, OLD.currency, OLD.invoice_id, OLD.key, OLD.role) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'billing_events is append-only';
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION billing_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'billing_events is append-only';
END;
$$;
-- +goose StatementEnd
DELETE FROM billing_events WHERE type IN ('deletion_scheduled', 'deletion_cancelled', 'deletion_completed');
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred'));
DROP TABLE erasures;
ALTER TABLE users DROP COLUMN deletion_at;
ALTER TABLE accounts DROP COLUMN deleted_at, DROP COLUMN deletion_at;
