package bench

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Op is one operation of a load run; i numbers the operations of the run
// from 0, so that an operation can pick its user, token or event by it.
type Op func(ctx context.Context, i int) error

// Load is what a load run measured: how many operations ran, how many
// failed, how long the run took and every operation's latency.
type Load struct {
	Ops        int
	Errors     int
	FirstError string
	Elapsed    time.Duration
	lat        []time.Duration // sorted
}

// RunFor calls op from workers goroutines, back to back (a closed loop),
// until d has passed. It measures throughput at that concurrency.
func RunFor(ctx context.Context, workers int, d time.Duration, op Op) *Load {
	return run(ctx, workers, 0, d, op)
}

// RunN performs n operations on workers goroutines released together, so
// that with workers == n every operation is in flight at once (a burst).
func RunN(ctx context.Context, workers, n int, op Op) *Load {
	return run(ctx, workers, n, 0, op)
}

func run(ctx context.Context, workers, n int, d time.Duration, op Op) *Load {
	var next atomic.Int64
	var mu sync.Mutex
	out := &Load{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	var t0 time.Time
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var errs int
			var first string
			<-start
			deadline := t0.Add(d)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if n > 0 && i >= n || d > 0 && time.Now().After(deadline) {
					break
				}
				began := time.Now()
				err := op(ctx, i)
				lat = append(lat, time.Since(began))
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			out.lat = append(out.lat, lat...)
			out.Errors += errs
			if out.FirstError == "" {
				out.FirstError = first
			}
		}()
	}
	t0 = time.Now()
	close(start)
	wg.Wait()
	out.Elapsed = time.Since(t0)
	out.Ops = len(out.lat)
	slices.Sort(out.lat)
	return out
}

// Add merges another run of the same operation into l (rounds of a
// benchmark that alternates with its baseline).
func (l *Load) Add(o *Load) {
	l.Ops += o.Ops
	l.Errors += o.Errors
	if l.FirstError == "" {
		l.FirstError = o.FirstError
	}
	l.Elapsed += o.Elapsed
	l.lat = append(l.lat, o.lat...)
	slices.Sort(l.lat)
}

// Rate is operations per second over the run.
func (l *Load) Rate() float64 {
	if l.Elapsed <= 0 {
		return 0
	}
	return float64(l.Ops) / l.Elapsed.Seconds()
}

// Percentile returns the latency below which fraction p (0..1) of the
// operations fall.
func (l *Load) Percentile(p float64) time.Duration { return percentile(l.lat, p) }

// Summary is the JSON form of a Load.
type Summary struct {
	Ops        int     `json:"ops"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	Seconds    float64 `json:"seconds"`
	PerSecond  float64 `json:"per_second"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
}

// Summary condenses the run.
func (l *Load) Summary() Summary {
	return Summary{Ops: l.Ops, Errors: l.Errors, FirstError: l.FirstError, Seconds: l.Elapsed.Seconds(),
		PerSecond: l.Rate(), P50Ms: ms(l.Percentile(0.5)), P99Ms: ms(l.Percentile(0.99)), MaxMs: ms(l.Percentile(1))}
}

// percentile of a sorted slice (nearest rank); 0 when empty.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// ms converts a duration to (fractional) milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
