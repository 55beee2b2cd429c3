-- +goose Up
-- Data exports (issue 28, GDPR art. 15 and 20): a ZIP of a user's data, or
-- of an account's (its owner asks), built by the durable workflow
-- export:<id>, kept in object storage until expires_at, then deleted by the
-- workflow's timer. The row is what the api shows; the object key is set
-- once the file is stored.
CREATE TABLE data_exports (
    id           uuid PRIMARY KEY,
    -- Who asked; only they can read it and download the file.
    user_id      uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The account exported (an account export), or NULL (the user's own data).
    account_id   uuid        REFERENCES accounts (id) ON DELETE CASCADE,
    status       text        NOT NULL DEFAULT 'preparing' CHECK (status IN ('preparing', 'ready', 'expired')),
    object_key   text,
    size_bytes   bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    ready_at     timestamptz,
    expires_at   timestamptz
);
-- One export in preparation at a time per user (and per account for an
-- account's export): asking again answers the one being prepared.
CREATE UNIQUE INDEX data_exports_one_preparing_user ON data_exports (user_id) WHERE status = 'preparing' AND account_id IS NULL;
CREATE UNIQUE INDEX data_exports_one_preparing_account ON data_exports (account_id) WHERE status = 'preparing' AND account_id IS NOT NULL;
CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC);

-- +goose Down
DROP TABLE data_exports;
