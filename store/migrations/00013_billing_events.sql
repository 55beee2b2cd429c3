-- +goose Up
-- The billing timeline (issue 14): what happened to an account's money and
-- plan, append-only. Each event is written in the same transaction as the
-- state change it records (store/billing_events.go), once per (account,
-- key): a retried activity finds its key and writes nothing.
CREATE TABLE billing_events (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- seq orders events of the same instant (the order they were written).
    seq        bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    at         timestamptz NOT NULL,
    type       text        NOT NULL CHECK (type IN (
        'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
        'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
        'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
        'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
        'payment_method_removed', 'refund')),
    plan       text CHECK (plan IN ('TRIAL', 'STARTER', 'PRO', 'TEAM')),
    amount     bigint CHECK (amount >= 0),
    currency   text,
    -- No foreign key: the draft invoice of a checkout that closed unpaid is
    -- dropped, and its events still name it (the api shows only invoices
    -- that exist).
    invoice_id uuid,
    key        text        NOT NULL,
    UNIQUE (account_id, key),
    CHECK ((amount IS NULL) = (currency IS NULL))
);
CREATE INDEX billing_events_timeline_idx ON billing_events (account_id, at DESC, seq DESC);

-- Append-only: a row is never changed (deleting the account deletes them).
-- +goose StatementBegin
CREATE FUNCTION billing_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'billing_events is append-only';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER billing_events_no_update BEFORE UPDATE ON billing_events
    FOR EACH ROW EXECUTE FUNCTION billing_events_append_only();

-- Backfill: the history existing accounts already have, from their
-- subscriptions, invoices and refunds (checkouts and payment methods kept
-- no history worth showing). Statements run in the order of events of the
-- same instant (a payment before the plan it starts). The keys are those
-- the live code uses where both can name the same event, so a transition
-- that straddles the deploy is not written twice.

-- Every account began on its trial.
INSERT INTO billing_events (account_id, at, type, plan, key)
SELECT s.account_id, a.created_at, 'trial_started', 'TRIAL', 'trial_started'
FROM subscriptions s JOIN accounts a ON a.id = s.account_id
ORDER BY a.created_at;

-- Trials that ran out: still expired, or expired before the first plan was paid.
INSERT INTO billing_events (account_id, at, type, plan, key)
SELECT s.account_id, s.trial_expires_at, 'trial_expired', 'TRIAL', 'trial_expired'
FROM subscriptions s
WHERE s.trial_expires_at IS NOT NULL
  AND (s.show_status = 'trial_expired'
    OR s.trial_expires_at < (SELECT min(i.paid_at) FROM invoices i
                             WHERE i.account_id = s.account_id AND i.kind = 'SUBSCRIPTION' AND i.status = 'PAID'))
ORDER BY s.trial_expires_at;

-- A renewal charge that was declined (the invoice became due, and may have
-- been paid later through 'continue with plan').
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT i.account_id, i.finalized_at, 'renewal_failed', i.plan, i.total_amount, i.currency, i.id, 'renewal_failed:' || i.id
FROM invoices i
WHERE i.kind = 'RENEWAL' AND i.finalized_at IS NOT NULL
  AND (i.status = 'DUE_PAYMENT' OR i.paid_at > i.finalized_at)
ORDER BY i.finalized_at;

-- The plan stopped at its renewal date with that invoice due (before
-- dunning, 00012, a declined renewal expired the plan at once; a renewal
-- being retried now has not).
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT i.account_id, i.finalized_at, 'plan_expired', i.plan, i.total_amount, i.currency, i.id, 'plan_expired:' || i.id
FROM invoices i
WHERE i.kind IN ('RENEWAL', 'PAYMENTDUE') AND i.finalized_at IS NOT NULL
  AND (i.status = 'DUE_PAYMENT' OR i.paid_at > i.finalized_at)
  AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.failed_invoice_id = i.id)
ORDER BY i.finalized_at;

-- Renewal charges paid off-session (paid when finalised).
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT i.account_id, coalesce(i.paid_at, i.created_at), 'renewal_succeeded', i.plan, i.total_amount, i.currency, i.id,
       'renewal_succeeded:' || i.id
FROM invoices i
WHERE i.kind = 'RENEWAL' AND i.status = 'PAID' AND (i.finalized_at IS NULL OR i.paid_at IS NULL OR i.paid_at <= i.finalized_at)
ORDER BY 2;

-- Every other paid invoice was a payment through a checkout (a waived
-- upgrade of zero paid nothing).
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT i.account_id, coalesce(i.paid_at, i.finalized_at, i.created_at), 'payment_succeeded', i.plan, i.total_amount, i.currency,
       i.id, 'payment_succeeded:' || i.id
FROM invoices i
WHERE i.status = 'PAID' AND i.total_amount > 0
  AND NOT (i.kind = 'RENEWAL' AND (i.finalized_at IS NULL OR i.paid_at IS NULL OR i.paid_at <= i.finalized_at))
ORDER BY 2;

-- The plans those payments started (a first plan, or a stopped plan
-- continued) and upgraded.
INSERT INTO billing_events (account_id, at, type, plan, invoice_id, key)
SELECT i.account_id, coalesce(i.paid_at, i.finalized_at, i.created_at),
       CASE WHEN i.kind = 'UPGRADE' THEN 'plan_upgraded' ELSE 'plan_started' END, i.plan, i.id,
       CASE WHEN i.kind = 'UPGRADE' THEN 'plan_upgraded:' ELSE 'plan_started:' END || i.id
FROM invoices i
WHERE i.status = 'PAID'
  AND (i.kind IN ('SUBSCRIPTION', 'UPGRADE') OR (i.kind IN ('RENEWAL', 'PAYMENTDUE') AND i.paid_at > i.finalized_at))
ORDER BY 2;

-- Payments given back.
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT r.account_id, r.created_at, 'refund', c.plan, r.amount, r.currency, c.invoice_id, 'refund:' || r.id
FROM refunds r LEFT JOIN checkouts c ON c.id = r.checkout_id
ORDER BY r.created_at;

-- A renewal being retried (dunning, 00012): its next attempt is scheduled.
INSERT INTO billing_events (account_id, at, type, plan, amount, currency, invoice_id, key)
SELECT s.account_id, s.updated_at, 'payment_retry_scheduled', s.plan, s.failed_amount, s.failed_currency, s.failed_invoice_id,
       'payment_retry_scheduled:' || s.failed_invoice_id || ':' || (extract(epoch FROM s.payment_retry_at) * 1000000)::bigint
FROM subscriptions s
WHERE s.payment_retry_at IS NOT NULL AND s.failed_invoice_id IS NOT NULL
ORDER BY s.updated_at;

-- A paid plan whose auto-renewal is off now was stopped at its last change.
INSERT INTO billing_events (account_id, at, type, plan, key)
SELECT s.account_id, s.updated_at, 'auto_renewal_stopped', s.plan, 'auto_renewal_stopped:backfill'
FROM subscriptions s
WHERE s.plan <> 'TRIAL' AND s.show_status IN ('active', 'processing') AND NOT s.start_next_period
ORDER BY s.updated_at;

-- +goose Down
DROP TABLE billing_events;
DROP FUNCTION billing_events_append_only();
