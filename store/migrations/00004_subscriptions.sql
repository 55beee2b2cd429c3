-- +goose Up
ALTER TABLE subscriptions ADD COLUMN period_started_at timestamptz;

-- Invoices are ours. A number is given when an invoice is finalised (PAID or
-- DUE_PAYMENT), from a per-year counter locked in the same transaction, so
-- numbers are unique and gap-free; an invoice still PROCESSING has none and
-- may be dropped if its checkout fails.
CREATE TABLE invoices (
    id           uuid PRIMARY KEY,
    account_id   uuid          NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    number       text UNIQUE,
    kind         text          NOT NULL CHECK (kind IN ('SUBSCRIPTION', 'UPGRADE', 'RENEWAL', 'PAYMENTDUE')),
    plan         text          NOT NULL,
    description  text          NOT NULL,
    net_amount   bigint        NOT NULL CHECK (net_amount >= 0),
    vat_amount   bigint        NOT NULL CHECK (vat_amount >= 0),
    vat_rate     numeric(5, 2) NOT NULL,
    total_amount bigint        NOT NULL CHECK (total_amount = net_amount + vat_amount),
    currency     text          NOT NULL,
    status       text          NOT NULL CHECK (status IN ('PAID', 'PROCESSING', 'DUE_PAYMENT')),
    created_at   timestamptz   NOT NULL DEFAULT now(),
    finalized_at timestamptz,
    paid_at      timestamptz,
    pdf_key      text,
    CHECK ((number IS NULL) = (status = 'PROCESSING'))
);
CREATE INDEX invoices_account_idx ON invoices (account_id, created_at DESC);

CREATE TABLE invoice_counters (
    year integer PRIMARY KEY,
    last integer NOT NULL
);

-- Hosted checkouts the subscription workflow opened (for ops: the workflow
-- state is the truth).
CREATE TABLE checkouts (
    id          text PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose     text        NOT NULL,
    plan        text,
    invoice_id  uuid REFERENCES invoices (id) ON DELETE SET NULL,
    provider    text        NOT NULL,
    provider_id text        NOT NULL,
    url         text        NOT NULL,
    status      text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'failed', 'expired')),
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkouts_account_idx ON checkouts (account_id, created_at DESC);

-- Payment events, verified and stored once by the provider's event id; the
-- outbox delivers each to the subscription workflow as a signal.
CREATE TABLE payment_events (
    event_id    text PRIMARY KEY,
    provider    text        NOT NULL,
    account_id  uuid        NOT NULL,
    checkout_id text        NOT NULL,
    outcome     text        NOT NULL,
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);

-- One Stripe customer per account.
CREATE TABLE payment_customers (
    account_id  uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    provider    text NOT NULL,
    customer_id text NOT NULL
);

-- The development payment sandbox (ARCHITECTURE §3): its hosted checkouts,
-- saved cards and charges.
CREATE TABLE sandbox_checkouts (
    id          text PRIMARY KEY,
    checkout_id text        NOT NULL UNIQUE,
    account_id  uuid        NOT NULL,
    purpose     text        NOT NULL,
    description text        NOT NULL,
    amount      bigint      NOT NULL,
    currency    text        NOT NULL,
    status      text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'failed', 'expired')),
    success_url text        NOT NULL,
    cancel_url  text        NOT NULL,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_payment_methods (
    id         text PRIMARY KEY,
    account_id uuid        NOT NULL,
    brand      text        NOT NULL,
    last4      text        NOT NULL,
    exp_month  integer     NOT NULL,
    exp_year   integer     NOT NULL,
    is_default boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_payment_methods_account_idx ON sandbox_payment_methods (account_id);
CREATE TABLE sandbox_charges (
    charge_id  text PRIMARY KEY,
    account_id uuid        NOT NULL,
    amount     bigint      NOT NULL,
    currency   text        NOT NULL,
    paid       boolean     NOT NULL,
    refunded   boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- Accounts whose off-session charges the sandbox declines (fault tests).
CREATE TABLE sandbox_declines (
    account_id uuid PRIMARY KEY
);

-- +goose Down
DROP TABLE sandbox_declines;
DROP TABLE sandbox_charges;
DROP TABLE sandbox_payment_methods;
DROP TABLE sandbox_checkouts;
DROP TABLE payment_customers;
DROP TABLE payment_events;
DROP TABLE checkouts;
DROP TABLE invoice_counters;
DROP TABLE invoices;
ALTER TABLE subscriptions DROP COLUMN period_started_at;
