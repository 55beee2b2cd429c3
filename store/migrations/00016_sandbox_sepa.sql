-- +goose Up
-- The development payment sandbox learns delayed payments (issue 25): Stripe's
-- SEPA Direct Debit test IBANs pay a checkout that stays "pending" until it
-- is settled (paid or failed, as the IBAN says), and a saved SEPA mandate's
-- off-session charges stay "processing" until settled; refunds can be
-- refused for now or for good (to try the refund follow-up).
ALTER TABLE sandbox_checkouts DROP CONSTRAINT sandbox_checkouts_status_check;
ALTER TABLE sandbox_checkouts ADD CONSTRAINT sandbox_checkouts_status_check
    CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled', 'pending'));
ALTER TABLE sandbox_checkouts ADD COLUMN settles_as text CHECK (settles_as IN ('paid', 'failed'));
ALTER TABLE sandbox_payment_methods ADD COLUMN method text NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'directdebit'));
ALTER TABLE sandbox_payment_methods DROP CONSTRAINT sandbox_payment_methods_off_session_check;
ALTER TABLE sandbox_payment_methods ADD CONSTRAINT sandbox_payment_methods_off_session_check
    CHECK (off_session IN ('succeed', 'decline', 'authenticate', 'pending_succeed', 'pending_fail'));
ALTER TABLE sandbox_charges ADD COLUMN settles_as text CHECK (settles_as IN ('paid', 'failed'));
CREATE TABLE sandbox_refund_refusals (
    account_id uuid PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('temporary', 'permanent'))
);

-- +goose Down
DROP TABLE sandbox_refund_refusals;
ALTER TABLE sandbox_charges DROP COLUMN settles_as;
ALTER TABLE sandbox_payment_methods DROP CONSTRAINT sandbox_payment_methods_off_session_check;
ALTER TABLE sandbox_payment_methods ADD CONSTRAINT sandbox_payment_methods_off_session_check
    CHECK (off_session IN ('succeed', 'decline', 'authenticate'));
ALTER TABLE sandbox_payment_methods DROP COLUMN method;
ALTER TABLE sandbox_checkouts DROP COLUMN settles_as;
ALTER TABLE sandbox_checkouts DROP CONSTRAINT sandbox_checkouts_status_check;
ALTER TABLE sandbox_checkouts ADD CONSTRAINT sandbox_checkouts_status_check
    CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled'));
