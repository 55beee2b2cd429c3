package bench

import (
	"slices"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
)

// TestHandleLags: each signal since t0 is done at the last workflow task
// completed before the next signal; signals that arrive together share it;
// one with no task completed after it is not counted.
func TestHandleLags(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	const (
		sig  = enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED
		done = enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
		act  = enums.EVENT_TYPE_ACTIVITY_TASK_COMPLETED
	)
	events := []timedEvent{
		{sig, at(-500)}, {done, at(-400)}, // before t0: not this run's
		{sig, at(100)}, {sig, at(150)}, {done, at(300)}, {act, at(350)}, {done, at(400)},
		{sig, at(1000)}, {done, at(1200)},
		{sig, at(2000)}, // never handled
	}
	lags, last := handleLags(events, t0)
	want := []time.Duration{300 * time.Millisecond, 250 * time.Millisecond, 200 * time.Millisecond}
	if !slices.Equal(lags, want) || !last.Equal(at(1200)) {
		t.Fatalf("lags %v, last %v; want %v, %v", lags, last, want, at(1200))
	}
}
