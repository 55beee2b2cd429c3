package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/tracing"
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
	// TraceContext is the trace context of the work that wrote the entry
	// (tracing.Carry; "" outside any trace): its delivery continues it.
	TraceContext string `db:"-"`
}

// OutboxResult is what became of one claimed row: not attempted (left as it
// was), delivered (Err nil), failed and to be tried again after RetryIn, or
// failed for good (Dead: parked as a dead letter with its error).
type OutboxResult struct {
	Attempted bool
	Err       error
	RetryIn   time.Duration
	Dead      bool
}

func insertOutbox(ctx context.Context, tx pgx.Tx, entries ...OutboxEntry) error {
	for _, e := range entries {
		payload, err := json.Marshal(e.Payload)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (key, kind, workflow_id, payload, trace_context) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (key) DO NOTHING`, e.Key, e.Kind, e.WorkflowID, payload, tracing.Carry(ctx)); err != nil {
			return wrapErr(err)
		}
	}
	return nil
}

// Enqueue records outbox entries on their own, in one transaction.
func (db *DB) Enqueue(ctx context.Context, entries ...OutboxEntry) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertOutbox(ctx, tx, entries...) })
}

// EnqueueWithEvent records an outbox entry and the billing event it is
// the occasion of (a reminder mail: *_reminder_sent), in one transaction.
func (db *DB) EnqueueWithEvent(ctx context.Context, entry OutboxEntry, ev kudos.BillingEvent) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := insertOutbox(ctx, tx, entry); err != nil {
			return err
		}
		_, err := AppendBillingEvent(ctx, tx, ev)
		return err
	})
}

// OutboxStats is the state of the outbox that ops watch.
type OutboxStats struct {
	Pending, Dead int
	// OldestPending is the age of the oldest undelivered live entry (0
	// when none).
	OldestPending time.Duration
}

// OutboxStats counts the undelivered and dead entries.
func (db *DB) OutboxStats(ctx context.Context) (OutboxStats, error) {
	var s OutboxStats
	var oldest *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE delivered_at IS NULL AND dead_at IS NULL),
		count(*) FILTER (WHERE dead_at IS NOT NULL), min(created_at) FILTER (WHERE delivered_at IS NULL AND dead_at IS NULL)
		FROM outbox WHERE delivered_at IS NULL`).Scan(&s.Pending, &s.Dead, &oldest)
	if oldest != nil {
		s.OldestPending = db.Now().Sub(*oldest)
	}
	return s, wrapErr(err)
}

// PruneOutbox deletes entries delivered before cutoff and returns how many.
// Dead letters stay until ops deal with them.
func (db *DB) PruneOutbox(ctx context.Context, cutoff time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, `DELETE FROM outbox WHERE delivered_at < $1`, cutoff)
	return tag.RowsAffected(), wrapErr(err)
}
