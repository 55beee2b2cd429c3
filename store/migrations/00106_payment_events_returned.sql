-- +goose Up
-- The returned debits' events by the payment they return: the provider
-- reconciliation knows a payment Kudos booked as returned (its invoice's
-- paid_by cleared) without reading every event.
CREATE INDEX payment_events_returned_idx ON payment_events ((returned->>'payment')) WHERE returned IS NOT NULL;

-- +goose Down
DROP INDEX payment_events_returned_idx;
