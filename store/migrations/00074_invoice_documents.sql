-- +goose Up
-- A due invoice is a payment request (issue 34, item 5): a year the customer
-- declined (auto-renew off) or a renewal being retried (dunning) is billed
-- DUE_PAYMENT without a number, and takes the next gap-free number only
-- when it is paid (a number is a sale an accountant must account for; a
-- request that lapses would otherwise stay numbered, with its VAT, and never
-- be credited). An invoice PROCESSING still has no number, a PAID or
-- CREDITED one always has one. Due invoices numbered before this migration
-- keep their numbers.
ALTER TABLE invoices DROP CONSTRAINT invoices_check1;
ALTER TABLE invoices ADD CONSTRAINT invoices_number_check
    CHECK (CASE status WHEN 'PROCESSING' THEN number IS NULL WHEN 'DUE_PAYMENT' THEN true ELSE number IS NOT NULL END);

-- The service period (issue 34, item 11; Art. 226(7) VAT Directive: the
-- date of the supply): the period of the plan an invoice pays for, printed
-- on its PDF. A renewal's is known when it is billed (its renewal date to
-- the next), any other invoice's when it is paid (a plan starts, or an
-- upgrade applies, at its payment). NULL before then, and on invoices from
-- before this migration. A credit note shows its invoice's.
ALTER TABLE invoices
    ADD COLUMN service_from timestamptz,
    ADD COLUMN service_to   timestamptz,
    ADD CONSTRAINT invoices_service_period_check CHECK ((service_from IS NULL) = (service_to IS NULL) AND service_from <= service_to);

-- +goose Down
ALTER TABLE invoices DROP COLUMN service_from, DROP COLUMN service_to;
ALTER TABLE invoices DROP CONSTRAINT invoices_number_check;
-- NOT VALID: due invoices left unnumbered meanwhile keep no number.
ALTER TABLE invoices ADD CONSTRAINT invoices_check1 CHECK ((number IS NULL) = (status = 'PROCESSING')) NOT VALID;
