-- +goose Up
-- When an invoice or credit note was issued: numbered (an invoice when it
-- is paid, in that year's series; a credit note when it is made). Its
-- document's issue date. NULL for a document not numbered yet, and for one
-- numbered before this column, whose date stays its created_at (what its
-- PDF already says).
ALTER TABLE invoices ADD COLUMN issued_at timestamptz;

-- +goose Down
ALTER TABLE invoices DROP COLUMN issued_at;
