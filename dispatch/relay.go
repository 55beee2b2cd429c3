package dispatch

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/api/serviceerror"

	"kudos/store"
	"kudos/tracing"
)

// Outbox is the part of the store the relay uses (*store.DB).
type Outbox interface {
	ClaimOutbox(ctx context.Context, limit int, deliver func([]store.OutboxRow) []store.OutboxResult) (int, error)
	PruneOutbox(ctx context.Context, cutoff time.Time) (int64, error)
}

// MaxAttempts is how many failed deliveries park an entry as a dead letter.
// Failures because Temporal is away do not count: an outage of any length
// only delays entries. A Permanent failure parks the entry at once.
const MaxAttempts = 50

// Retention is how long delivered entries are kept (for ops) before the
// relay prunes them.
const Retention = 7 * 24 * time.Hour

// Permanent marks a delivery error that no retry can mend (an unknown kind,
// a payload that does not decode): the entry is parked at once.
func Permanent(err error) error { return permanentError{err} }

type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

// transient reports whether err means Temporal could not be reached (or
// asked us to slow down), which is no fault of the entry.
func transient(err error) bool {
	var unavailable *serviceerror.Unavailable
	var deadline *serviceerror.DeadlineExceeded
	var exhausted *serviceerror.ResourceExhausted
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.As(err, &unavailable) || errors.As(err, &deadline) || errors.As(err, &exhausted)
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
	// healthy is whether the last round delivered everything it tried:
	// then the next round sends its whole batch at once, else it tries one
	// entry first.
	healthy atomic.Bool
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

// Run delivers entries until ctx ends, and prunes delivered ones past
// Retention once an hour.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.Poll)
	defer t.Stop()
	var pruned time.Time
	for {
		if time.Since(pruned) > time.Hour {
			pruned = time.Now()
			if n, err := r.Outbox.PruneOutbox(ctx, time.Now().Add(-Retention)); err != nil && ctx.Err() == nil {
				r.Log.Warn("outbox: prune failed", "err", err)
			} else if n > 0 {
				r.Log.Info("outbox: delivered entries pruned", "count", n)
			}
		}
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

// relayWorkers is how many workflows of a batch are delivered to at once:
// all of them, since a payment event's delivery waits for its workflow to
// accept it. One claim at a time per process: in the intake benchmark two
// or four side by side cost the Temporal server more per event (7.7 and
// 8.7 ms against 6.0) and applied fewer per second (measured while each
// batch still began with one delivery alone).
const relayWorkers = relayBatch

// DeliverPending delivers up to one batch of due entries and returns how many
// it attempted. The entries go concurrently by workflow, each workflow's
// entries in order, and a failure stops what has not started. After a round
// with a failure (and in the first round) the first entry goes alone: if it
// fails, Temporal is most likely still unreachable, and trying the rest
// would only load it and keep the claim open. A healthy relay does not wait
// for that probe: one delivery's round trip per batch, with nothing else in
// flight, was a tenth of the intake benchmark's time.
func (r *Relay) DeliverPending(ctx context.Context) (int, error) {
	return r.Outbox.ClaimOutbox(ctx, relayBatch, func(rows []store.OutboxRow) []store.OutboxResult {
		out := r.deliverBatch(ctx, rows)
		for i, o := range out {
			if !o.Attempted || o.Err == nil {
				continue
			}
			var perm permanentError
			if errors.As(o.Err, &perm) || (!transient(o.Err) && rows[i].Attempts+1 >= MaxAttempts) {
				out[i].Dead = true
				r.Log.Error("outbox: entry parked as a dead letter", "key", rows[i].Key, "kind", rows[i].Kind,
					"workflow", rows[i].WorkflowID, "attempts", rows[i].Attempts+1, "err", o.Err)
				continue
			}
			backoff := min(time.Duration(1<<min(rows[i].Attempts, 8))*time.Second, 5*time.Minute)
			out[i].RetryIn = backoff
			r.Log.Warn("outbox: delivery failed, will retry", "key", rows[i].Key, "kind", rows[i].Kind,
				"attempt", rows[i].Attempts+1, "retry_in", backoff, "err", o.Err)
		}
		return out
	})
}

// deliverBatch delivers the rows (in id order), grouped by workflow, up to
// relayWorkers workflows at once, each workflow's rows in order; the first
// row alone before the others unless the relay is healthy. After a failed
// delivery no further row is started, and nothing of a workflow follows its
// failure.
func (r *Relay) deliverBatch(ctx context.Context, rows []store.OutboxRow) []store.OutboxResult {
	out := make([]store.OutboxResult, len(rows))
	deliver := func(i int) error {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		dctx, span := deliverySpan(dctx, rows[i])
		err := r.Deliver(dctx, rows[i])
		endSpan(span, err)
		out[i] = store.OutboxResult{Attempted: true, Err: err}
		return err
	}
	first := 0
	if !r.healthy.Load() {
		if len(rows) == 0 || deliver(0) != nil {
			return out
		}
		first = 1
	}
	var failed atomic.Bool
	defer func() { r.healthy.Store(!failed.Load()) }()
	var order []string
	lanes := map[string][]int{}
	for i := first; i < len(rows); i++ {
		l := rows[i].WorkflowID
		if l == "" {
			l = rows[i].Key
		}
		if _, ok := lanes[l]; !ok {
			order = append(order, l)
		}
		lanes[l] = append(lanes[l], i)
	}
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

// deliverySpan starts the span of one delivery of row, in the trace of
// the work that wrote the entry (its stored trace context): a payment's
// trace goes on from its webhook through the relay into Temporal. It names
// the kind and the entry's row id only: keys and workflow ids may hold an
// address (a reset request's lane is its e-mail).
func deliverySpan(ctx context.Context, row store.OutboxRow) (context.Context, trace.Span) {
	return tracing.Tracer().Start(tracing.Resume(ctx, row.TraceContext), "outbox deliver "+row.Kind,
		trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(attribute.String("kudos.outbox.kind", row.Kind),
			attribute.Int64("kudos.outbox.id", row.ID), attribute.Int("kudos.outbox.attempt", row.Attempts+1)))
}

// endSpan ends span with err's status.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.SetStatus(codes.Error, "delivery failed")
	}
	span.End()
}
