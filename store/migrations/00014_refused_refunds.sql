-- +goose Up
-- A refund the provider refuses for good (a disputed charge, a closed
-- account) is recorded, not only logged: ops find it, a gauge counts it, and
-- a later successful refund of the same payment turns it into a refund.
ALTER TABLE refunds ADD COLUMN status text NOT NULL DEFAULT 'refunded' CHECK (status IN ('refunded', 'refused'));
CREATE INDEX refunds_refused_idx ON refunds (created_at) WHERE status = 'refused';

-- +goose Down
DROP INDEX refunds_refused_idx;
ALTER TABLE refunds DROP COLUMN status;
