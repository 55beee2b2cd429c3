-- +goose Up
-- A customer who goes back from the hosted checkout cancels it at once.
ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled'));
ALTER TABLE sandbox_checkouts DROP CONSTRAINT sandbox_checkouts_status_check;
ALTER TABLE sandbox_checkouts ADD CONSTRAINT sandbox_checkouts_status_check CHECK (status IN ('open', 'paid', 'failed', 'expired', 'cancelled'));
-- The sandbox's saved cards behave as Stripe's test cards of the same number
-- do off-session (ARCHITECTURE §4): succeed, decline, or need authentication.
ALTER TABLE sandbox_payment_methods ADD COLUMN off_session text NOT NULL DEFAULT 'succeed'
    CHECK (off_session IN ('succeed', 'decline', 'authenticate'));
ALTER TABLE sandbox_charges ADD COLUMN failure_reason text;

-- +goose Down
ALTER TABLE sandbox_charges DROP COLUMN failure_reason;
ALTER TABLE sandbox_payment_methods DROP COLUMN off_session;
ALTER TABLE sandbox_checkouts DROP CONSTRAINT sandbox_checkouts_status_check;
ALTER TABLE sandbox_checkouts ADD CONSTRAINT sandbox_checkouts_status_check CHECK (status IN ('open', 'paid', 'failed', 'expired'));
ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check CHECK (status IN ('open', 'paid', 'failed', 'expired'));
