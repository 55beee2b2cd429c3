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
-- release are left as they are: the runbook told operators to pay the
-- difference back by hand, and owing them again could pay it twice. The
-- runbook lists them for an operator to check.

-- +goose Down
UPDATE refunds f SET status = 'settled_by_return', settled_by_return = 'owed again before the down migration'
WHERE owed_from IS NOT NULL AND status = 'failed';
ALTER TABLE refunds DROP COLUMN owed_from;
