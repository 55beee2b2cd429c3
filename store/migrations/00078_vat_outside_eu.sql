-- +goose Up
-- Buyers outside the EU (issue 34, item 9). vat_outside_eu says why an
-- invoice to a buyer outside the EU bears no VAT: 'business' (a tax id:
-- supplied where it is established, art. 44 VAT Directive, outside the
-- scope of EU VAT) or 'consumer' (the seller is not registered for VAT in
-- the consumer's country, art. 58); NULL on any other invoice. seller_vat_id
-- is the seller's VAT registration outside the EU that a consumer's VAT is
-- charged under (KUDOS_VAT_REGISTRATIONS), printed on the invoice; NULL: the
-- seller's own. Decided with the rate when the invoice is priced
-- (kudos.DecideVAT) and never changed; a checkout keeps them with its price
-- (an invoice billed again at the checkout's price keeps them), a credit note
-- has its invoice's.
ALTER TABLE invoices
    ADD COLUMN vat_outside_eu text CHECK (vat_outside_eu IN ('business', 'consumer')),
    ADD COLUMN seller_vat_id  text,
    ADD CONSTRAINT invoices_outside_eu_rate_check CHECK (vat_outside_eu IS NULL OR (vat_rate = 0 AND NOT reverse_charge));
ALTER TABLE checkouts
    ADD COLUMN vat_outside_eu text CHECK (vat_outside_eu IN ('business', 'consumer')),
    ADD COLUMN seller_vat_id  text;

-- Tax ids outside the EU are no longer asked of VIES, which knows only the
-- member states' ids (it called them invalid, and VAT was charged): their
-- status is none, as new saves make it; a check still running for one finds
-- it no longer pending and writes nothing.
UPDATE billing_addresses SET vat_id_status = 'none'
WHERE vat_id <> '' AND right(country, 2) IN ('GB', 'CH', 'NO', 'IS') AND vat_id_status <> 'none';

-- +goose Down
ALTER TABLE checkouts DROP COLUMN vat_outside_eu, DROP COLUMN seller_vat_id;
ALTER TABLE invoices DROP COLUMN vat_outside_eu, DROP COLUMN seller_vat_id;
