-- +goose Up
-- Credit notes (issue 30): every refund of an invoiced sale gets a credit
-- note, a row of invoices with kind CREDIT_NOTE and status CREDITED,
-- negative amounts, the invoice it corrects and the refund it documents
-- (one per refund: the refund's transaction creates it). Its number comes
-- from its own gap-free series KUD-CN-<year>-NNNNNN, kept in the same
-- counter table as the invoices' (one row per series and year).
ALTER TABLE invoice_counters ADD COLUMN series text NOT NULL DEFAULT 'KUD';
ALTER TABLE invoice_counters DROP CONSTRAINT invoice_counters_pkey;
ALTER TABLE invoice_counters ADD PRIMARY KEY (series, year);
ALTER TABLE invoice_counters ALTER COLUMN series DROP DEFAULT;

ALTER TABLE invoices
    ADD COLUMN corrects  uuid REFERENCES invoices (id),
    ADD COLUMN refund_id text UNIQUE REFERENCES refunds (id);
ALTER TABLE invoices DROP CONSTRAINT invoices_kind_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check
    CHECK (kind IN ('SUBSCRIPTION', 'UPGRADE', 'RENEWAL', 'PAYMENTDUE', 'CREDIT_NOTE'));
ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('PAID', 'PROCESSING', 'DUE_PAYMENT', 'CREDITED'));
ALTER TABLE invoices DROP CONSTRAINT invoices_net_amount_check;
ALTER TABLE invoices DROP CONSTRAINT invoices_vat_amount_check;
-- An invoice bills (amounts of zero or more); a credit note gives back
-- (zero or less), corrects an invoice, documents a refund and is CREDITED.
ALTER TABLE invoices ADD CONSTRAINT invoices_document_check CHECK (CASE WHEN kind = 'CREDIT_NOTE'
    THEN net_amount <= 0 AND vat_amount <= 0 AND corrects IS NOT NULL AND refund_id IS NOT NULL AND status = 'CREDITED'
    ELSE net_amount >= 0 AND vat_amount >= 0 AND corrects IS NULL AND refund_id IS NULL AND status <> 'CREDITED' END);

ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed', 'credit_note_issued'));

-- +goose Down
DELETE FROM billing_events WHERE type = 'credit_note_issued';
ALTER TABLE billing_events DROP CONSTRAINT billing_events_type_check;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_type_check CHECK (type IN (
    'trial_started', 'trial_reminder_sent', 'trial_expired', 'checkout_opened', 'checkout_cancelled',
    'checkout_expired', 'payment_succeeded', 'payment_failed', 'plan_started', 'plan_upgraded',
    'auto_renewal_stopped', 'auto_renewal_restarted', 'renewal_reminder_sent', 'renewal_succeeded',
    'renewal_failed', 'payment_retry_scheduled', 'plan_expired', 'payment_method_added',
    'payment_method_removed', 'refund',
    'member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
    'member_left', 'ownership_transferred',
    'deletion_scheduled', 'deletion_cancelled', 'deletion_completed'));
DELETE FROM invoices WHERE kind = 'CREDIT_NOTE';
ALTER TABLE invoices DROP CONSTRAINT invoices_document_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_net_amount_check CHECK (net_amount >= 0);
ALTER TABLE invoices ADD CONSTRAINT invoices_vat_amount_check CHECK (vat_amount >= 0);
ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('PAID', 'PROCESSING', 'DUE_PAYMENT'));
ALTER TABLE invoices DROP CONSTRAINT invoices_kind_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check CHECK (kind IN ('SUBSCRIPTION', 'UPGRADE', 'RENEWAL', 'PAYMENTDUE'));
ALTER TABLE invoices DROP COLUMN refund_id, DROP COLUMN corrects;
DELETE FROM invoice_counters WHERE series <> 'KUD';
ALTER TABLE invoice_counters DROP CONSTRAINT invoice_counters_pkey;
ALTER TABLE invoice_counters ADD PRIMARY KEY (year);
ALTER TABLE invoice_counters DROP COLUMN series;
