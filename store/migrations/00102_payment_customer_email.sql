-- +goose Up
-- The e-mail address last sent to the provider's customer (Stripe mails
-- its customer itself: SEPA mandate and pre-debit notices, receipts). The
-- Stripe adapter updates the customer when the account's owner has
-- another address now (an ownership transfer, a changed e-mail); NULL:
-- not known, updated at the next checkout or renewal charge.
ALTER TABLE payment_customers ADD COLUMN email text;

-- +goose Down
ALTER TABLE payment_customers DROP COLUMN email;
