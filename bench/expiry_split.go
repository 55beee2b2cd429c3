package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// splitSample is how many workflows of an expiry benchmark's side have
// their histories read for the lag split.
const splitSample = 100

// lagSplit says where a sample of an expiry benchmark's workflows spent
// the time from the instant to their outcome: each history's events from
// the deadline's TimerFired on, by position and type, with the p50 and p99
// of their times after the instant (for a timer fired late by the server,
// a task queued for the worker, a task or activity slow in the worker).
func lagSplit(ctx context.Context, c client.Client, ids, runs []string, at time.Time) (string, error) {
	type step struct {
		name string
		lags []time.Duration
	}
	var steps []*step
	sampled, other := 0, -1 // other: a sampled workflow without a timer fired after the instant
	// Every history is read for the tasks that went wrong; the split is
	// the sample's.
	wrong := map[string]int{}
	slowest, slowestAt := -1, time.Duration(0)
	every := max(1, len(ids)/splitSample)
	for i := range ids {
		after, err := eventsAfterTimer(ctx, c, ids[i], runs[i], at)
		if err != nil {
			return "", err
		}
		for _, ev := range after {
			if strings.HasSuffix(ev.name, "TimedOut") || strings.HasSuffix(ev.name, "Failed") {
				wrong[ev.name]++
			}
		}
		if len(after) > 0 && after[len(after)-1].lag > slowestAt {
			slowest, slowestAt = i, after[len(after)-1].lag
		}
		if i%every != 0 {
			continue
		}
		if after == nil {
			if other < 0 {
				other = i
			}
			continue
		}
		sampled++
		for k, ev := range after {
			if k == len(steps) {
				steps = append(steps, &step{name: ev.name})
			}
			if steps[k].name != ev.name { // histories differ from here on: only the common prefix
				steps = steps[:k]
				break
			}
			steps[k].lags = append(steps[k].lags, ev.lag)
		}
		if len(after) < len(steps) {
			steps = steps[:len(after)]
		}
	}
	parts := make([]string, 0, len(steps))
	for _, s := range steps {
		slices.Sort(s.lags)
		parts = append(parts, fmt.Sprintf("%s %.2f/%.2f", s.name, percentile(s.lags, 0.5).Seconds(), percentile(s.lags, 0.99).Seconds()))
	}
	out := fmt.Sprintf("%d histories, s after the instant p50/p99: %s", sampled, strings.Join(parts, ", "))
	if len(wrong) > 0 {
		out += fmt.Sprintf("; in all %d histories: %v", len(ids), wrong)
	}
	for _, x := range []struct {
		i    int
		what string
	}{{slowest, "the slowest"}, {other, "some without a timer fired after the instant, e.g."}} {
		if x.i < 0 {
			continue
		}
		all, err := historyEvents(ctx, c, ids[x.i], runs[x.i], at)
		if err != nil {
			return "", err
		}
		out += fmt.Sprintf("; %s %s: %v", x.what, ids[x.i], all)
	}
	return out, nil
}

// splitEvent is one history event after the deadline's timer fired.
type splitEvent struct {
	name string
	lag  time.Duration
}

// waitSettled waits until every workflow of ids has completed its first
// workflow task (so its timer is set: four events in its history), asking
// again, once a second, only those that had not. It returns how long after
// the instant that was (0 when it was before), and each workflow's run
// then: the one whose timer the instant fires, even if it continues as new.
// A deadline measured from an instant that finds the workflows' first tasks
// still queued would measure the set-up's backlog.
func waitSettled(ctx context.Context, c client.Client, ids []string, at time.Time) (float64, []string, error) {
	runs := make([]string, len(ids))
	pending := make([]int, len(ids))
	for i := range pending {
		pending[i] = i
	}
	for len(pending) > 0 {
		busy := make([]bool, len(pending))
		load := RunN(ctx, startConcurrency, len(pending), func(ctx context.Context, k int) error {
			i := pending[k]
			d, err := c.DescribeWorkflowExecution(ctx, ids[i], "")
			info := d.GetWorkflowExecutionInfo()
			busy[k] = err == nil && info.GetHistoryLength() < 4
			runs[i] = info.GetExecution().GetRunId()
			return err
		})
		if load.Errors > 0 {
			return 0, nil, fmt.Errorf("describing the workflows: %s", load.FirstError)
		}
		var next []int
		for k, b := range busy {
			if b {
				next = append(next, pending[k])
			}
		}
		if pending = next; len(pending) > 0 {
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return 0, nil, ctx.Err()
			}
		}
	}
	return max(0, time.Since(at).Seconds()), runs, nil
}

// history returns the events of run of workflow id ("": its newest run)
// as types and times.
func history(ctx context.Context, c client.Client, id, run string) ([]timedEvent, error) {
	it := c.GetWorkflowHistory(ctx, id, run, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var out []timedEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", id, err)
		}
		out = append(out, timedEvent{ev.GetEventType(), ev.GetEventTime().AsTime()})
	}
	return out, nil
}

// eventName is an event type as the split prints it ("TimerFired").
func eventName(t enums.EventType) string { return strings.TrimPrefix(t.String(), "EVENT_TYPE_") }

// historyEvents lists the events of workflow id with their times after
// the instant.
func historyEvents(ctx context.Context, c client.Client, id, run string, at time.Time) ([]string, error) {
	events, err := history(ctx, c, id, run)
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = fmt.Sprintf("%s@%.2f", eventName(ev.typ), ev.at.Sub(at).Seconds())
	}
	return out, err
}

// eventsAfterTimer returns the events of run of workflow id from its first
// timer fired at or after the instant on (nil when none fired).
func eventsAfterTimer(ctx context.Context, c client.Client, id, run string, at time.Time) ([]splitEvent, error) {
	events, err := history(ctx, c, id, run)
	var out []splitEvent
	for _, ev := range events {
		if out == nil && (ev.typ != enums.EVENT_TYPE_TIMER_FIRED || ev.at.Before(at.Add(-time.Second))) {
			continue
		}
		out = append(out, splitEvent{name: eventName(ev.typ), lag: ev.at.Sub(at)})
	}
	return out, err
}
