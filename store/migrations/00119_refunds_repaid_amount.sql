-- +goose Up
-- What of a refund made again repays the failed refunds of its payment
-- (refunds.repays names the oldest): the rest of its amount is a refund of
-- its own, with its own credit note, and is owed in turn if it fails too.
-- Before, a failed refund that repaid was never owed itself, so what it
-- credited beyond what it repaid was lost. A constant default: no rewrite
-- under the ACCESS EXCLUSIVE lock, not waited for behind a long
-- transaction. 00120 fills it in for the rows before, apart from this lock.
SET LOCAL lock_timeout = '5s';
ALTER TABLE refunds ADD COLUMN repaid_amount bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE refunds DROP COLUMN repaid_amount;
