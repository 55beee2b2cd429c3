-- +goose Up
-- A checkout keeps the price it was opened at, so that a payment arriving
-- after it closed is billed on the same invoice (or refunded in full).
ALTER TABLE checkouts ADD COLUMN invoice_kind text;
ALTER TABLE checkouts ADD COLUMN net_amount bigint;
ALTER TABLE checkouts ADD COLUMN vat_amount bigint;
ALTER TABLE checkouts ADD COLUMN vat_rate numeric(5, 2);
ALTER TABLE checkouts ADD COLUMN total_amount bigint;
ALTER TABLE checkouts ADD COLUMN currency text;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check
    CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled', 'refunded'));
-- The invoice a checkout bills is dropped when the checkout closes unpaid
-- and made again if its payment comes late: the checkout keeps its id.
ALTER TABLE checkouts DROP CONSTRAINT checkouts_invoice_id_fkey;

-- Payments given back: a late payment for something already paid otherwise.
CREATE TABLE refunds (
    id          text PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    checkout_id text        NOT NULL,
    amount      bigint      NOT NULL,
    currency    text        NOT NULL,
    provider_id text        NOT NULL,
    reason      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_account_idx ON refunds (account_id, created_at DESC);

-- +goose Down
DROP TABLE refunds;
UPDATE checkouts SET invoice_id = NULL WHERE invoice_id NOT IN (SELECT id FROM invoices);
ALTER TABLE checkouts ADD CONSTRAINT checkouts_invoice_id_fkey FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON DELETE SET NULL;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled'));
ALTER TABLE checkouts DROP COLUMN currency;
ALTER TABLE checkouts DROP COLUMN total_amount;
ALTER TABLE checkouts DROP COLUMN vat_rate;
ALTER TABLE checkouts DROP COLUMN vat_amount;
ALTER TABLE checkouts DROP COLUMN net_amount;
ALTER TABLE checkouts DROP COLUMN invoice_kind;
