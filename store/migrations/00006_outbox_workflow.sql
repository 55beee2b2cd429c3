-- +goose Up
-- Each outbox entry names the workflow it goes to, so that the relay keeps
-- the entries of one workflow in order without reading ids out of payloads.
ALTER TABLE outbox ADD COLUMN workflow_id text NOT NULL DEFAULT '';
UPDATE outbox SET workflow_id = CASE kind
    WHEN 'payment_event' THEN 'subscription:' || (payload ->> 'account_id')
    WHEN 'subscription_start' THEN 'subscription:' || (payload ->> 'account_id')
    WHEN 'logo_start' THEN 'logo:' || (payload ->> 'account_id')
    WHEN 'mail' THEN 'email:' || (payload ->> 'purpose') || ':' || (payload ->> 'key')
    ELSE key END;
CREATE INDEX outbox_workflow_pending_idx ON outbox (workflow_id, id) WHERE delivered_at IS NULL;

-- +goose Down
DROP INDEX outbox_workflow_pending_idx;
ALTER TABLE outbox DROP COLUMN workflow_id;
