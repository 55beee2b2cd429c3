-- +goose Up
-- Issue 35 item 4: an account's export belongs to the account's current
-- owner. One asked for by an owner who is no longer the owner (the
-- ownership moved while it was prepared or downloadable) is void: never
-- built, mailed or served again; its row stays for `kudos ops account`.
ALTER TABLE data_exports DROP CONSTRAINT data_exports_status_check;
ALTER TABLE data_exports ADD CONSTRAINT data_exports_status_check
    CHECK (status IN ('preparing', 'ready', 'expired', 'void'));
UPDATE data_exports e SET status = 'void'
    WHERE e.account_id IS NOT NULL AND e.status IN ('preparing', 'ready')
      AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.account_id = e.account_id AND m.user_id = e.user_id AND m.role = 'owner');

-- Issue 35 item 6: VIES's answers (valid or invalid, never an outage), per
-- (billing country, VAT id), kept for kudos.VATAnswerTTL so that asking
-- about the same ids again costs VIES nothing; the periodic purge deletes
-- older ones.
CREATE TABLE vat_answers (
    country    text        NOT NULL,
    vat_id     text        NOT NULL,
    valid      boolean     NOT NULL,
    checked_at timestamptz NOT NULL,
    PRIMARY KEY (country, vat_id)
);

-- +goose Down
DROP TABLE vat_answers;
DELETE FROM data_exports WHERE status = 'void';
ALTER TABLE data_exports DROP CONSTRAINT data_exports_status_check;
ALTER TABLE data_exports ADD CONSTRAINT data_exports_status_check
    CHECK (status IN ('preparing', 'ready', 'expired'));
