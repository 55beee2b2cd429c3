-- +goose Up
-- Issue 27 item 4: an activation link starts a session only in the browser
-- that signed up. That browser sent a random key with its sign-up (or its
-- Google sign-up's flow); only the key's SHA-256 is kept, with the flow and
-- then with the activation token.
ALTER TABLE user_tokens ADD COLUMN browser_hash bytea;
ALTER TABLE oidc_flows ADD COLUMN browser_hash bytea;

-- +goose Down
ALTER TABLE oidc_flows DROP COLUMN browser_hash;
ALTER TABLE user_tokens DROP COLUMN browser_hash;
