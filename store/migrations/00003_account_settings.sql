-- +goose Up
-- The organization an account's invoices are made out to. version increases
-- with every change; a change based on an older version is an edit conflict.
CREATE TABLE billing_addresses (
    account_id        uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    organization_name text        NOT NULL,
    street_and_number text        NOT NULL,
    street_additional text        NOT NULL DEFAULT '',
    postal_code       text        NOT NULL,
    city              text        NOT NULL,
    region            text        NOT NULL,
    country           text        NOT NULL,
    vat_id            text        NOT NULL DEFAULT '',
    version           integer     NOT NULL DEFAULT 1,
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feature_requests (
    id          bigserial PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    area        text        NOT NULL,
    profile     text        NOT NULL,
    description text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE feature_requests;
DROP TABLE billing_addresses;
