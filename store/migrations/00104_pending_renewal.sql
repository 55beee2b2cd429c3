-- +goose Up
-- The renewal charge the provider accepted and has not settled (a SEPA
-- debit processing), as the subscription workflow waits on it: a run
-- rebuilt from Postgres while it settles waits on it too, instead of
-- renewing again. NULL when none.
ALTER TABLE subscriptions ADD COLUMN pending_renewal jsonb;

-- +goose Down
ALTER TABLE subscriptions DROP COLUMN pending_renewal;
