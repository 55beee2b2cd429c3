-- +goose Up
-- The periodic purge (issue 27): a rate-limit bucket untouched for its whole
-- period is full again, as if absent, and is deleted from expires_at on;
-- expired sessions, mailed tokens and Google sign-in flows go too.
ALTER TABLE rate_limits ADD COLUMN expires_at timestamptz NOT NULL DEFAULT now() + interval '1 day';
DROP INDEX rate_limits_at_idx;
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
CREATE INDEX user_tokens_expires_idx ON user_tokens (expires_at);
CREATE INDEX oidc_flows_expires_idx ON oidc_flows (expires_at);
-- The stamp of an account's cached payment methods (PaymentMethodsStamp).
CREATE INDEX payment_events_account_idx ON payment_events (account_id, received_at);

-- +goose Down
DROP INDEX payment_events_account_idx;
DROP INDEX oidc_flows_expires_idx;
DROP INDEX user_tokens_expires_idx;
DROP INDEX sessions_expires_idx;
DROP INDEX rate_limits_expires_idx;
CREATE INDEX rate_limits_at_idx ON rate_limits (at);
ALTER TABLE rate_limits DROP COLUMN expires_at;
