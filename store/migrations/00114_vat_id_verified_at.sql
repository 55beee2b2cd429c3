-- +goose Up
-- When VIES last confirmed the VAT id of a verified billing address: an
-- invoice priced off-session (a renewal, a due invoice) asks VIES again
-- once it is older than kudos.VATRecheckAfter, since a reverse charge
-- relies on the id being valid at the supply. NULL for any other status,
-- and for ids verified before this column (their time is not known: the
-- next such invoice asks again).
ALTER TABLE billing_addresses ADD COLUMN vat_id_verified_at timestamptz;

-- +goose Down
ALTER TABLE billing_addresses DROP COLUMN vat_id_verified_at;
