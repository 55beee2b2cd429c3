-- +goose Up
-- The payment that settled each paid invoice: the checkout, or the
-- renewal charge (its idempotency key). A refund credits an invoice only
-- when it gives back that payment; a duplicate payment's refund gets a
-- receipt and no credit note (the sale stands). Invoices paid before this
-- take the checkout that paid them, if one did (a waived invoice, or one
-- paid by a renewal charge, keeps none).
ALTER TABLE invoices ADD COLUMN paid_by text;
UPDATE invoices i SET paid_by = (SELECT c.id FROM checkouts c WHERE c.invoice_id = i.id AND c.account_id = i.account_id
    AND c.status IN ('paid', 'refunded') ORDER BY c.status = 'refunded', c.created_at LIMIT 1)
WHERE i.status = 'PAID';

-- +goose Down
ALTER TABLE invoices DROP COLUMN paid_by;
