-- +goose Up
-- An address a user left may be taken by someone else (a sign-up, an
-- e-mail change), and one they took may have been someone else's before:
-- the user's erasure scrubs such an address only in the rows written while
-- it was theirs (store.EraseUser, stintsSQL). A stint ends at replaced_at
-- and began at the one before (or at the sign-up): a user who leaves the
-- same address twice keeps a row for each, and the erasure finds the
-- other holders of an address through its index.
ALTER TABLE user_former_emails DROP CONSTRAINT user_former_emails_pkey,
    ADD PRIMARY KEY (user_id, email, replaced_at);
CREATE INDEX user_former_emails_email_idx ON user_former_emails (email);

-- +goose Down
DROP INDEX user_former_emails_email_idx;
DELETE FROM user_former_emails f USING user_former_emails e
    WHERE e.user_id = f.user_id AND e.email = f.email AND e.replaced_at < f.replaced_at;
ALTER TABLE user_former_emails DROP CONSTRAINT user_former_emails_pkey,
    ADD PRIMARY KEY (user_id, email);
