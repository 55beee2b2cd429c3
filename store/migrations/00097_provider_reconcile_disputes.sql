-- +goose Up
-- Issue 36 item 4: the provider reconciliation compares disputes too.
-- The sandbox keeps its disputes as the provider's own state (its "GET
-- /v1/disputes"), apart from the events that announced them: Stripe's
-- list of events forgets them after 30 days, its list of disputes does
-- not. payment is Kudos's reference of the disputed payment.
CREATE TABLE sandbox_disputes (
    id         text PRIMARY KEY,
    account_id uuid        NOT NULL,
    payment    text        NOT NULL,
    amount     bigint      NOT NULL,
    currency   text        NOT NULL,
    status     text        NOT NULL CHECK (status IN ('open', 'won', 'lost')),
    reason     text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_disputes_created_idx ON sandbox_disputes (created_at, id);
-- A run sees the provider's disputes too (by their id).
ALTER TABLE provider_reconcile_seen DROP CONSTRAINT provider_reconcile_seen_kind_check;
ALTER TABLE provider_reconcile_seen ADD CONSTRAINT provider_reconcile_seen_kind_check CHECK (kind IN ('payment', 'refund', 'dispute'));
-- The Kudos side: disputes by the time they opened (those the provider
-- did not list), and the dispute events recorded and not applied yet (on
-- their way, not a difference).
CREATE INDEX disputes_opened_idx ON disputes (opened_at, id);
CREATE INDEX payment_events_dispute_idx ON payment_events ((dispute ->> 'id')) WHERE dispute IS NOT NULL AND applied_at IS NULL;

-- +goose Down
DROP INDEX payment_events_dispute_idx;
DROP INDEX disputes_opened_idx;
DELETE FROM provider_reconcile_seen WHERE kind = 'dispute';
ALTER TABLE provider_reconcile_seen DROP CONSTRAINT provider_reconcile_seen_kind_check;
ALTER TABLE provider_reconcile_seen ADD CONSTRAINT provider_reconcile_seen_kind_check CHECK (kind IN ('payment', 'refund'));
DROP TABLE sandbox_disputes;
