-- +goose Up
-- Issue 39: the reconciliation's purge deletes in batches, each found by an
-- index rather than a scan of the table (sessions grow with the users: an
-- OR of three conditions is a BitmapOr of three indexes, one per arm).
CREATE INDEX sessions_revoked_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX sessions_last_seen_idx ON sessions (last_seen_at);
CREATE INDEX vat_answers_checked_idx ON vat_answers (checked_at);

-- +goose Down
DROP INDEX vat_answers_checked_idx;
DROP INDEX sessions_last_seen_idx;
DROP INDEX sessions_revoked_idx;
