-- +goose Up
-- Issue 35: a device cookie (auth.Devices) is stateless; one issued before
-- devices_valid_from no longer vouches for its browser. The owner proving
-- the address of a never-activated user sets it, so that a stranger who
-- signed up with the address keeps no exemption from its sign-in limits.
ALTER TABLE users ADD COLUMN devices_valid_from timestamptz;

-- address_proved_at is when the user first proved an address (activated
-- became true). "Never proved" is not "not activated": a user who changes
-- the e-mail address is unactivated until the new one is confirmed, yet
-- proved the old one, and keeps their second factors meanwhile. Set on every
-- path that activates, by the trigger.
ALTER TABLE users ADD COLUMN address_proved_at timestamptz;
UPDATE users SET address_proved_at = updated_at WHERE activated;
-- An activated user who changed the address meanwhile cannot be told apart
-- from one who never proved one: a pending e-mail change (an unused
-- activation token with a new address) says they proved the old one.
UPDATE users u SET address_proved_at = u.updated_at
    WHERE NOT u.activated AND EXISTS (SELECT 1 FROM user_tokens t WHERE t.user_id = u.id AND t.purpose = 'activation'
        AND t.new_email IS NOT NULL);

-- +goose StatementBegin
CREATE FUNCTION users_address_proved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.activated AND NEW.address_proved_at IS NULL THEN
        NEW.address_proved_at := now();
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER users_address_proved BEFORE INSERT OR UPDATE OF activated ON users
    FOR EACH ROW EXECUTE FUNCTION users_address_proved();

-- +goose Down
DROP TRIGGER users_address_proved ON users;
DROP FUNCTION users_address_proved();
ALTER TABLE users DROP COLUMN address_proved_at;
ALTER TABLE users DROP COLUMN devices_valid_from;
