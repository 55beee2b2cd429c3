-- +goose Up
-- The addresses a user had before an e-mail change they confirmed: the
-- timeline, invitations and mails name a member by the address they had
-- then, and the user's erasure scrubs every one of them, not only the
-- last. Gone with the user.
CREATE TABLE user_former_emails (
    user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email       text        NOT NULL,
    replaced_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, email)
);

-- +goose Down
DROP TABLE user_former_emails;
