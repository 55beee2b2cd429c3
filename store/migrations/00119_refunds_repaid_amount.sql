-- +goose Up
-- What of a refund made again repays the failed refunds of its payment
-- (refunds.repays names the oldest): the rest of its amount is a refund of
-- its own, with its own credit note, and is owed in turn if it fails too.
-- Before, a failed refund that repaid was never owed itself, so what it
-- credited beyond what it repaid was lost. A constant default: no rewrite
-- under the ACCESS EXCLUSIVE lock, not waited for behind a long
-- transaction.
SET LOCAL lock_timeout = '5s';
ALTER TABLE refunds ADD COLUMN repaid_amount bigint NOT NULL DEFAULT 0;
-- The refunds made again before it repaid what they did not credit of
-- their own (their amount less their credit note and what they paid out
-- beyond it); one that credited nothing repaid all of it, as it was read
-- before. Only the rows that repay: a few.
UPDATE refunds f SET repaid_amount = greatest(0, f.amount - f.uncredited - COALESCE((SELECT -cn.total_amount FROM invoices cn
	WHERE cn.account_id = f.account_id AND cn.refund_id = f.id AND cn.kind = 'CREDIT_NOTE'), 0))
WHERE f.repays IS NOT NULL;

-- +goose Down
ALTER TABLE refunds DROP COLUMN repaid_amount;
