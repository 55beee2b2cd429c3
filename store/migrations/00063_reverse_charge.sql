-- +goose Up
-- Reverse charge (issue 30): an invoice to a business with a verified VAT id
-- in another EU member state than the seller's has 0 % VAT and the legal
-- mention of art. 196 VAT Directive. The flag is decided when the invoice is
-- priced (with its rate, by kudos.VATRateFor) and never changes afterwards;
-- a credit note takes its invoice's. A checkout keeps it with its price, so
-- that an invoice billed again at the checkout's price keeps it too.
ALTER TABLE invoices ADD COLUMN reverse_charge boolean NOT NULL DEFAULT false;
ALTER TABLE checkouts ADD COLUMN reverse_charge boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE checkouts DROP COLUMN reverse_charge;
ALTER TABLE invoices DROP COLUMN reverse_charge;
