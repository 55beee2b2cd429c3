-- +goose Up
-- Issue 40: an outbox entry keeps the trace context (W3C traceparent) of
-- the work that wrote it, so that the relay's delivery continues that
-- trace; a payment event keeps the id of the trace it came in with, which
-- `kudos ops account` prints beside it (docs/runbook-payments.md, "Find a
-- payment's trace"). Both are empty for entries and events from before, or
-- written outside any trace.
ALTER TABLE outbox ADD COLUMN trace_context text NOT NULL DEFAULT '';
ALTER TABLE payment_events ADD COLUMN trace_id text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE payment_events DROP COLUMN trace_id;
ALTER TABLE outbox DROP COLUMN trace_context;
