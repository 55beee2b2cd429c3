-- +goose Up
-- Users, accounts, memberships, subscriptions (read model) and sessions.
CREATE TABLE users (
    id                   uuid PRIMARY KEY,
    email                text        NOT NULL,
    firstname            text        NOT NULL,
    lastname             text        NOT NULL,
    password_hash        text        NOT NULL DEFAULT '',
    activated            boolean     NOT NULL DEFAULT false,
    preferred_language   text        NOT NULL DEFAULT 'en' CHECK (preferred_language IN ('en', 'nl', 'fr')),
    opt_in_notifications boolean     NOT NULL DEFAULT true,
    opt_in_marketing     boolean     NOT NULL DEFAULT false,
    opt_in_terms_of_use  boolean     NOT NULL DEFAULT false,
    social_login         boolean     NOT NULL DEFAULT false,
    oidc_issuer          text,
    oidc_subject         text,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
-- E-mail addresses are compared case-insensitively; the store keeps them lowercased.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_oidc_key ON users (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL;

CREATE TABLE accounts (
    id                     uuid PRIMARY KEY,
    name                   text        NOT NULL,
    img_url                text        NOT NULL DEFAULT '',
    testimonial_count      integer     NOT NULL DEFAULT 0,
    recording_spaces_count integer     NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       text        NOT NULL CHECK (role IN ('owner', 'member')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- The read model of the subscription workflow: activities write it, the api reads it.
CREATE TABLE subscriptions (
    account_id        uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    plan              text        NOT NULL CHECK (plan IN ('TRIAL', 'STARTER', 'PRO', 'TEAM')),
    show_status       text        NOT NULL CHECK (show_status IN ('active', 'trial_expired', 'plan_expired', 'processing')),
    show_onboarding   boolean     NOT NULL DEFAULT true,
    trials_left       integer     NOT NULL DEFAULT 0,
    plan_renewal_at   timestamptz,
    trial_expires_at  timestamptz,
    start_next_period boolean     NOT NULL DEFAULT false,
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- A session is the jti of a bearer token; revoking the row ends the token at once.
CREATE TABLE sessions (
    id         uuid PRIMARY KEY,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- +goose Down
DROP TABLE sessions;
DROP TABLE subscriptions;
DROP TABLE memberships;
DROP TABLE accounts;
DROP TABLE users;
