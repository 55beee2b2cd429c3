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

// ClaimOutbox locks up to limit due rows (oldest first), hands them to
// deliver while the locks are held, and records the results it returns
// (one per row, in order). It returns how many rows were attempted.
//
// The entries of one workflow are delivered in the order they were
// written, across rounds and across api processes. A relay first takes the
// advisory lock (for its transaction) of each workflow it will deliver to,
// in order, until it holds limit of them: a workflow another relay holds
// is skipped, and a second relay claims the next workflows side by side.
// Only then does it read the rows, in a statement that sees whatever the
// previous holder of each lock committed: a row is claimed only when no
// earlier live row of its workflow waits for a retry. Dead letters hold
// nothing up. Mails queued in the last five seconds go after the other
// entries (a burst of payments is applied first, its receipts a moment
// later; order within a workflow is kept, and an older mail waits no more).
func (db *DB) ClaimOutbox(ctx context.Context, limit int, deliver func([]OutboxRow) []OutboxResult) (int, error) {
	n := 0
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		// A workflow is a candidate when its first live entry is due. The
		// lock is tried on the sorted candidates one by one and stops at
		// the limit (OFFSET 0 keeps the planner from pushing the lock
		// below the sort, where it would run on every candidate): no relay
		// locks more workflows than it claims.
		var workflows []string
		rows, err := tx.Query(ctx, `SELECT w FROM (
				SELECT workflow_id AS w FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL
				GROUP BY workflow_id HAVING min(id) = min(id) FILTER (WHERE next_attempt_at <= $1)
				ORDER BY bool_and(kind = 'mail' AND created_at > $1 - interval '5 seconds'), min(id) OFFSET 0) due
			WHERE pg_try_advisory_xact_lock(hashtextextended('outbox:' || w, 0))
			LIMIT $2`, now, limit)
		if err != nil {
			return wrapErr(err)
		}
		if workflows, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil || len(workflows) == 0 {
			return wrapErr(err)
		}
		rows, err = tx.Query(ctx, `SELECT id, key, kind, workflow_id, payload, attempts, trace_context FROM outbox o
			WHERE workflow_id = ANY($3) AND delivered_at IS NULL AND dead_at IS NULL AND next_attempt_at <= $1
			  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.workflow_id = o.workflow_id AND e.id < o.id
			                  AND e.delivered_at IS NULL AND e.dead_at IS NULL AND e.next_attempt_at > $1)
			ORDER BY (o.kind = 'mail' AND o.created_at > $1 - interval '5 seconds'), id LIMIT $2 FOR UPDATE`, now, limit, workflows)
		if err != nil {
			return wrapErr(err)
		}
		claimed, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (OutboxRow, error) {
			var o OutboxRow
			return o, r.Scan(&o.ID, &o.Key, &o.Kind, &o.WorkflowID, &o.Payload, &o.Attempts, &o.TraceContext)
		})
		if err != nil {
			return wrapErr(err)
		}
		results := deliver(claimed)
		var delivered []int64
		for i, r := range results {
			if !r.Attempted {
				continue
			}
			n++
			switch {
			case r.Err == nil:
				delivered = append(delivered, claimed[i].ID) // marked in one statement below
			case r.Dead:
				_, err = tx.Exec(ctx, `UPDATE outbox SET dead_at = $2, attempts = attempts + 1, last_error = $3 WHERE id = $1`,
					claimed[i].ID, db.Now(), r.Err.Error())
			default:
				_, err = tx.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1`,
					claimed[i].ID, r.Err.Error(), db.Now().Add(r.RetryIn))
			}
			if err != nil {
				return wrapErr(err)
			}
		}
		if len(delivered) > 0 {
			_, err = tx.Exec(ctx, `UPDATE outbox SET delivered_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = ANY($1)`,
				delivered, db.Now())
		}
		return wrapErr(err)
	})
	return n, err
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
