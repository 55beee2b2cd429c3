package store

import (
	"context"

	"github.com/google/uuid"

	"kudos"
)

// RecordInvoiceDraft records, before it is stored, that a draft PDF (a
// pro-forma or a payment request: it prints the buyer) of one of the
// account's invoices is at key, so that the account's erasure deletes it
// (EraseAccount). An erased account is ENotFound (its erasure, if under
// way, is waited for): nothing may be stored for it after.
func (db *DB) RecordInvoiceDraft(ctx context.Context, accountID uuid.UUID, key string) error {
	tag, err := db.Pool.Exec(ctx, `INSERT INTO invoice_drafts (key, account_id, stored_at)
		SELECT $2, id, $3 FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR KEY SHARE
		ON CONFLICT (key) DO UPDATE SET stored_at = EXCLUDED.stored_at`, accountID, key, db.Now())
	if err != nil {
		return wrapErr(err)
	}
	if tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.ENotFound, "account not found")
	}
	return nil
}
