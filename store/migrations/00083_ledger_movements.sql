-- +goose Up
-- Issue 36 item 1: provider events of money that moved outside a hosted
-- checkout (an off-session charge that settled or failed, a refund made
-- by ops or in the provider's dashboard) are stored like checkout events,
-- with what they say of the movement: the reconciliation delivers an
-- unapplied one again as it came. Checkout events keep movement ''.
ALTER TABLE payment_events
    ADD COLUMN movement           text NOT NULL DEFAULT '',
    ADD COLUMN charge_id          text NOT NULL DEFAULT '',
    ADD COLUMN payment_id         text NOT NULL DEFAULT '',
    ADD COLUMN refund_id          text NOT NULL DEFAULT '',
    ADD COLUMN provider_refund_id text NOT NULL DEFAULT '',
    ADD COLUMN invoice_id         uuid,
    ADD COLUMN amount             bigint,
    ADD COLUMN currency           text,
    ADD COLUMN reason             text NOT NULL DEFAULT '';
-- Several refunds (partial ones) of one payment: the payment's refunds
-- are summed (never more than was paid), and a refund is found again by
-- the provider's id when its event comes after ops booked it.
CREATE INDEX refunds_payment_idx ON refunds (checkout_id);
CREATE INDEX refunds_provider_idx ON refunds (provider_id) WHERE provider_id <> '';

-- +goose Down
DROP INDEX refunds_provider_idx;
DROP INDEX refunds_payment_idx;
ALTER TABLE payment_events DROP COLUMN movement, DROP COLUMN charge_id, DROP COLUMN payment_id, DROP COLUMN refund_id,
    DROP COLUMN provider_refund_id, DROP COLUMN invoice_id, DROP COLUMN amount, DROP COLUMN currency, DROP COLUMN reason;
