package dispatch

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"kudos/store"
)

// Outbox is the part of the store the relay uses (*store.DB).
type Outbox interface {
	ClaimOutbox(ctx context.Context, limit int, deliver func([]store.OutboxRow) []store.OutboxResult) (int, error)
}

// DeliverFunc hands one outbox row to Temporal. It must be idempotent by
// key (workflow ids derived from the entry make it so).
type DeliverFunc func(ctx context.Context, row store.OutboxRow) error

// Relay delivers outbox entries: at once when kicked after a commit, and
// again with backoff for entries whose delivery failed (Temporal down).
type Relay struct {
	Outbox  Outbox
	Deliver DeliverFunc
	Log     *slog.Logger
	// Poll is how often pending entries are looked for without a kick.
	Poll time.Duration

	kick chan struct{}
}

// NewRelay returns a relay; start it with Run.
func NewRelay(outbox Outbox, deliver DeliverFunc, log *slog.Logger) *Relay {
	return &Relay{Outbox: outbox, Deliver: deliver, Log: log, Poll: 2 * time.Second, kick: make(chan struct{}, 1)}
}

// Kick asks the relay to look for entries now. It never blocks.
func (r *Relay) Kick() {
	if r == nil {
		return
	}
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Run delivers entries until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.Poll)
	defer t.Stop()
	for {
		for {
			n, err := r.DeliverPending(ctx)
			if err != nil && ctx.Err() == nil {
				r.Log.Warn("outbox: delivery round failed", "err", err)
			}
			if n < relayBatch || err != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		case <-t.C:
		}
	}
}

const relayBatch = 50

// relayWorkers is how many workflows of a batch are delivered to at once.
const relayWorkers = 8

// DeliverPending delivers up to one batch of due entries and returns how many
// it attempted. The first entry goes alone; if it fails, Temporal is most
// likely unreachable, and trying the rest would only keep the claim (and its
// row locks) open for a timeout per entry. Otherwise the rest go
// concurrently by workflow, each workflow's entries in order, and a failure
// stops what has not started.
func (r *Relay) DeliverPending(ctx context.Context) (int, error) {
	return r.Outbox.ClaimOutbox(ctx, relayBatch, func(rows []store.OutboxRow) []store.OutboxResult {
		out := r.deliverBatch(ctx, rows)
		for i, o := range out {
			if o.Attempted && o.Err != nil {
				backoff := min(time.Duration(1<<min(rows[i].Attempts, 8))*time.Second, 5*time.Minute)
				out[i].RetryIn = backoff
				r.Log.Warn("outbox: delivery failed, will retry", "key", rows[i].Key, "kind", rows[i].Kind,
					"attempt", rows[i].Attempts+1, "retry_in", backoff, "err", o.Err)
			}
		}
		return out
	})
}

// deliverBatch delivers the rows (in id order): the first alone, then the
// others grouped by workflow, up to relayWorkers workflows at once, each
// workflow's rows in order. After a failed delivery no further row is
// started, and nothing of a workflow follows its failure.
func (r *Relay) deliverBatch(ctx context.Context, rows []store.OutboxRow) []store.OutboxResult {
	out := make([]store.OutboxResult, len(rows))
	deliver := func(i int) error {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := r.Deliver(dctx, rows[i])
		out[i] = store.OutboxResult{Attempted: true, Err: err}
		return err
	}
	if len(rows) == 0 || deliver(0) != nil {
		return out
	}
	var order []string
	lanes := map[string][]int{}
	for i := 1; i < len(rows); i++ {
		l := rows[i].WorkflowID
		if l == "" {
			l = rows[i].Key
		}
		if _, ok := lanes[l]; !ok {
			order = append(order, l)
		}
		lanes[l] = append(lanes[l], i)
	}
	var failed atomic.Bool
	work := make(chan []int)
	var wg sync.WaitGroup
	for range min(relayWorkers, len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for idx := range work {
				for _, i := range idx {
					if failed.Load() || deliver(i) != nil {
						failed.Store(true)
						break
					}
				}
			}
		}()
	}
	for _, l := range order {
		if failed.Load() {
			break
		}
		work <- lanes[l]
	}
	close(work)
	wg.Wait()
	return out
}
