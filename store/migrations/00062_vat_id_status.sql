-- +goose Up
-- VAT-id check (issue 30): how far the billing address's VAT id has been
-- checked against VIES. none: no VAT id; pending: VIES was unavailable and
-- the account's vatcheck workflow asks again; verified / invalid: VIES's
-- answer. A check's result is written only while the address still has the
-- id and version it was started for (a later save supersedes it).
ALTER TABLE billing_addresses ADD COLUMN vat_id_status text NOT NULL DEFAULT 'none'
    CHECK (vat_id_status IN ('none', 'pending', 'verified', 'invalid'));

-- Ids saved before checks existed are checked now: pending, with the start
-- of their check queued in the outbox (dispatch.VATCheckStart's entry).
UPDATE billing_addresses SET vat_id_status = 'pending' WHERE vat_id <> '';
INSERT INTO outbox (key, kind, workflow_id, payload)
SELECT 'vat_check:' || account_id || ':' || version, 'vat_check_start', 'vatcheck:' || account_id,
       jsonb_build_object('AccountID', account_id, 'Country', country, 'VATID', vat_id, 'Version', version)
FROM billing_addresses WHERE vat_id <> ''
ON CONFLICT (key) DO NOTHING;

-- +goose Down
DELETE FROM outbox WHERE kind = 'vat_check_start';
ALTER TABLE billing_addresses DROP COLUMN vat_id_status;
