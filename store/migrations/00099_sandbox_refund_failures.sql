-- +goose Up
-- The sandbox plays a refund that fails at the provider after it was made
-- (POST /dev/sandbox/refund-failed): failed_at set, and its list of
-- refunds (what the provider reconciliation compares) leaves it out, as
-- Stripe's does.
ALTER TABLE sandbox_refunds ADD COLUMN failed_at timestamptz;

-- +goose Down
ALTER TABLE sandbox_refunds DROP COLUMN failed_at;
