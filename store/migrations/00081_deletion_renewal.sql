-- +goose Up
-- Issue 35 (item 7): scheduling an account's deletion stops its
-- auto-renewal; whether it was on is kept so that the cancel's dialog can
-- offer to turn it back on (and the cancel knows what "back" means).
ALTER TABLE accounts ADD COLUMN deletion_stopped_renewal boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE accounts DROP COLUMN deletion_stopped_renewal;
