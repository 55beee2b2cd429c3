-- +goose Up
-- Teams (issue 26): admins beside owners and members, exactly one owner per
-- account, invitations, the account a user opened last, and membership
-- events in the account's timeline.
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check;
ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'admin', 'member'));
CREATE UNIQUE INDEX memberships_one_owner_key ON memberships (account_id) WHERE role = 'owner';

-- The account the user opened last: sign-in opens it again.
ALTER TABLE users ADD COLUMN last_account_id uuid REFERENCES accounts (id) ON DELETE SET NULL;

-- An invitation to join an account. Its token is derived from a key that
-- only the outbox and the invitation workflow's history carry (like the
-- activation links of user_tokens): only its SHA-256 is kept here.
CREATE TABLE invitations (
    id          uuid PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Lowercased, as users.email.
    email       text        NOT NULL,
    role        text        NOT NULL CHECK (role IN ('admin', 'member')),
    token_hash  bytea       NOT NULL UNIQUE,
    invited_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
    status      text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'revoked', 'expired')),
    created_at  timestamptz NOT NULL,
    -- Renewed by a resend; past it the invitation takes no seat and cannot
    -- be accepted, whether or not its workflow has marked it expired yet.
    expires_at  timestamptz NOT NULL,
    accepted_by uuid        REFERENCES users (id) ON DELETE SET NULL,
    ended_at    timestamptz,
    CHECK ((status = 'pending') = (ended_at IS NULL))
);
-- One pending invitation per address and account.
CREATE UNIQUE INDEX invitations_pending_key ON invitations (account_id, lower(email)) WHERE status = 'pending';

-- A Google sign-up started from an invitation (the hash of its token): the
-- new user joins that account instead of getting a trial of their own.
ALTER TABLE oidc_flows ADD COLUMN invitation_hash bytea;

-- Membership events in the timeline: who they concern, the role, who acted.
ALTER TABLE billing_events
    ADD COLUMN member_email text,
    ADD COLUMN role         text CHECK (role IN ('owner', 'admin', 'member')),
    ADD COLUMN actor_email  text;
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred'));

-- +goose Down
DELETE FROM billing_events WHERE type IN ('member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed',
    'member_removed', 'member_left', 'ownership_transferred');
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund'));
ALTER TABLE billing_events DROP COLUMN actor_email, DROP COLUMN role, DROP COLUMN member_email;
ALTER TABLE oidc_flows DROP COLUMN invitation_hash;
DROP TABLE invitations;
ALTER TABLE users DROP COLUMN last_account_id;
DROP INDEX memberships_one_owner_key;
UPDATE memberships SET role = 'member' WHERE role = 'admin';
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check;
ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'member'));
