-- +goose Up
-- Erasing an account or a user finds the rows that name them through an
-- index (an erasure is one transaction under its activity's one-minute
-- timeout; a scan of each table grows with every account).
--
-- The timeline's and the invitations' addresses, matched in lower case.
CREATE INDEX billing_events_member_email_idx ON billing_events (lower(member_email)) WHERE member_email IS NOT NULL;
CREATE INDEX billing_events_actor_email_idx ON billing_events (lower(actor_email)) WHERE actor_email IS NOT NULL;
CREATE INDEX invitations_ended_email_idx ON invitations (lower(email)) WHERE status <> 'pending';
-- An account's invitations (only the pending ones had an index), those a
-- user sent or accepted (also what deleting the user's row sets to NULL).
CREATE INDEX invitations_account_idx ON invitations (account_id);
CREATE INDEX invitations_invited_by_idx ON invitations (invited_by) WHERE invited_by IS NOT NULL;
CREATE INDEX invitations_accepted_by_idx ON invitations (accepted_by) WHERE accepted_by IS NOT NULL;
-- An account's and a user's feature requests (the table had no index).
CREATE INDEX feature_requests_account_idx ON feature_requests (account_id);
CREATE INDEX feature_requests_user_idx ON feature_requests (user_id);
-- The users who last opened the account.
CREATE INDEX users_last_account_idx ON users (last_account_id) WHERE last_account_id IS NOT NULL;

-- An invoice's credit notes: issuing one adds up the earlier ones while the
-- invoice's row is locked, and deleting a dropped draft checks that none
-- corrects it (the foreign key).
CREATE INDEX invoices_corrects_idx ON invoices (corrects) WHERE corrects IS NOT NULL;

-- The purge's batches of mails sent past store.SentMailRetention.
CREATE INDEX sent_mails_sent_at_idx ON sent_mails (sent_at);

-- The drafts (pro-forma, payment request) stored for an account's
-- invoices, which print the buyer: the account's erasure deletes them.
CREATE TABLE invoice_drafts (
    key        text PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    stored_at  timestamptz NOT NULL
);
CREATE INDEX invoice_drafts_account_idx ON invoice_drafts (account_id);

-- +goose Down
DROP TABLE invoice_drafts;
DROP INDEX sent_mails_sent_at_idx;
DROP INDEX invoices_corrects_idx;
DROP INDEX users_last_account_idx;
DROP INDEX feature_requests_user_idx;
DROP INDEX feature_requests_account_idx;
DROP INDEX invitations_accepted_by_idx;
DROP INDEX invitations_invited_by_idx;
DROP INDEX invitations_account_idx;
DROP INDEX invitations_ended_email_idx;
DROP INDEX billing_events_actor_email_idx;
DROP INDEX billing_events_member_email_idx;
