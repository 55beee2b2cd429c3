-- +goose Up
-- The logo of an account (SPEC §3): img_url is a reference whose prefix
-- tells its state (placeholder:, tmp/, public/; see kudos.LogoStateOf).
-- logo_upload_key is the temporary object a presigned upload link was made
-- for and not yet finalised; logo_error why the last upload was refused.
ALTER TABLE accounts
    ALTER COLUMN img_url SET DEFAULT 'placeholder:none',
    ADD COLUMN logo_upload_key text NOT NULL DEFAULT '',
    ADD COLUMN logo_error      text NOT NULL DEFAULT '';
UPDATE accounts SET img_url = 'placeholder:none' WHERE img_url IN ('', 'BLANK');

-- +goose Down
ALTER TABLE accounts
    DROP COLUMN logo_error,
    DROP COLUMN logo_upload_key,
    ALTER COLUMN img_url SET DEFAULT '';
