-- +goose Up
-- A refund that failed at the provider (owed to the customer, its credit
-- note standing) is settled by a lost dispute of the same payment for what
-- the card network gave the customer back beyond what the dispute's own
-- credit note credits: that money repays the failed refund. settled_by
-- names the dispute, settled_amount is how much of the refund it settled;
-- settled in full, the refund is settled_by_dispute (no longer owed, not
-- counted by kudos_refunds_failed); in part, it stays failed, owed the rest.
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
    CHECK (status IN ('refunded', 'refused', 'deferred', 'failed', 'settled_by_dispute'));
ALTER TABLE refunds
    ADD COLUMN settled_by     text REFERENCES disputes (id),
    ADD COLUMN settled_amount bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT refunds_settled_by_dispute CHECK ((settled_amount > 0) = (settled_by IS NOT NULL)
        AND (status <> 'settled_by_dispute' OR settled_amount > 0));

-- +goose Down
UPDATE refunds SET status = 'failed' WHERE status = 'settled_by_dispute';
ALTER TABLE refunds DROP CONSTRAINT refunds_settled_by_dispute, DROP COLUMN settled_by, DROP COLUMN settled_amount;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused', 'deferred', 'failed'));
