-- +goose Up
-- Issue 36 item 3: disputes (chargebacks) and returned debits. A dispute
-- is booked once per provider dispute: opened, then won or lost (a
-- decision is never reopened). payment is the disputed payment by Kudos's
-- reference (an invoice's paid_by: the checkout, or the renewal charge's
-- key); invoice_id the invoice it paid (NULL: none). A lost dispute's
-- credit note names it (invoices.dispute_id) instead of a refund.
CREATE TABLE disputes (
    id          text PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    invoice_id  uuid        REFERENCES invoices (id),
    payment     text        NOT NULL,
    amount      bigint      NOT NULL,
    currency    text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('open', 'won', 'lost')),
    reason      text        NOT NULL DEFAULT '',
    opened_at   timestamptz NOT NULL,
    closed_at   timestamptz,
    CHECK ((status = 'open') = (closed_at IS NULL))
);
-- A dispute's or a returned debit's event keeps what it says, so that a
-- run rebuilt from the read model applies it as it came.
ALTER TABLE payment_events ADD COLUMN dispute jsonb, ADD COLUMN returned jsonb;

CREATE INDEX disputes_account_idx ON disputes (account_id, opened_at DESC);
CREATE INDEX disputes_open_idx ON disputes (opened_at) WHERE status = 'open';

ALTER TABLE invoices ADD COLUMN dispute_id text UNIQUE REFERENCES disputes (id);
ALTER TABLE invoices DROP CONSTRAINT invoices_document_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_document_check CHECK (CASE WHEN kind = 'CREDIT_NOTE'
    THEN net_amount <= 0 AND vat_amount <= 0 AND corrects IS NOT NULL AND (refund_id IS NOT NULL) <> (dispute_id IS NOT NULL)
        AND status = 'CREDITED'
    ELSE net_amount >= 0 AND vat_amount >= 0 AND corrects IS NULL AND refund_id IS NULL AND dispute_id IS NULL
        AND status <> 'CREDITED' END);

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
    'second_factor_added', 'second_factor_removed', 'mfa_policy_changed', 'vat_id_checked',
    'dispute_opened', 'dispute_won', 'dispute_lost', 'payment_returned'));

-- +goose Down
DELETE FROM billing_events WHERE type IN ('dispute_opened', 'dispute_won', 'dispute_lost', 'payment_returned');
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
DELETE FROM invoices WHERE dispute_id IS NOT NULL;
ALTER TABLE invoices DROP CONSTRAINT invoices_document_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_document_check CHECK (CASE WHEN kind = 'CREDIT_NOTE'
    THEN net_amount <= 0 AND vat_amount <= 0 AND corrects IS NOT NULL AND refund_id IS NOT NULL AND status = 'CREDITED'
    ELSE net_amount >= 0 AND vat_amount >= 0 AND corrects IS NULL AND refund_id IS NULL AND status <> 'CREDITED' END);
ALTER TABLE invoices DROP COLUMN dispute_id;
DROP TABLE disputes;
ALTER TABLE payment_events DROP COLUMN dispute, DROP COLUMN returned;
