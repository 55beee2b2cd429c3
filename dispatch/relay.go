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

// Outbox is the part of the store the relay uses (*store.DB): rows are
// leased in a short claim, and each is marked as soon as its own delivery
// ends.
type Outbox interface {
	LeaseOutbox(ctx context.Context, workflows, limit int) ([]store.OutboxRow, error)
	SettleOutbox(ctx context.Context, row store.OutboxRow, r store.OutboxResult) error
	ReleaseOutbox(ctx context.Context, ids ...int64) error
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
// Deliveries run concurrently by workflow (relayWorkers at most), each
// workflow's entries in order; each entry is marked as soon as its own
// delivery ends, and the relay claims more while slow ones still run, so
// that one slow delivery (an update waiting for a busy workflow) holds up
// its own workflow only.
type Relay struct {
	Outbox  Outbox
	Deliver DeliverFunc
	Log     *slog.Logger
	// Poll is how often pending entries are looked for without a kick.
	Poll time.Duration

	kick chan struct{}
	// done is signalled when a workflow's lane ends: a slot is free.
	done chan struct{}
	// busy counts the lanes in flight (relayWorkers at most).
	busy atomic.Int32
	// healthy is whether the last delivery went well: then a claim sends
	// everything it took at once, else it tries one entry first.
	healthy atomic.Bool
}

// NewRelay returns a relay; start it with Run.
func NewRelay(outbox Outbox, deliver DeliverFunc, log *slog.Logger) *Relay {
	return &Relay{Outbox: outbox, Deliver: deliver, Log: log, Poll: 2 * time.Second, kick: make(chan struct{}, 1),
		done: make(chan struct{}, 1)}
}

// Kick asks the relay to look for entries now. It never blocks.
func (r *Relay) Kick() {
	if r == nil {
		return
	}
	signal(r.kick)
}

// signal wakes whoever waits on c, without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Run delivers entries until ctx ends, and prunes delivered ones past
// Retention once an hour. It claims whenever lanes are free (after a
// kick, a lane's end, or every Poll), without waiting for the deliveries
// in flight; when ctx ends it waits for them.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.Poll)
	defer t.Stop()
	var lanes sync.WaitGroup
	defer lanes.Wait()
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
		r.fill(ctx, &lanes)
		claimed := time.Now()
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		case <-r.done:
		case <-t.C:
		}
		// While deliveries run, the kicks of a burst of webhooks and the
		// ends of lanes that come within claimGap make one claim, not one
		// each.
		if wait := claimGap - time.Since(claimed); wait > 0 && r.busy.Load() > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}
}

// claimGap is the least time between two claims while deliveries run.
const claimGap = 25 * time.Millisecond

// fill claims due entries for every free lane, and starts them.
func (r *Relay) fill(ctx context.Context, lanes *sync.WaitGroup) {
	for ctx.Err() == nil {
		free := relayWorkers - int(r.busy.Load())
		if free <= 0 {
			return
		}
		b, err := r.claim(ctx, free, lanes)
		if err != nil && ctx.Err() == nil {
			r.Log.Warn("outbox: delivery round failed", "err", err)
		}
		if err != nil || !b.full() {
			return
		}
	}
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
