-- +goose Up
-- Dunning: a failed renewal charge is retried on a schedule while the plan
-- stays active. The subscription row shows the next attempt and the payment
-- being retried (its DUE_PAYMENT invoice and amount with VAT).
ALTER TABLE subscriptions
    ADD COLUMN payment_retry_at timestamptz,
    ADD COLUMN failed_invoice_id uuid REFERENCES invoices (id),
    ADD COLUMN failed_amount bigint,
    ADD COLUMN failed_currency text,
    ADD CONSTRAINT subscriptions_failed_payment_check CHECK (
        (failed_invoice_id IS NULL) = (failed_amount IS NULL) AND (failed_amount IS NULL) = (failed_currency IS NULL)
        AND (payment_retry_at IS NULL OR failed_invoice_id IS NOT NULL));

-- +goose Down
ALTER TABLE subscriptions
    DROP CONSTRAINT subscriptions_failed_payment_check,
    DROP COLUMN failed_currency,
    DROP COLUMN failed_amount,
    DROP COLUMN failed_invoice_id,
    DROP COLUMN payment_retry_at;
