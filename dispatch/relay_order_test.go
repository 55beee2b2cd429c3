package dispatch_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/store"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func enqueue(t *testing.T, db *store.DB, workflowID string, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := db.Enqueue(context.Background(), store.OutboxEntry{Key: k, Kind: dispatch.KindPaymentEvent, WorkflowID: workflowID,
			Payload: map[string]string{"k": k}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelayKeepsOrderAcrossRounds: a workflow's first entry failed and
// waits for its retry; its second must not overtake it in the next round.
func TestRelayKeepsOrderAcrossRounds(t *testing.T) {
	db := testenv.DB(t)
	enqueue(t, db, "subscription:a", "a1", "a2")
	enqueue(t, db, "subscription:b", "b1")
	var delivered []string
	fail := map[string]bool{"a1": true}
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		if fail[row.Key] {
			return errors.New("workflow refused the signal")
		}
		delivered = append(delivered, row.Key)
		return nil
	}, quietLog())
	if _, err := relay.DeliverPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	delivered = nil
	if _, err := relay.DeliverPending(context.Background()); err != nil { // a1 waits for its backoff
		t.Fatal(err)
	}
	for _, k := range delivered {
		if k == "a2" {
			t.Fatalf("a2 delivered while a1 waits for its retry: %v", delivered)
		}
	}
	fail["a1"] = false
	db.SetClock(func() time.Time { return time.Now().Add(time.Hour) })
	delivered = nil
	if _, err := relay.DeliverPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(delivered) < 2 || delivered[0] != "a1" || delivered[1] != "a2" {
		t.Fatalf("after the retry: %v, want a1 then a2", delivered)
	}
}

// TestRelayKeepsOrderAcrossProcesses: while one api process delivers a
// workflow's first entry, another must not deliver its second (written
// meanwhile).
func TestRelayKeepsOrderAcrossProcesses(t *testing.T) {
	db := testenv.DB(t)
	enqueue(t, db, "subscription:a", "a1")
	inFirst, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var order []string
	record := func(k string) { mu.Lock(); order = append(order, k); mu.Unlock() }
	slow := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		if row.Key == "a1" {
			enqueue(t, db, "subscription:a", "a2")
			close(inFirst)
			<-release
		}
		record(row.Key)
		return nil
	}, quietLog())
	other := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error { record("other:" + row.Key); return nil }, quietLog())
	done := make(chan error, 1)
	go func() { _, err := slow.DeliverPending(context.Background()); done <- err }()
	<-inFirst
	if _, err := other.DeliverPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, k := range order {
		if k == "other:a2" {
			t.Fatalf("the second process delivered a2 while a1 was being delivered: %v", order)
		}
	}
}

// TestRelayParksDeadLetters: an entry that cannot be delivered is parked
// with its error after MaxAttempts (at once when the failure is permanent),
// and the others keep flowing; a Temporal outage parks nothing.
func TestRelayParksDeadLetters(t *testing.T) {
	db := testenv.DB(t)
	enqueue(t, db, "subscription:bad", "bad")
	enqueue(t, db, "subscription:broken", "broken")
	enqueue(t, db, "subscription:good", "good")
	var delivered []string
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		switch row.Key {
		case "bad":
			return errors.New("namespace not found")
		case "broken":
			return dispatch.Permanent(errors.New("payload does not decode"))
		}
		delivered = append(delivered, row.Key)
		return nil
	}, quietLog())
	clock := time.Now()
	for range dispatch.MaxAttempts + 2 {
		db.SetClock(func() time.Time { return clock })
		if _, err := relay.DeliverPending(context.Background()); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(10 * time.Minute)
	}
	var deadAt *time.Time
	var attempts int
	var lastErr string
	for key, want := range map[string]int{"bad": dispatch.MaxAttempts, "broken": 1} {
		if err := db.Pool.QueryRow(context.Background(), `SELECT dead_at, attempts, coalesce(last_error, '') FROM outbox WHERE key = $1`, key).
			Scan(&deadAt, &attempts, &lastErr); err != nil {
			t.Fatal(err)
		}
		if deadAt == nil || attempts != want || lastErr == "" {
			t.Errorf("%s: dead_at %v after %d attempts (%q), want parked after %d", key, deadAt, attempts, lastErr, want)
		}
	}
	if len(delivered) != 1 {
		t.Errorf("delivered %v, want the good entry once", delivered)
	}
	stats, err := db.OutboxStats(context.Background())
	if err != nil || stats.Dead != 2 || stats.Pending != 0 {
		t.Errorf("stats %+v, %v", stats, err)
	}
}

// TestRelaysClaimSideBySide: while one relay delivers what it claimed, a
// second (another api process, or another claim loop) claims the other
// workflows' entries instead of finding them all taken.
func TestRelaysClaimSideBySide(t *testing.T) {
	db := testenv.DB(t)
	for _, w := range []string{"a", "b", "c", "d", "e", "f"} {
		enqueue(t, db, "subscription:"+w, w+"1")
	}
	ctx := context.Background()
	first, err := db.LeaseOutbox(ctx, 1, 1)
	if err != nil || len(first) != 1 || first[0].Key != "a1" {
		t.Fatalf("the first relay claimed %v (%v), want a1", first, err)
	}
	second, err := db.LeaseOutbox(ctx, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	var claimed []string
	for _, r := range second {
		claimed = append(claimed, r.Key)
	}
	if len(claimed) != 3 || slices.Contains(claimed, "a1") {
		t.Fatalf("the second relay claimed %v, want the next three entries (not a1, which the first holds)", claimed)
	}
}
