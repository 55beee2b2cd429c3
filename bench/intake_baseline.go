package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// SignalsHandled is when the raw-signal baseline's workflows were done with
// its signals, read from their histories: the baseline's counterpart of an
// event applied.
type SignalsHandled struct {
	Signals   int     `json:"signals"`
	PerSecond float64 `json:"per_second"`
	LagP50    float64 `json:"lag_p50_seconds"`
	LagP99    float64 `json:"lag_p99_seconds"`
}

// signalsHandled reads the histories of workflows ids, each signalled since
// t0, and returns how fast and how late after it was sent each signal was
// handled: a signal counts as handled at the last workflow task completed
// after it and before the workflow's next signal (the workflow's whole
// reaction, as an event counts as applied once Postgres shows it).
func signalsHandled(ctx context.Context, c client.Client, ids []string, t0 time.Time) (SignalsHandled, error) {
	var out SignalsHandled
	var lags []time.Duration
	var last time.Time
	for _, id := range ids {
		events, err := history(ctx, c, id, "")
		if err != nil {
			return out, err
		}
		l, done := handleLags(events, t0)
		lags = append(lags, l...)
		last = later(last, done)
	}
	out.Signals = len(lags)
	if out.Signals == 0 {
		return out, fmt.Errorf("no signal handled since %s", t0.Format(time.RFC3339))
	}
	slices.Sort(lags)
	out.LagP50, out.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	out.PerSecond = float64(out.Signals) / last.Sub(t0).Seconds()
	return out, nil
}

// timedEvent is a history event's type and time.
type timedEvent struct {
	typ enums.EventType
	at  time.Time
}

// handleLags returns, for one workflow's history, how long after each
// signal since t0 the workflow was done with it, and when the last one
// was: the signals that came before a workflow task completed are done at
// the last task completed before the next signal (a signal that finds no
// task completed after it is not counted).
func handleLags(events []timedEvent, t0 time.Time) (lags []time.Duration, last time.Time) {
	var signaled []time.Time // waiting for the workflow's reaction
	var done time.Time
	flush := func() {
		for _, at := range signaled {
			lags = append(lags, done.Sub(at))
		}
		last = later(last, done)
		signaled, done = nil, time.Time{}
	}
	for _, ev := range events {
		switch {
		case ev.at.Before(t0):
		case ev.typ == enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			if !done.IsZero() { // a task ran since the signals before: their reaction ended
				flush()
			}
			signaled = append(signaled, ev.at)
		case ev.typ == enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && len(signaled) > 0:
			done = ev.at
		}
	}
	if !done.IsZero() {
		flush()
	}
	return lags, last
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
