-- +goose Up
-- Issue 29: a second factor's event names which factor (an authenticator
-- app or a passkey). Events written before this column say it in their key
-- (second_factor_added:<factor>:…), from which it is filled once.
ALTER TABLE billing_events ADD COLUMN factor text CHECK (factor IN ('totp', 'passkey'));
ALTER TABLE billing_events ADD CONSTRAINT billing_events_factor_type
    CHECK (factor IS NULL OR type IN ('second_factor_added', 'second_factor_removed'));
ALTER TABLE billing_events DISABLE TRIGGER billing_events_no_update;
UPDATE billing_events SET factor = split_part(key, ':', 2)
    WHERE type IN ('second_factor_added', 'second_factor_removed') AND split_part(key, ':', 2) IN ('totp', 'passkey');
ALTER TABLE billing_events ENABLE TRIGGER billing_events_no_update;

-- Append-only as before (an address may become NULL), the factor included.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION billing_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.member_email IS NULL OR NEW.member_email IS NOT DISTINCT FROM OLD.member_email)
       AND (NEW.actor_email IS NULL OR NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email)
       AND (NEW.id, NEW.seq, NEW.account_id, NEW.at, NEW.type, NEW.plan, NEW.amount, NEW.currency, NEW.invoice_id, NEW.key, NEW.role,
            NEW.factor)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.seq, OLD.account_id, OLD.at, OLD.type, OLD.plan, OLD.amount, OLD.currency, OLD.invoice_id, OLD.key, OLD.role,
            OLD.factor) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'billing_events is append-only';
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION billing_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.member_email IS NULL OR NEW.member_email IS NOT DISTINCT FROM OLD.member_email)
       AND (NEW.actor_email IS NULL OR NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email)
       AND (NEW.id, NEW.seq, NEW.account_id, NEW.at, NEW.type, NEW.plan, NEW.amount, NEW.currency, NEW.invoice_id, NEW.key, NEW.role)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.seq, OLD.account_id, OLD.at, OLD.type, OLD.plan, OLD.amount, OLD.currency, OLD.invoice_id, OLD.key, OLD.role) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'billing_events is append-only';
END;
$$;
-- +goose StatementEnd
ALTER TABLE billing_events DROP CONSTRAINT billing_events_factor_type;
ALTER TABLE billing_events DROP COLUMN factor;
