package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.temporal.io/api/serviceerror"
)

// The expiry benchmarks (trial, renewal) start thousands of workflows in a
// burst and then wait for all of them to fire. On a loaded machine both
// steps are slower, never wrong: a start can time out at the Temporal
// frontend (its RPC deadline is 10 s), and firing can take minutes longer
// than on a quiet one. Neither may fail the run (a figure never does):
// a start is tried again, which is safe because every start of these
// benchmarks is idempotent by its workflow id (the SDK returns the running
// workflow for a second start), and the wait fails only when firing has
// stopped, not when it is slow.

// startAttempts is how often one workflow start is tried in all.
const startAttempts = 6

// startRetrying calls start until it succeeds, fails with an error that is
// not a transient one of the frontend, or startAttempts calls failed;
// each retry is counted in retries. Retries wait 1, 2, 4, 8, 8 s.
func startRetrying(ctx context.Context, retries *atomic.Int64, start func() error) error {
	wait := time.Second
	for attempt := 1; ; attempt++ {
		err := start()
		if err == nil || attempt == startAttempts || !transient(err) || ctx.Err() != nil {
			return err
		}
		retries.Add(1)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait = min(2*wait, 8*time.Second)
	}
}

// transient reports whether err is the frontend being too slow or too busy
// to answer (and not, e.g., a refused request).
func transient(err error) bool {
	var deadline *serviceerror.DeadlineExceeded
	var unavailable *serviceerror.Unavailable
	var exhausted *serviceerror.ResourceExhausted
	var canceled *serviceerror.Canceled
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &deadline) || errors.As(err, &unavailable) ||
		errors.As(err, &exhausted) || errors.As(err, &canceled)
}

// firedStall is how long the count of fired workflows may stand still
// before the wait gives up: on a loaded 2-core machine whole seconds pass
// between two workflow tasks, never minutes.
const firedStall = 3 * time.Minute

// waitFired polls fired every poll until it reaches n. It fails when the
// count has not grown for stall, or after limit in all (measured from
// since; 0: no limit besides ctx). Lags come from the rows' own
// timestamps, so polling often would only add load to the Postgres being
// measured.
func waitFired(ctx context.Context, n int, since time.Time, poll, stall, limit time.Duration, fired func(context.Context) (int, error)) error {
	last, lastAt := -1, time.Now()
	for {
		c, err := fired(ctx)
		if err != nil {
			return err
		}
		if c >= n {
			return nil
		}
		now := time.Now()
		if c > last {
			last, lastAt = c, now
		}
		switch {
		case now.Sub(lastAt) > stall:
			return fmt.Errorf("only %d of %d fired %s after the instant: none more in the last %s", c, n,
				time.Since(since).Round(time.Second), stall)
		case limit > 0 && now.Sub(since) > limit:
			return fmt.Errorf("only %d of %d fired %s after the instant", c, n, time.Since(since).Round(time.Second))
		}
		select {
		case <-time.After(poll):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// expiryNotes says, for the baseline and Kudos's side, what a loaded
// machine did to the set-up: starts past the instant (their lags include
// it) and starts tried again.
func expiryNotes(base, prod ExpiryFigures) []string {
	var notes []string
	for _, side := range []struct {
		name string
		f    ExpiryFigures
	}{{"baseline", base}, {"kudos", prod}} {
		if side.f.StartOverrun > 0 {
			notes = append(notes, fmt.Sprintf("%s: starting took %.1f s past the instant; its lags include that",
				side.name, side.f.StartOverrun))
		}
		if side.f.SettleOverrun > 0 {
			notes = append(notes, fmt.Sprintf("%s: the workflows' first tasks ran until %.1f s past the instant; its lags include that",
				side.name, side.f.SettleOverrun))
		}
		if side.f.Split != "" {
			notes = append(notes, side.name+" lag split: "+side.f.Split)
		}
		if side.f.StartRetries > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d starts tried again after the frontend timed out", side.name, side.f.StartRetries))
		}
	}
	return notes
}
