-- +goose Up
-- A refund that failed at the provider (owed to the customer, its credit
-- note standing) of a payment the bank returned (a SEPA debit taken back
-- after it succeeded), before or after the failure, is owed no more: the
-- return gave the customer the whole payment back, and a refund made again
-- would pay it out twice (Stripe refunds no returned charge). The row turns
-- settled_by_return; settled_by_return names the return (the provider's
-- object that announced it, payment_events.returned->>'id'). Not counted by
-- kudos_refunds_failed; `kudos ops refund --failed` refuses it.
-- No scan under the ACCESS EXCLUSIVE lock: the column is nullable without
-- a default and the checks are added NOT VALID (00117 validates them under
-- SHARE UPDATE EXCLUSIVE: reads and writes go on); the lock is not waited
-- for behind a long transaction.
SET LOCAL lock_timeout = '5s';
ALTER TABLE refunds ADD COLUMN settled_by_return text,
    DROP CONSTRAINT refunds_status_check,
    ADD CONSTRAINT refunds_status_check
        CHECK (status IN ('refunded', 'refused', 'deferred', 'failed', 'settled_by_dispute', 'settled_by_return')) NOT VALID,
    ADD CONSTRAINT refunds_settled_by_return CHECK ((status = 'settled_by_return') = (settled_by_return IS NOT NULL)) NOT VALID;

-- +goose Down
UPDATE refunds SET status = 'failed' WHERE status = 'settled_by_return';
ALTER TABLE refunds DROP CONSTRAINT refunds_settled_by_return, DROP COLUMN settled_by_return,
    DROP CONSTRAINT refunds_status_check,
    ADD CONSTRAINT refunds_status_check CHECK (status IN ('refunded', 'refused', 'deferred', 'failed', 'settled_by_dispute'));
