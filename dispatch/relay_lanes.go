package dispatch

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"kudos/store"
)

// relayBatch is how many entries one claim takes at most.
const relayBatch = 50

// relayWorkers is how many workflows are delivered to at once: as many as
// a claim takes, since a payment event's delivery waits for its workflow
// to accept it. In the intake benchmark, two or four claim loops side by
// side cost the Temporal server more per event (7.7 and 8.7 ms against
// 6.0) and applied fewer per second; one loop that claims again as lanes
// end keeps this many in flight without that.
const relayWorkers = relayBatch

// deliveryTimeout bounds one delivery. A slow one fails alone and is
// tried again after its backoff; the others go on meanwhile.
const deliveryTimeout = 5 * time.Second

// batch is the entries of one claim, in flight.
type batch struct {
	relay *Relay
	rows  []store.OutboxRow
	// leased is when the claim took its lease: no delivery starts past
	// half of it, so that none can still run when the lease runs out and
	// another relay may claim the entry.
	leased time.Time
	// failed stops what has not started once a delivery failed.
	failed    atomic.Bool
	attempted atomic.Int32
}

// DeliverPending delivers up to one batch of due entries and returns how
// many it attempted, once every delivery it started has ended. The
// entries go concurrently by workflow, each workflow's entries in order,
// each marked as soon as its own delivery ends; a failure stops what has
// not started. After a failure (and in the first round) the first entry
// goes alone: if it fails, Temporal is most likely still unreachable, and
// trying the rest would only load it. Run does the same without waiting
// for a batch to end before it claims the next.
func (r *Relay) DeliverPending(ctx context.Context) (int, error) {
	var lanes sync.WaitGroup
	b, err := r.claim(ctx, relayWorkers, &lanes)
	lanes.Wait()
	if b == nil {
		return 0, err
	}
	return int(b.attempted.Load()), err
}

// claim leases due entries of up to workflows workflows and starts their
// lanes (counted in lanes). An unhealthy relay first delivers the first
// entry alone, and releases the rest when it fails. It returns the batch
// (nil when nothing was due).
func (r *Relay) claim(ctx context.Context, workflows int, lanes *sync.WaitGroup) (*batch, error) {
	rows, err := r.Outbox.LeaseOutbox(ctx, workflows, relayBatch)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	b := &batch{relay: r, rows: rows, leased: time.Now()}
	first := 0
	if !r.healthy.Load() {
		if !b.deliver(ctx, 0) {
			b.release(ctx, indexes(1, len(rows)))
			return b, nil
		}
		r.healthy.Store(true)
		first = 1
	}
	var order []string
	byLane := map[string][]int{}
	for i := first; i < len(rows); i++ {
		l := rows[i].WorkflowID
		if l == "" {
			l = rows[i].Key
		}
		if _, ok := byLane[l]; !ok {
			order = append(order, l)
		}
		byLane[l] = append(byLane[l], i)
	}
	for _, l := range order {
		r.busy.Add(1)
		lanes.Add(1)
		go func(idx []int) {
			defer lanes.Done()
			defer func() { r.busy.Add(-1); signal(r.done) }()
			b.lane(ctx, idx)
		}(byLane[l])
	}
	return b, nil
}

// full reports whether the claim took all it could: more may be due.
func (b *batch) full() bool { return b != nil && len(b.rows) == relayBatch && !b.failed.Load() }

// lane delivers one workflow's entries in order; after a failure (its
// own or another lane's) it releases what it has not started.
func (b *batch) lane(ctx context.Context, idx []int) {
	for k, i := range idx {
		if b.failed.Load() || ctx.Err() != nil || time.Since(b.leased) > store.OutboxLease/2 {
			b.release(ctx, idx[k:])
			return
		}
		if !b.deliver(ctx, i) {
			b.release(ctx, idx[k+1:])
			return
		}
	}
}

// deliver delivers row i, marks it at once, and reports whether it was
// delivered.
func (b *batch) deliver(ctx context.Context, i int) bool {
	row := b.rows[i]
	b.attempted.Add(1)
	dctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
	dctx, span := deliverySpan(dctx, row)
	err := b.relay.Deliver(dctx, row)
	endSpan(span, err)
	cancel()
	res := store.OutboxResult{Attempted: true}
	switch {
	case err == nil:
	case ctx.Err() != nil: // the relay stops: no fault of the entry, which goes again as it was
		res = store.OutboxResult{}
	default:
		res = b.relay.failure(row, err)
	}
	if err != nil {
		b.failed.Store(true)
		b.relay.healthy.Store(false)
	}
	b.relay.settle(ctx, row, res)
	return err == nil
}

// release gives back the rows at idx, not attempted.
func (b *batch) release(ctx context.Context, idx []int) {
	if len(idx) == 0 {
		return
	}
	ids := make([]int64, len(idx))
	for k, i := range idx {
		ids[k] = b.rows[i].ID
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliveryTimeout)
	defer cancel()
	if err := b.relay.Outbox.ReleaseOutbox(sctx, ids...); err != nil {
		b.relay.Log.Warn("outbox: releasing entries failed; they go again when their lease ends", "count", len(ids), "err", err)
	}
}

// settle marks row with what became of its delivery, even while the relay
// stops (a delivery that ended is recorded).
func (r *Relay) settle(ctx context.Context, row store.OutboxRow, res store.OutboxResult) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliveryTimeout)
	defer cancel()
	if err := r.Outbox.SettleOutbox(sctx, row, res); err != nil {
		r.Log.Warn("outbox: marking an entry failed; it goes again when its lease ends", "key", row.Key, "err", err)
	}
}

// failure is what becomes of row after a failed delivery: parked as a
// dead letter (a permanent failure, or the last attempt of one that is
// not Temporal being away), or tried again after a backoff.
func (r *Relay) failure(row store.OutboxRow, err error) store.OutboxResult {
	res := store.OutboxResult{Attempted: true, Err: err}
	var perm permanentError
	if errors.As(err, &perm) || (!transient(err) && row.Attempts+1 >= MaxAttempts) {
		res.Dead = true
		r.Log.Error("outbox: entry parked as a dead letter", "key", row.Key, "kind", row.Kind,
			"workflow", row.WorkflowID, "attempts", row.Attempts+1, "err", err)
		return res
	}
	res.RetryIn = min(time.Duration(1<<min(row.Attempts, 8))*time.Second, 5*time.Minute)
	r.Log.Warn("outbox: delivery failed, will retry", "key", row.Key, "kind", row.Kind,
		"attempt", row.Attempts+1, "retry_in", res.RetryIn, "err", err)
	return res
}

// indexes returns from, from+1, …, to-1.
func indexes(from, to int) []int {
	var idx []int
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	return idx
}
