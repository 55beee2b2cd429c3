-- +goose Up
-- Issue 38 (items 1 and 2): a lower plan or fewer seats scheduled for the
-- renewal, the seats a Team plan bought beyond its own, the seats a seats
-- checkout buys up to, and invoices billing them on their own line.
ALTER TABLE subscriptions
    ADD COLUMN scheduled_plan text CHECK (scheduled_plan IN ('STARTER', 'PRO', 'TEAM')),
    ADD COLUMN scheduled_at timestamptz,
    ADD COLUMN extra_seats integer NOT NULL DEFAULT 0 CHECK (extra_seats >= 0),
    ADD COLUMN scheduled_extra_seats integer CHECK (scheduled_extra_seats >= 0);
ALTER TABLE checkouts ADD COLUMN extra_seats integer NOT NULL DEFAULT 0 CHECK (extra_seats >= 0),
    ADD COLUMN invoice_lines jsonb;
-- lines: the invoice's lines ([{kind, description, quantity, unit_net, net}]), NULL on
-- invoices of one line (the plan's: its description and net amount).
ALTER TABLE invoices ADD COLUMN lines jsonb;
ALTER TABLE invoices DROP CONSTRAINT invoices_kind_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check CHECK (kind IN ('SUBSCRIPTION', 'UPGRADE', 'RENEWAL', 'PAYMENTDUE', 'CREDIT_NOTE', 'SEATS'));

-- +goose Down
DELETE FROM invoices WHERE kind = 'SEATS';
ALTER TABLE invoices DROP CONSTRAINT invoices_kind_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check CHECK (kind IN ('SUBSCRIPTION', 'UPGRADE', 'RENEWAL', 'PAYMENTDUE', 'CREDIT_NOTE'));
ALTER TABLE invoices DROP COLUMN lines;
ALTER TABLE checkouts DROP COLUMN extra_seats, DROP COLUMN invoice_lines;
ALTER TABLE subscriptions DROP COLUMN scheduled_plan, DROP COLUMN scheduled_at, DROP COLUMN extra_seats,
    DROP COLUMN scheduled_extra_seats;
