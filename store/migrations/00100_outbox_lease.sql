-- +goose Up
-- Issue 39 (round 3): the relay leases the outbox rows it claims instead
-- of holding them locked in a transaction for their whole delivery, and
-- marks each row as soon as its own delivery ends. A leased row is being
-- delivered: no relay claims it (nor any later row of its workflow) until
-- it is marked or its lease runs out; a relay that dies mid-delivery
-- leaves its rows to be claimed again when their lease ends.
ALTER TABLE outbox ADD COLUMN leased_until timestamptz;

-- +goose Down
ALTER TABLE outbox DROP COLUMN leased_until;
