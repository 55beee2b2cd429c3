-- +goose Up
-- What an upgrade or seats checkout was priced from: the plan it upgrades
-- from, the extra seats it adds to. A payment of it that arrives once the
-- checkout has closed (a late payment) is applied only if the account is
-- still there; priced from a plan or seats it no longer has (it upgraded
-- or bought seats otherwise meanwhile), it is refunded in full, never
-- applied "up to" its target with part of it paid twice.
ALTER TABLE checkouts ADD COLUMN from_plan text, ADD COLUMN from_extra_seats integer;

-- +goose Down
ALTER TABLE checkouts DROP COLUMN from_plan, DROP COLUMN from_extra_seats;
