-- +goose Up
-- An entry whose delivery keeps failing for a reason other than Temporal
-- being away is parked as a dead letter (dead_at, with its last_error):
-- it no longer holds up its workflow's later entries, and ops see it.
ALTER TABLE outbox ADD COLUMN dead_at timestamptz;
DROP INDEX outbox_pending_idx;
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE delivered_at IS NULL AND dead_at IS NULL;
CREATE INDEX outbox_dead_idx ON outbox (dead_at) WHERE dead_at IS NOT NULL;
CREATE INDEX outbox_delivered_idx ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;

-- +goose Down
DROP INDEX outbox_delivered_idx;
DROP INDEX outbox_dead_idx;
DROP INDEX outbox_pending_idx;
CREATE INDEX outbox_pending_idx ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
ALTER TABLE outbox DROP COLUMN dead_at;
