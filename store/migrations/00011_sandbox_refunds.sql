-- +goose Up
-- Refunds the payment sandbox made, each apart from the charge it gives
-- back (the verification charge of a new payment method, SPEC §9).
CREATE TABLE sandbox_refunds (
    id         text PRIMARY KEY,
    charge_id  text        NOT NULL REFERENCES sandbox_charges (charge_id),
    amount     bigint      NOT NULL,
    currency   text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE sandbox_refunds;
