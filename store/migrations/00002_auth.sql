-- +goose Up
-- Single-use e-mailed tokens (activation, e-mail change, password reset):
-- only the SHA-256 of a token is kept.
CREATE TABLE user_tokens (
    hash       bytea PRIMARY KEY,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text        NOT NULL CHECK (purpose IN ('activation', 'password_reset')),
    new_email  text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);

-- Work for Temporal written in the same transaction as the change that
-- causes it, and delivered (workflow start or signal) by the relay; a row
-- that cannot be delivered stays and is retried.
CREATE TABLE outbox (
    id              bigserial PRIMARY KEY,
    key             text        NOT NULL UNIQUE,
    kind            text        NOT NULL,
    payload         jsonb       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    attempts        integer     NOT NULL DEFAULT 0,
    last_error      text,
    delivered_at    timestamptz
);
CREATE INDEX outbox_pending_idx ON outbox (next_attempt_at) WHERE delivered_at IS NULL;

-- Mails handed to SMTP, by request key: a retried send activity sends once.
CREATE TABLE sent_mails (
    key     text PRIMARY KEY,
    sent_at timestamptz NOT NULL DEFAULT now()
);

-- Google sign-in flows in progress: state (hashed), nonce and PKCE verifier,
-- bound to the flow, single-use, short-lived.
CREATE TABLE oidc_flows (
    state_hash          bytea PRIMARY KEY,
    scope               text        NOT NULL CHECK (scope IN ('signup', 'signin')),
    nonce               text        NOT NULL,
    verifier            text        NOT NULL,
    redirect_url        text        NOT NULL,
    opt_in_marketing    boolean     NOT NULL DEFAULT false,
    opt_in_terms_of_use boolean     NOT NULL DEFAULT false,
    preferred_language  text        NOT NULL DEFAULT 'en',
    expires_at          timestamptz NOT NULL
);

-- +goose Down
DROP TABLE oidc_flows;
DROP TABLE sent_mails;
DROP TABLE outbox;
DROP TABLE user_tokens;
