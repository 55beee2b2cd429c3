-- +goose Up
-- Issue 37 (item 7): a signed-in device names the network it signed in
-- from: the client's /24 (IPv4) or /48 (IPv6), enough for its owner to
-- recognise it, never the address itself. '' for sessions from before.
ALTER TABLE sessions ADD COLUMN ip_network text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sessions DROP COLUMN ip_network;
