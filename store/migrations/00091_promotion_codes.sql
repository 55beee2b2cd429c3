-- +goose Up
-- Issue 38 item 3: promotion codes. Ops create them (`kudos ops promo`);
-- a customer enters one on the plans page. A code is upper case (codes are
-- case-insensitive), takes either a percent or an amount off, for the first
-- payment (once), every payment (forever) or the first N yearly periods.
CREATE TABLE promotion_codes (
    code            text        PRIMARY KEY CHECK (code = upper(code)),
    percent_off     integer     CHECK (percent_off BETWEEN 1 AND 100),
    amount_off      bigint      CHECK (amount_off > 0),
    currency        text,
    duration        text        NOT NULL CHECK (duration IN ('once', 'forever', 'years')),
    duration_years  integer     NOT NULL DEFAULT 0 CHECK (duration_years >= 0),
    max_redemptions integer     CHECK (max_redemptions > 0),
    -- redeemed counts the checkouts holding a use: raised only by a
    -- conditional update (redeemed < max_redemptions), so that concurrent
    -- checkouts never take more uses than there are.
    redeemed        integer     NOT NULL DEFAULT 0 CHECK (redeemed >= 0),
    expires_at      timestamptz,
    plans           text[]      NOT NULL DEFAULT '{}',
    active          boolean     NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL,
    CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
    CHECK (amount_off IS NULL OR currency IS NOT NULL),
    CHECK ((duration = 'years') = (duration_years > 0)),
    CHECK (max_redemptions IS NULL OR redeemed <= max_redemptions)
);

-- A use of a code, held by the checkout it priced; a checkout that closes
-- unpaid gives it back (released_at). An account uses a code once.
CREATE TABLE promotion_redemptions (
    checkout_id text        PRIMARY KEY,
    code        text        NOT NULL REFERENCES promotion_codes (code),
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    invoice_id  uuid,
    created_at  timestamptz NOT NULL,
    released_at timestamptz
);
CREATE UNIQUE INDEX promotion_redemptions_once_per_account ON promotion_redemptions (code, account_id)
    WHERE released_at IS NULL;

-- The discount line of an invoice (and of the checkout priced with it, so
-- that an invoice billed again at the checkout's price keeps it): the code
-- and the amount taken off before VAT (net_amount is what is left).
ALTER TABLE invoices ADD COLUMN discount_code text, ADD COLUMN discount_amount bigint;
ALTER TABLE checkouts ADD COLUMN discount_code text, ADD COLUMN discount_amount bigint;

-- The promotion discounting the account's coming renewals (the workflow's
-- kudos.Discount as JSON; NULL when none), so that a run rebuilt from the
-- read model keeps it.
ALTER TABLE subscriptions ADD COLUMN promotion jsonb;

-- +goose Down
ALTER TABLE subscriptions DROP COLUMN promotion;
ALTER TABLE checkouts DROP COLUMN discount_code, DROP COLUMN discount_amount;
ALTER TABLE invoices DROP COLUMN discount_code, DROP COLUMN discount_amount;
DROP TABLE promotion_redemptions;
DROP TABLE promotion_codes;
