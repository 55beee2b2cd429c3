-- +goose Up
-- 00116's checks, validated in a transaction of their own: VALIDATE
-- CONSTRAINT scans refunds under SHARE UPDATE EXCLUSIVE only (reads and
-- writes go on), never under 00116's ACCESS EXCLUSIVE lock.
ALTER TABLE refunds VALIDATE CONSTRAINT refunds_status_check;
ALTER TABLE refunds VALIDATE CONSTRAINT refunds_settled_by_return;
-- The failed refunds still owed of a payment whose return was booked before
-- this release: settled by that return, as settleByReturn settles them now
-- (a few rows, row locks only).
UPDATE refunds f SET status = 'settled_by_return', settled_by_return = r.return_id
FROM (SELECT DISTINCT ON (account_id, returned->>'payment') account_id, returned->>'payment' AS payment,
        COALESCE(NULLIF(returned->>'id', ''), event_id) AS return_id
    FROM payment_events WHERE returned IS NOT NULL AND (booked IS NOT NULL OR applied_at IS NOT NULL)
    ORDER BY account_id, returned->>'payment', received_at) r
WHERE f.account_id = r.account_id AND f.checkout_id = r.payment AND f.status = 'failed' AND f.repays IS NULL
    AND f.amount - f.settled_amount > COALESCE((SELECT sum(p.amount) FROM refunds p WHERE p.account_id = f.account_id
        AND p.repays = f.id AND p.status = 'refunded'), 0);

-- +goose Down
