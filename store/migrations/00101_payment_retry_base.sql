-- +goose Up
-- What a renewal's dunning schedule is measured from when not the renewal
-- date: a charge that settled for days before it failed, or a debit that
-- came back (kudos.Dunning.RetryBase). Written by the subscription
-- workflow with the row, so that a run rebuilt from the read model keeps
-- the schedule; NULL when it is the renewal date or nothing is retried.
ALTER TABLE subscriptions ADD COLUMN payment_retry_base timestamptz,
    ADD CONSTRAINT subscriptions_retry_base_check CHECK (payment_retry_base IS NULL OR payment_retry_at IS NOT NULL);

-- +goose Down
ALTER TABLE subscriptions DROP COLUMN payment_retry_base;
