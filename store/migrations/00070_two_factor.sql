-- +goose Up
-- Issue 29: two-factor sign-in. The tables of both second factors (TOTP
-- with its recovery codes, passkeys) and of the ceremonies that check them.

-- A user's TOTP secret, encrypted with KUDOS_MFA_KEY; confirmed once the
-- first code was given. last_step is the last accepted time step: a code
-- is accepted once (replay refused).
CREATE TABLE user_totp (
    user_id      uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret       bytea       NOT NULL,
    confirmed_at timestamptz,
    last_step    bigint      NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- Ten single-use recovery codes, shown once; only their hash is kept.
CREATE TABLE recovery_codes (
    id         uuid PRIMARY KEY,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  bytea       NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

-- A user's passkeys (WebAuthn credentials). credential is the library's
-- record of it (public key, sign count, flags, transports).
CREATE TABLE passkeys (
    id            uuid PRIMARY KEY,
    user_id       uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id bytea       NOT NULL UNIQUE,
    name          text        NOT NULL,
    credential    jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- The user handle a passkey carries (WebAuthn user.id): random, so it
-- tells nothing about the user.
ALTER TABLE users ADD COLUMN webauthn_handle bytea UNIQUE;

-- A sign-in that met its first factor and waits for the second: the
-- bearer of the challenge token (only its hash is kept) has 5 minutes
-- and a few tries.
CREATE TABLE mfa_challenges (
    id           uuid PRIMARY KEY,
    token_hash   bytea       NOT NULL UNIQUE,
    user_id      uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    first_factor text        NOT NULL CHECK (first_factor IN ('password', 'google')),
    attempts     int         NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE INDEX mfa_challenges_expires_idx ON mfa_challenges (expires_at);

-- A WebAuthn ceremony in progress (registration, passkey sign-in, a
-- passkey as second factor or step-up): the library's session data.
CREATE TABLE webauthn_ceremonies (
    id           uuid PRIMARY KEY,
    user_id      uuid REFERENCES users (id) ON DELETE CASCADE,
    purpose      text        NOT NULL CHECK (purpose IN ('register', 'signin', 'second_factor', 'step_up')),
    session_data jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE INDEX webauthn_ceremonies_expires_idx ON webauthn_ceremonies (expires_at);

-- How each session signed in, and when it last met a second factor for a
-- sensitive change (step-up).
ALTER TABLE sessions ADD COLUMN sign_in_method text CHECK (sign_in_method IN ('password', 'google', 'passkey', 'link'));
ALTER TABLE sessions ADD COLUMN second_factor text CHECK (second_factor IN ('totp', 'recovery_code', 'passkey'));
ALTER TABLE sessions ADD COLUMN second_factor_at timestamptz;

-- The owner's policy: everyone in the account signs in with a second factor.
ALTER TABLE accounts ADD COLUMN require_mfa boolean NOT NULL DEFAULT false;

-- The timeline's new events: a member's second factor added or removed and
-- the owner's policy (issues 29), a VAT id's check (issue 30).
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed', 'credit_note_issued',
    'second_factor_added', 'second_factor_removed', 'mfa_policy_changed', 'vat_id_checked'));

-- +goose Down
DELETE FROM billing_events WHERE type IN ('second_factor_added', 'second_factor_removed', 'mfa_policy_changed', 'vat_id_checked');
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed', 'credit_note_issued'));
ALTER TABLE accounts DROP COLUMN require_mfa;
ALTER TABLE sessions DROP COLUMN second_factor_at;
ALTER TABLE sessions DROP COLUMN second_factor;
ALTER TABLE sessions DROP COLUMN sign_in_method;
DROP TABLE webauthn_ceremonies;
DROP TABLE mfa_challenges;
ALTER TABLE users DROP COLUMN webauthn_handle;
DROP TABLE passkeys;
DROP TABLE recovery_codes;
DROP TABLE user_totp;
