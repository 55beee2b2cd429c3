-- +goose Up
-- What a dispute's or a returned debit's booking did (store.Booking),
-- kept on the payment event that asked for it. The event is marked
-- applied only with the last write of what the workflow does about it
-- (a plan expired, dunning started), so a run that dies in between, or an
-- activity run again after its commit, books the event again: that repeat
-- reports this instead of "nothing changed", and the consequence is not
-- lost.
ALTER TABLE payment_events ADD COLUMN booked jsonb;

-- +goose Down
ALTER TABLE payment_events DROP COLUMN booked;
