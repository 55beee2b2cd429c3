package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// OutboxEntry is work for Temporal, recorded in the transaction of the
// change that causes it. Package dispatch builds entries (it owns the kinds
// and payloads); the store only keeps them. Key is unique: a second entry
// with the same key is ignored. WorkflowID names the workflow the entry goes
// to: entries of one workflow are delivered in the order they were written.
type OutboxEntry struct {
	Key        string
	Kind       string
	WorkflowID string
	Payload    any
}

// OutboxRow is an undelivered entry claimed for delivery.
type OutboxRow struct {
	ID         int64
	Key        string
	Kind       string
	WorkflowID string
	Payload    []byte
	Attempts   int
}

// OutboxResult is what became of one claimed row: not attempted (left as it
// was), delivered (Err nil), or failed and to be tried again after RetryIn.
type OutboxResult struct {
	Attempted bool
	Err       error
	RetryIn   time.Duration
}

func insertOutbox(ctx context.Context, tx pgx.Tx, entries ...OutboxEntry) error {
	for _, e := range entries {
		payload, err := json.Marshal(e.Payload)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (key, kind, workflow_id, payload) VALUES ($1, $2, $3, $4)
			ON CONFLICT (key) DO NOTHING`, e.Key, e.Kind, e.WorkflowID, payload); err != nil {
			return wrapErr(err)
		}
	}
	return nil
}

// Enqueue records outbox entries on their own, in one transaction.
func (db *DB) Enqueue(ctx context.Context, entries ...OutboxEntry) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertOutbox(ctx, tx, entries...) })
}

// ClaimOutbox locks up to limit due rows (oldest first; SKIP LOCKED, so
// several relays can work side by side), hands them to deliver while the
// locks are held, and records the results it returns (one per row, in
// order). It returns how many rows were attempted.
func (db *DB) ClaimOutbox(ctx context.Context, limit int, deliver func([]OutboxRow) []OutboxResult) (int, error) {
	n := 0
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, key, kind, workflow_id, payload, attempts FROM outbox
			WHERE delivered_at IS NULL AND next_attempt_at <= $1
			ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, db.Now(), limit)
		if err != nil {
			return wrapErr(err)
		}
		claimed, err := pgx.CollectRows(rows, pgx.RowToStructByPos[OutboxRow])
		if err != nil {
			return wrapErr(err)
		}
		results := deliver(claimed)
		for i, r := range results {
			if !r.Attempted {
				continue
			}
			n++
			if r.Err == nil {
				_, err = tx.Exec(ctx, `UPDATE outbox SET delivered_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = $1`,
					claimed[i].ID, db.Now())
			} else {
				_, err = tx.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1`,
					claimed[i].ID, r.Err.Error(), db.Now().Add(r.RetryIn))
			}
			if err != nil {
				return wrapErr(err)
			}
		}
		return nil
	})
	return n, err
}
