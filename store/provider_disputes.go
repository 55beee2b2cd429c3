package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"kudos"
)

// The disputes side of the provider reconciliation (issue 36 item 4).

// BookedDispute is a dispute as Kudos booked it, for the comparison with
// the provider's.
type BookedDispute struct {
	// Booked: the disputes row exists (Status and Amount are its).
	Booked bool
	Status kudos.DisputeStatus
	Amount int64
	// Pending: an event of the dispute is recorded and not applied yet
	// (on its way to the subscription workflow, not a difference).
	Pending bool
}

// BookedDisputes returns, for each of the provider's dispute ids Kudos
// knows of (a disputes row, or a dispute event not applied yet), how Kudos
// booked it; one Kudos knows nothing of is missing from the map.
func (db *DB) BookedDisputes(ctx context.Context, ids []string) (map[string]BookedDispute, error) {
	rows, err := db.Pool.Query(ctx, `SELECT i, d.status, d.amount,
			EXISTS (SELECT 1 FROM payment_events e WHERE e.dispute ->> 'id' = i AND e.dispute IS NOT NULL AND e.applied_at IS NULL)
		FROM unnest($1::text[]) AS i LEFT JOIN disputes d ON d.id = i`, ids)
	if err != nil {
		return nil, wrapErr(err)
	}
	out := map[string]BookedDispute{}
	var id string
	var status *kudos.DisputeStatus
	var amount *int64
	var pending bool
	_, err = pgx.ForEachRow(rows, []any{&id, &status, &amount, &pending}, func() error {
		if status == nil && !pending {
			return nil
		}
		b := BookedDispute{Booked: status != nil, Pending: pending}
		if b.Booked {
			b.Status, b.Amount = *status, *amount
		}
		out[id] = b
		return nil
	})
	return out, wrapErr(err)
}

// UnseenDisputes is UnseenPayments for the disputes Kudos booked (by the
// time they opened), with the provider's dispute id as their reference.
func (db *DB) UnseenDisputes(ctx context.Context, runID int64, since, until time.Time, afterAt time.Time, afterRef string,
	limit int) ([]LedgerEntry, error) {
	return db.unseen(ctx, `SELECT d.account_id, d.id, d.amount, d.currency, d.opened_at FROM disputes d
		WHERE d.opened_at >= $2 AND d.opened_at < $3 AND (d.opened_at, d.id) > ($4, $5)
		  AND NOT EXISTS (SELECT 1 FROM provider_reconcile_seen s WHERE s.run_id = $1 AND s.kind = 'dispute' AND s.reference = d.id)
		ORDER BY d.opened_at, d.id LIMIT $6`, runID, since, until, afterAt, afterRef, limit)
}
