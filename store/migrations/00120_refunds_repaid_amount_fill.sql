-- +goose Up
-- The refunds made again before 00119 repaid what they did not credit of
-- their own (their amount less their credit note and what they paid out
-- beyond it); one that credited nothing repaid all of it, as it was read
-- before. Apart from 00119's ACCESS EXCLUSIVE lock: readers of refunds
-- are not held while it scans.
SET LOCAL lock_timeout = '5s';
UPDATE refunds f SET repaid_amount = greatest(0, f.amount - f.uncredited - COALESCE((SELECT -cn.total_amount FROM invoices cn
	WHERE cn.account_id = f.account_id AND cn.refund_id = f.id AND cn.kind = 'CREDIT_NOTE'), 0))
WHERE f.repays IS NOT NULL;

-- +goose Down
SELECT 1;
