-- +goose Up
-- Buyer snapshot (issue 30): an invoice carries the buyer as it was when the
-- invoice got its number, and its PDF is drawn from these columns, never
-- from the live billing address, so a later edit of the address never
-- changes an issued invoice. NULL buyer_organization_name on a numbered
-- invoice: the account had no billing address then (made out to the owner's
-- e-mail only).
ALTER TABLE invoices
    ADD COLUMN buyer_organization_name text,
    ADD COLUMN buyer_street_and_number text,
    ADD COLUMN buyer_street_additional text,
    ADD COLUMN buyer_postal_code       text,
    ADD COLUMN buyer_city              text,
    ADD COLUMN buyer_region            text,
    ADD COLUMN buyer_country           text,
    ADD COLUMN buyer_vat_id            text;

-- Invoices numbered before this migration: the address as it is now is the
-- best record of it there is.
UPDATE invoices i SET buyer_organization_name = b.organization_name, buyer_street_and_number = b.street_and_number,
    buyer_street_additional = b.street_additional, buyer_postal_code = b.postal_code, buyer_city = b.city,
    buyer_region = b.region, buyer_country = b.country, buyer_vat_id = b.vat_id
FROM billing_addresses b WHERE b.account_id = i.account_id AND i.number IS NOT NULL;

-- +goose Down
ALTER TABLE invoices
    DROP COLUMN buyer_organization_name,
    DROP COLUMN buyer_street_and_number,
    DROP COLUMN buyer_street_additional,
    DROP COLUMN buyer_postal_code,
    DROP COLUMN buyer_city,
    DROP COLUMN buyer_region,
    DROP COLUMN buyer_country,
    DROP COLUMN buyer_vat_id;
