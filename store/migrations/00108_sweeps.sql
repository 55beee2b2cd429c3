-- +goose Up
-- When each periodic sweep last walked its last page (the subscription
-- sweep: "subscriptions"), read by the gauge
-- kudos_subscriptions_reconciled_age_seconds: a sweep that fails at every
-- beat, or never reaches its end, is seen.
CREATE TABLE sweeps (
    name        text PRIMARY KEY,
    finished_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE sweeps;
