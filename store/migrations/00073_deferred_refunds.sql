-- +goose Up
-- A refund the provider refused for now (its balance is short) is a row,
-- not only workflow state: a run terminated (by ops, by a deletion) or
-- rebuilt from the read model finds it again, the reconciliation retries
-- those of accounts whose workflow has ended, and ops and the gauges see
-- it. retry_at is its next try; created_at its first refusal (the retry
-- schedule is measured from it).
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused', 'deferred'));
ALTER TABLE refunds ADD COLUMN retry_at timestamptz;
ALTER TABLE refunds ADD CONSTRAINT refunds_deferred_retry_at CHECK ((status = 'deferred') = (retry_at IS NOT NULL));
-- The reconciliation reads only the deferred refunds whose try is due.
CREATE INDEX refunds_deferred_idx ON refunds (retry_at) WHERE status = 'deferred';

-- +goose Down
DROP INDEX refunds_deferred_idx;
DELETE FROM refunds WHERE status = 'deferred';
ALTER TABLE refunds DROP CONSTRAINT refunds_deferred_retry_at;
ALTER TABLE refunds DROP COLUMN retry_at;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused'));
