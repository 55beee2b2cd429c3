package dispatch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestRelayStopsAtTheFirstFailedDelivery: while Temporal is unreachable a
// round tries one entry, not the whole batch, and nothing is lost.
func TestRelayStopsAtTheFirstFailedDelivery(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	for _, key := range []string{"a", "b", "c"} {
		if err := db.Enqueue(ctx, store.OutboxEntry{Key: key, Kind: dispatch.KindMail, WorkflowID: "email:test:" + key, Payload: map[string]string{"k": key}}); err != nil {
			t.Fatal(err)
		}
	}
	down := true
	var tried []string
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		tried = append(tried, row.Key)
		if down {
			return errors.New("temporal unreachable")
		}
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))

	n, err := relay.DeliverPending(ctx)
	if err != nil || n != 1 || len(tried) != 1 {
		t.Fatalf("while down: attempted %d (%v), err %v; want one", n, tried, err)
	}
	var attempted, pending int
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE attempts > 0), count(*) FILTER (WHERE delivered_at IS NULL) FROM outbox`).Scan(&attempted, &pending)
	if attempted != 1 || pending != 3 {
		t.Fatalf("attempted %d, pending %d", attempted, pending)
	}
	down = false
	if n, err := relay.DeliverPending(ctx); err != nil || n != 2 {
		t.Fatalf("after recovery: %d, %v (the failed entry waits for its backoff)", n, err)
	}
	db.SetClock(func() time.Time { return time.Now().Add(time.Hour) })
	if n, err := relay.DeliverPending(ctx); err != nil || n != 1 {
		t.Fatalf("after the backoff: %d, %v", n, err)
	}
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE delivered_at IS NULL`).Scan(&pending)
	if pending != 0 {
		t.Fatalf("%d entries lost", pending)
	}
}

// TestRelayDeliversLanesConcurrentlyInOrder: entries for different workflows
// go out at the same time, entries for one workflow in the order they were
// written; after a failure nothing new starts (the rest of the failed lane
// above all), and what was not attempted stays pending.
func TestRelayDeliversLanesConcurrentlyInOrder(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := []string{"11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222", "33333333-3333-3333-3333-333333333333"}
	var keys []string
	for round := range 3 {
		for _, acc := range accounts {
			key := fmt.Sprintf("event-%s-%d", acc[:1], round)
			keys = append(keys, key)
			if err := db.Enqueue(ctx, store.OutboxEntry{Key: key, Kind: dispatch.KindPaymentEvent,
				WorkflowID: "subscription:" + acc, Payload: map[string]string{"account_id": acc}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var mu sync.Mutex
	var order []string
	inFlight, most := 0, 0
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		key := row.Key
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		inFlight--
		order = append(order, key)
		if key == "event-2-1" {
			return errors.New("refused")
		}
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := relay.DeliverPending(ctx); err != nil {
		t.Fatal(err)
	}
	if most < 2 {
		t.Errorf("at most %d deliveries at once: the lanes did not run concurrently", most)
	}
	// Each lane went out as a prefix of its entries, in order.
	pos := map[string]int{}
	for i, k := range order {
		pos[k] = i
	}
	for _, a := range []string{"1", "2", "3"} {
		last := -1
		for round := range 3 {
			p, tried := pos[fmt.Sprintf("event-%s-%d", a, round)]
			if !tried {
				for later := round + 1; later < 3; later++ {
					if _, gap := pos[fmt.Sprintf("event-%s-%d", a, later)]; gap {
						t.Errorf("lane %s skipped an entry: %v", a, order)
					}
				}
				break
			}
			if p < last {
				t.Errorf("lane %s out of order: %v", a, order)
			}
			last = p
		}
	}
	if _, tried := pos["event-2-2"]; tried {
		t.Errorf("event-2-2 was delivered after event-2-1 failed: %v", order)
	}
	// Delivered exactly what succeeded; everything else waits.
	for _, k := range keys {
		var delivered bool
		if err := db.Pool.QueryRow(ctx, `SELECT delivered_at IS NOT NULL FROM outbox WHERE key = $1`, k).Scan(&delivered); err != nil {
			t.Fatal(err)
		}
		_, tried := pos[k]
		if want := tried && k != "event-2-1"; delivered != want {
			t.Errorf("%s: delivered %v, want %v", k, delivered, want)
		}
	}
}

// TestHealthyRelayDeliversTheWholeBatchAtOnce: a relay whose last round
// went well sends every workflow's first entry at once; after a failure
// (and in its first round) it tries one entry alone first, so an outage
// costs one attempt per round, and it is back to whole batches once a
// round succeeds.
func TestHealthyRelayDeliversTheWholeBatchAtOnce(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	const lanes = 4
	enqueue := func(round int) {
		t.Helper()
		for lane := range lanes {
			key := fmt.Sprintf("r%d-w%d", round, lane)
			if err := db.Enqueue(ctx, store.OutboxEntry{Key: key, Kind: dispatch.KindMail, WorkflowID: fmt.Sprintf("email:test:%d:%d", round, lane),
				Payload: map[string]string{"k": key}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	down := false
	inFlight, want, most, tried := 0, 0, 0, 0
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		mu.Lock()
		defer mu.Unlock()
		inFlight, tried = inFlight+1, tried+1
		most = max(most, inFlight)
		cond.Broadcast()
		// Each delivery waits (two seconds at most: a probe sent alone
		// waits that long, a loaded machine may start a batch's goroutines
		// late) until as many as the round should send at once have been
		// in flight together, so that a batch sent at once is seen whole
		// and one sent alone alone.
		deadline := time.Now().Add(2 * time.Second)
		for most < want && time.Now().Before(deadline) {
			go func() { time.Sleep(10 * time.Millisecond); cond.Broadcast() }()
			cond.Wait()
		}
		inFlight--
		if down {
			return errors.New("temporal unreachable")
		}
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	round := func(name string, wantTried, atOnce int) {
		t.Helper()
		mu.Lock()
		most, tried, want = 0, 0, atOnce
		mu.Unlock()
		if _, err := relay.DeliverPending(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if tried != wantTried || most != atOnce {
			t.Fatalf("%s: %d tried, at most %d at once; want %d tried, %d at once", name, tried, most, wantTried, atOnce)
		}
	}

	enqueue(1)
	round("first round", lanes, lanes-1) // one alone, then the rest
	enqueue(2)
	round("healthy round", lanes, lanes)
	enqueue(3)
	down = true
	round("outage met by a healthy relay", lanes, lanes)
	enqueue(4)
	round("outage, next round", 1, 1)
	down = false
	db.SetClock(func() time.Time { return time.Now().Add(time.Hour) }) // past every backoff
	round("recovered", 2*lanes, 2*lanes-1)
	round("nothing left", 0, 0)
}
