-- +goose Up
-- A failed refund that the return of its payment settled (settled_by_return:
-- the customer had the whole payment back) is owed again once its invoice
-- is paid again by another payment (dunning collected it, or the customer
-- paid it): the customer has paid the invoice's whole total again against
-- an invoice its credit note reduced. owed_from names the payment it is
-- owed from then (NULL: its own, checkout_id): `kudos ops refund --failed`
-- refunds it from there, against its credit note. No scan under the ACCESS
-- EXCLUSIVE lock (a nullable column without a default), not waited for
-- behind a long transaction.
SET LOCAL lock_timeout = '5s';
ALTER TABLE refunds ADD COLUMN owed_from text;
-- Those settled by a return whose invoice was paid again before this
-- release: owed again, as oweAgain makes them now (a few rows, row locks
-- only).
UPDATE refunds f SET status = 'failed', settled_by_return = NULL, owed_from = i.paid_by
FROM invoices cn JOIN invoices i ON i.id = cn.corrects
WHERE cn.refund_id = f.id AND cn.account_id = f.account_id AND f.status = 'settled_by_return'
    AND i.status = 'PAID' AND i.paid_by IS NOT NULL AND i.paid_by <> f.checkout_id;

-- +goose Down
UPDATE refunds f SET status = 'settled_by_return', settled_by_return = 'owed again before the down migration'
WHERE owed_from IS NOT NULL AND status = 'failed';
ALTER TABLE refunds DROP COLUMN owed_from;
