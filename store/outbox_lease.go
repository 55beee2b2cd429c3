package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// OutboxLease is how long a claimed outbox row stays its claimer's. A
// leased row is being delivered: no relay claims it, nor any later row of
// its workflow, until the claimer marks it (SettleOutbox, ReleaseOutbox)
// or the lease runs out. A relay that dies mid-delivery thus leaves its
// rows to be claimed again after at most this long (delivery is
// at-least-once and idempotent by key), and a live relay never starts a
// delivery late in its lease (dispatch.Relay).
const OutboxLease = time.Minute

// LeaseOutbox claims due rows of up to workflows workflows, at most limit
// rows in all (oldest first), and leases them for OutboxLease. The claim
// is one short transaction: deliveries run after it, and each row is
// marked on its own as soon as its delivery ends, so that a slow delivery
// holds up nothing but its own workflow.
//
// The entries of one workflow are delivered in the order they were
// written, across rounds and across api processes. The claim first takes
// the advisory lock (for its transaction) of each workflow it will
// deliver to, in order, until it holds workflows of them: a workflow
// another claim holds is skipped, and a second relay claims the next
// workflows side by side. Only then does it read the rows, in a statement
// that sees whatever the previous holder of each lock committed (its
// leases above all): a row is claimed only when no earlier live row of its
// workflow waits for a retry or is leased. Dead letters hold nothing up.
// Mails queued in the last five seconds go after the other entries (a
// burst of payments is applied first, its receipts a moment later; order
// within a workflow is kept, and an older mail waits no more).
func (db *DB) LeaseOutbox(ctx context.Context, workflows, limit int) ([]OutboxRow, error) {
	var claimed []OutboxRow
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		// A workflow is a candidate when its first live entry is due and
		// none of its entries is leased. The lock is tried on the sorted
		// candidates one by one and stops at the limit (OFFSET 0 keeps the
		// planner from pushing the lock below the sort, where it would run
		// on every candidate): no claim locks more workflows than it takes.
		rows, err := tx.Query(ctx, `SELECT w FROM (
				SELECT workflow_id AS w FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL
				GROUP BY workflow_id HAVING min(id) = min(id) FILTER (WHERE next_attempt_at <= $1)
				   AND NOT coalesce(bool_or(leased_until > $1), false)
				ORDER BY bool_and(kind = 'mail' AND created_at > $1 - interval '5 seconds'), min(id) OFFSET 0) due
			WHERE pg_try_advisory_xact_lock(hashtextextended('outbox:' || w, 0))
			LIMIT $2`, now, workflows)
		if err != nil {
			return wrapErr(err)
		}
		locked, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(locked) == 0 {
			return wrapErr(err)
		}
		rows, err = tx.Query(ctx, `SELECT id, key, kind, workflow_id, payload, attempts, trace_context FROM outbox o
			WHERE workflow_id = ANY($3) AND delivered_at IS NULL AND dead_at IS NULL AND next_attempt_at <= $1
			  AND (leased_until IS NULL OR leased_until <= $1)
			  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.workflow_id = o.workflow_id AND e.id < o.id
			                  AND e.delivered_at IS NULL AND e.dead_at IS NULL AND (e.next_attempt_at > $1 OR e.leased_until > $1))
			ORDER BY (o.kind = 'mail' AND o.created_at > $1 - interval '5 seconds'), id LIMIT $2 FOR UPDATE`, now, limit, locked)
		if err != nil {
			return wrapErr(err)
		}
		claimed, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (OutboxRow, error) {
			var o OutboxRow
			return o, r.Scan(&o.ID, &o.Key, &o.Kind, &o.WorkflowID, &o.Payload, &o.Attempts, &o.TraceContext)
		})
		if err != nil || len(claimed) == 0 {
			return wrapErr(err)
		}
		ids := make([]int64, len(claimed))
		for i, c := range claimed {
			ids[i] = c.ID
		}
		_, err = tx.Exec(ctx, `UPDATE outbox SET leased_until = $2 WHERE id = ANY($1)`, ids, now.Add(OutboxLease))
		return wrapErr(err)
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// SettleOutbox records what became of one leased row's delivery and ends
// its lease: delivered, to be tried again after RetryIn, parked as a dead
// letter, or (not attempted) left as it was for the next claim.
func (db *DB) SettleOutbox(ctx context.Context, row OutboxRow, r OutboxResult) error {
	var err error
	switch {
	case !r.Attempted:
		return db.ReleaseOutbox(ctx, row.ID)
	case r.Err == nil:
		_, err = db.Pool.Exec(ctx, `UPDATE outbox SET delivered_at = $2, attempts = attempts + 1, last_error = NULL, leased_until = NULL
			WHERE id = $1`, row.ID, db.Now())
	case r.Dead:
		_, err = db.Pool.Exec(ctx, `UPDATE outbox SET dead_at = $2, attempts = attempts + 1, last_error = $3, leased_until = NULL
			WHERE id = $1 AND delivered_at IS NULL`, row.ID, db.Now(), r.Err.Error())
	default:
		_, err = db.Pool.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3, leased_until = NULL
			WHERE id = $1 AND delivered_at IS NULL`, row.ID, r.Err.Error(), db.Now().Add(r.RetryIn))
	}
	return wrapErr(err)
}

// ReleaseOutbox ends the lease of rows that were claimed but not
// attempted: the next claim takes them as they were.
func (db *DB) ReleaseOutbox(ctx context.Context, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := db.Pool.Exec(ctx, `UPDATE outbox SET leased_until = NULL WHERE id = ANY($1) AND delivered_at IS NULL`, ids)
	return wrapErr(err)
}
