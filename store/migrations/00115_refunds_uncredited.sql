-- +goose Up
-- The part of a refund paid out beyond what its invoice had left to credit
-- (the invoice's total less all its credit notes): money out with no
-- credit note. Kudos never asks for such a refund (an operator's is
-- capped), but one made in the provider's dashboard cannot be refused: it
-- is booked as made, its credit note credits what was left, and this
-- records the rest for an operator (kudos_refunds_uncredited, `kudos ops
-- account`). A refund that repays a failed one is not uncredited for what
-- it repays (that refund's credit note stands for it).
ALTER TABLE refunds ADD COLUMN uncredited bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT refunds_uncredited CHECK (uncredited >= 0 AND uncredited <= amount);
CREATE INDEX refunds_uncredited_idx ON refunds (created_at) WHERE uncredited > 0;

-- +goose Down
DROP INDEX refunds_uncredited_idx;
ALTER TABLE refunds DROP CONSTRAINT refunds_uncredited, DROP COLUMN uncredited;
