-- +goose Up
-- Quotes (issue 34): the buyer and the VAT decided for them are taken
-- together, once, when an invoice is priced (a checkout opens, a renewal
-- is charged, a due invoice is made), and carried by the checkout, its
-- invoice and any credit note. An invoice with quoted_at keeps the buyer
-- it was priced for when it is numbered (no second snapshot); one without
-- (priced before this migration) is snapshotted at numbering as before.
-- A checkout keeps its quote's buyer with its price, so that an invoice
-- billed again at the checkout's price is made out to the same buyer, and
-- so that a change of the billing address can be told from its quote
-- (the open checkout is then closed).
ALTER TABLE invoices ADD COLUMN quoted_at timestamptz;
ALTER TABLE checkouts
    ADD COLUMN quoted                  boolean NOT NULL DEFAULT false,
    ADD COLUMN buyer_organization_name text,
    ADD COLUMN buyer_street_and_number text,
    ADD COLUMN buyer_street_additional text,
    ADD COLUMN buyer_postal_code       text,
    ADD COLUMN buyer_city              text,
    ADD COLUMN buyer_region            text,
    ADD COLUMN buyer_country           text,
    ADD COLUMN buyer_vat_id            text;

-- +goose Down
ALTER TABLE checkouts
    DROP COLUMN quoted,
    DROP COLUMN buyer_organization_name,
    DROP COLUMN buyer_street_and_number,
    DROP COLUMN buyer_street_additional,
    DROP COLUMN buyer_postal_code,
    DROP COLUMN buyer_city,
    DROP COLUMN buyer_region,
    DROP COLUMN buyer_country,
    DROP COLUMN buyer_vat_id;
ALTER TABLE invoices DROP COLUMN quoted_at;
