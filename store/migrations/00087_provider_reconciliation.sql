-- +goose Up
-- Issue 36 item 4: the daily provider reconciliation. Each run compares
-- the provider's lists created in [since, until) with Kudos's ledger; the
-- next run starts at the last finished run's until (the cursor). A run
-- that stops half way (a worker lost) is resumed by the next attempt, over
-- the same window. report is the run's workflows.ProviderReconcileReport;
-- drift the count of differences it could not repair (kudos_ledger_drift).
CREATE TABLE provider_reconciliations (
    id          bigserial PRIMARY KEY,
    provider    text        NOT NULL,
    since       timestamptz NOT NULL,
    until       timestamptz NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    drift       integer     NOT NULL DEFAULT 0,
    report      jsonb
);
CREATE UNIQUE INDEX provider_reconciliations_open_idx ON provider_reconciliations (provider) WHERE finished_at IS NULL;
CREATE INDEX provider_reconciliations_finished_idx ON provider_reconciliations (provider, finished_at DESC) WHERE finished_at IS NOT NULL;

-- What the provider listed during a run (payments and refunds by their
-- provider id), so that Kudos's side is compared against it in Postgres,
-- a page at a time, never held in memory. Rows of finished runs are
-- deleted when the run finishes.
CREATE TABLE provider_reconcile_seen (
    run_id    bigint NOT NULL REFERENCES provider_reconciliations (id) ON DELETE CASCADE,
    kind      text   NOT NULL CHECK (kind IN ('payment', 'refund')),
    reference text   NOT NULL,
    PRIMARY KEY (run_id, kind, reference)
);

-- The events the payment sandbox emitted (its "GET /v1/events"), each
-- delivered to the intake when emitted; a lost delivery (fault tests) is
-- found here by the provider reconciliation. event is the payment event
-- as the intake received it (kudos.PaymentEvent as JSON, whatever its
-- kind), so that replaying it gives the intake the same.
CREATE TABLE sandbox_events (
    id         text PRIMARY KEY,
    type       text        NOT NULL,
    account_id uuid        NOT NULL,
    event      jsonb       NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_events_created_idx ON sandbox_events (created_at, id);
CREATE INDEX sandbox_checkouts_created_idx ON sandbox_checkouts (created_at, id);
CREATE INDEX sandbox_charges_created_idx ON sandbox_charges (created_at, charge_id);
CREATE INDEX sandbox_refunds_created_idx ON sandbox_refunds (created_at, id);
-- The Kudos side of the comparison: payments by their reference, refunds
-- by the provider's id, both by time.
CREATE INDEX invoices_paid_by_idx ON invoices (paid_by) WHERE paid_by IS NOT NULL;
CREATE INDEX invoices_paid_at_idx ON invoices (paid_at) WHERE paid_by IS NOT NULL;
CREATE INDEX refunds_provider_id_idx ON refunds (provider_id) WHERE provider_id <> '';
CREATE INDEX refunds_created_idx ON refunds (created_at) WHERE status = 'refunded';
CREATE INDEX payment_events_checkout_idx ON payment_events (checkout_id);

-- +goose Down
DROP INDEX payment_events_checkout_idx;
DROP INDEX refunds_created_idx;
DROP INDEX refunds_provider_id_idx;
DROP INDEX invoices_paid_at_idx;
DROP INDEX invoices_paid_by_idx;
DROP INDEX sandbox_refunds_created_idx;
DROP INDEX sandbox_charges_created_idx;
DROP INDEX sandbox_checkouts_created_idx;
DROP TABLE sandbox_events;
DROP TABLE provider_reconcile_seen;
DROP TABLE provider_reconciliations;
