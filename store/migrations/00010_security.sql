-- +goose Up
-- Rate limits shared by every api replica (issue 15): one token bucket per
-- limiter and key (the key is a hash: no e-mail address or client address is
-- kept in clear). A row whose bucket is full again is of no use and is swept.
CREATE TABLE rate_limits (
    key    text             PRIMARY KEY,
    tokens double precision NOT NULL,
    ok     boolean          NOT NULL,
    at     timestamptz      NOT NULL
);
CREATE INDEX rate_limits_at_idx ON rate_limits (at);

-- Signed-in devices: what the session list shows, and the idle timeout.
ALTER TABLE sessions
    ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN user_agent   text        NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sessions DROP COLUMN user_agent, DROP COLUMN last_seen_at;
DROP TABLE rate_limits;
