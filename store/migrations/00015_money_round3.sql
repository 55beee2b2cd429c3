-- +goose Up
-- Money, round 3 (issue 25).
-- A payment event is marked applied when the subscription workflow has
-- applied it (not only delivered to it): a run rebuilt from the read model,
-- and the reconciliation, deliver again the ones a lost run never applied.
-- Events stored before this were applied by the runs they were delivered
-- to; only those still waiting in the outbox are not.
ALTER TABLE payment_events ADD COLUMN applied_at timestamptz;
UPDATE payment_events e SET applied_at = e.received_at
    WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = 'payment_event:' || e.event_id AND o.delivered_at IS NULL);
CREATE INDEX payment_events_unapplied_idx ON payment_events (account_id, received_at) WHERE applied_at IS NULL;

-- A payment-method checkout is opened by the api, not by the workflow: the
-- reconciliation closes the abandoned ones past their expiry.
CREATE INDEX checkouts_open_idx ON checkouts (expires_at) WHERE status = 'open';

-- +goose Down
DROP INDEX checkouts_open_idx;
DROP INDEX payment_events_unapplied_idx;
ALTER TABLE payment_events DROP COLUMN applied_at;
