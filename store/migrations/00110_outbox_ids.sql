-- +goose Up
-- The ids (uuids, in lower case) that an outbox entry's payload names,
-- wherever they stand: a field, a nested workflow input, a link, a list.
-- An account's erasure deletes the delivered entries that name the
-- account (its mails carry names and addresses) through the index below,
-- so its cost is the account's own entries, not the week of every
-- account's deliveries that the outbox keeps (dispatch.Retention): a
-- substring of the payload's text, as before, has no index short of a
-- trigram one, larger than the outbox itself. The index holds a few ids
-- an entry, written as the entry is marked delivered.
-- +goose StatementBegin
CREATE FUNCTION outbox_ids(payload jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT m[1]), '{}')
    FROM pg_catalog.regexp_matches(pg_catalog.lower(payload::text),
        '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})', 'g') m
$$;
-- +goose StatementEnd
CREATE INDEX outbox_delivered_ids_idx ON outbox USING gin (outbox_ids(payload)) WHERE delivered_at IS NOT NULL;

-- +goose Down
DROP INDEX outbox_delivered_ids_idx;
DROP FUNCTION outbox_ids(jsonb);
