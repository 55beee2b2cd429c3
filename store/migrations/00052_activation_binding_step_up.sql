-- +goose Up
-- Issue 27 item 4: an activation link starts a session only in the browser
-- that signed up. That browser sent a random key with its sign-up (or its
-- Google sign-up's flow); only the key's SHA-256 is kept, with the flow and
-- then with the activation token.
ALTER TABLE user_tokens ADD COLUMN browser_hash bytea;
ALTER TABLE oidc_flows ADD COLUMN browser_hash bytea;

-- Issue 27 item 3: a user without a password re-authenticates with Google
-- (a step-up) before a sensitive change. The flow names the session that
-- started it; the session keeps when its step-up happened.
ALTER TABLE oidc_flows ADD COLUMN session_id uuid REFERENCES sessions (id) ON DELETE CASCADE;
ALTER TABLE oidc_flows DROP CONSTRAINT oidc_flows_scope_check;
ALTER TABLE oidc_flows ADD CONSTRAINT oidc_flows_scope_check CHECK (scope IN ('signup', 'signin', 'reauth'));
ALTER TABLE oidc_flows ADD CONSTRAINT oidc_flows_reauth_session CHECK ((scope = 'reauth') = (session_id IS NOT NULL));
ALTER TABLE sessions ADD COLUMN reauthenticated_at timestamptz;

-- +goose Down
ALTER TABLE sessions DROP COLUMN reauthenticated_at;
DELETE FROM oidc_flows WHERE scope = 'reauth';
ALTER TABLE oidc_flows DROP CONSTRAINT oidc_flows_reauth_session;
ALTER TABLE oidc_flows DROP CONSTRAINT oidc_flows_scope_check;
ALTER TABLE oidc_flows ADD CONSTRAINT oidc_flows_scope_check CHECK (scope IN ('signup', 'signin'));
ALTER TABLE oidc_flows DROP COLUMN session_id;
ALTER TABLE oidc_flows DROP COLUMN browser_hash;
ALTER TABLE user_tokens DROP COLUMN browser_hash;
