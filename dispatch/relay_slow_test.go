package dispatch_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/store"
)

// slowDelivery is a delivery function whose "slow" entry blocks until
// released; every other entry goes at once.
type slowDelivery struct {
	started chan struct{} // closed when the slow entry is in flight
	release chan struct{}
	mu      sync.Mutex
	done    []string
}

func newSlowDelivery() *slowDelivery {
	return &slowDelivery{started: make(chan struct{}), release: make(chan struct{})}
}

func (s *slowDelivery) deliver(_ context.Context, row store.OutboxRow) error {
	if row.Key == "slow" {
		close(s.started)
		<-s.release
	}
	s.mu.Lock()
	s.done = append(s.done, row.Key)
	s.mu.Unlock()
	return nil
}

// waitDelivered waits (10 s at most) until the entry key is marked
// delivered in the outbox, and reports whether it was.
func waitDelivered(t *testing.T, db *store.DB, key string) bool {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var delivered bool
		if err := db.Pool.QueryRow(context.Background(), `SELECT delivered_at IS NOT NULL FROM outbox WHERE key = $1`, key).
			Scan(&delivered); err != nil {
			t.Fatal(err)
		}
		if delivered {
			return true
		}
	}
	return false
}

// TestSlowDeliveryDoesNotHoldUpItsBatch: in one batch, an entry of
// another workflow is marked delivered while a slow delivery (an update
// waiting for a busy workflow) is still in flight, not when the slowest
// of the batch ends.
func TestSlowDeliveryDoesNotHoldUpItsBatch(t *testing.T) {
	db := testenv.DB(t)
	// The relay's first entry goes alone (a new relay probes): then the
	// slow and the fast one go together.
	enqueue(t, db, "subscription:probe", "probe")
	enqueue(t, db, "subscription:slow", "slow")
	enqueue(t, db, "subscription:fast", "fast")
	d := newSlowDelivery()
	relay := dispatch.NewRelay(db, d.deliver, quietLog())
	done := make(chan error, 1)
	go func() { _, err := relay.DeliverPending(context.Background()); done <- err }()
	<-d.started
	marked := waitDelivered(t, db, "fast")
	close(d.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !marked {
		t.Fatal("the fast entry was not marked delivered while the slow one was in flight")
	}
	if !waitDelivered(t, db, "slow") {
		t.Fatal("the slow entry was not marked delivered once its delivery ended")
	}
}

// TestRelayClaimsMoreWhileADeliveryIsSlow: a running relay delivers (and
// marks) an entry written while a slow delivery of another workflow is in
// flight, without waiting for it; the slow workflow's next entry waits
// for its predecessor.
func TestRelayClaimsMoreWhileADeliveryIsSlow(t *testing.T) {
	db := testenv.DB(t)
	enqueue(t, db, "subscription:probe", "probe")
	enqueue(t, db, "subscription:slow", "slow")
	d := newSlowDelivery()
	relay := dispatch.NewRelay(db, d.deliver, quietLog())
	relay.Poll = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); relay.Run(ctx) }()
	defer func() { cancel(); <-stopped }()
	<-d.started
	enqueue(t, db, "subscription:slow", "after-slow")
	enqueue(t, db, "subscription:other", "other")
	relay.Kick()
	marked := waitDelivered(t, db, "other")
	d.mu.Lock()
	overtook := slices.Contains(d.done, "after-slow")
	d.mu.Unlock()
	close(d.release)
	if !marked {
		t.Fatal("an entry written while a slow delivery was in flight was not delivered before it ended")
	}
	if overtook {
		t.Fatal("the slow workflow's next entry was delivered before the slow one ended")
	}
	if !waitDelivered(t, db, "slow") || !waitDelivered(t, db, "after-slow") {
		t.Fatal("the slow workflow's entries were not delivered once the slow one ended")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, j := slices.Index(d.done, "slow"), slices.Index(d.done, "after-slow"); i < 0 || j < i {
		t.Fatalf("delivered %v: after-slow must follow slow", d.done)
	}
}

// TestCrashedRelaysEntriesGoAgainAfterTheirLease: a relay that claimed
// entries and died before marking them holds them (and its workflows'
// later entries) until their lease ends; then another relay delivers them
// all, each workflow's in order. Nothing is lost.
func TestCrashedRelaysEntriesGoAgainAfterTheirLease(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	enqueue(t, db, "subscription:a", "a1", "a2")
	enqueue(t, db, "subscription:b", "b1")
	if rows, err := db.LeaseOutbox(ctx, 10, 10); err != nil || len(rows) != 3 {
		t.Fatalf("the crashed relay's claim: %d rows, %v; want 3", len(rows), err)
	}
	enqueue(t, db, "subscription:a", "a3") // written after the crash: waits behind a1 and a2
	var mu sync.Mutex                      // lanes deliver concurrently
	var delivered []string
	relay := dispatch.NewRelay(db, func(_ context.Context, row store.OutboxRow) error {
		mu.Lock()
		defer mu.Unlock()
		delivered = append(delivered, row.Key)
		return nil
	}, quietLog())
	if n, err := relay.DeliverPending(ctx); err != nil || n != 0 {
		t.Fatalf("while the lease runs: %d delivered (%v), %v; want none", n, delivered, err)
	}
	db.SetClock(func() time.Time { return time.Now().Add(store.OutboxLease + time.Second) })
	for range 3 {
		if _, err := relay.DeliverPending(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if i, j, k := slices.Index(delivered, "a1"), slices.Index(delivered, "a2"), slices.Index(delivered, "a3"); len(delivered) != 4 ||
		i < 0 || j < i || k < j || !slices.Contains(delivered, "b1") {
		t.Fatalf("after the lease: delivered %v, want a1, a2, a3 in order and b1, once each", delivered)
	}
	stats, err := db.OutboxStats(ctx)
	if err != nil || stats.Pending != 0 {
		t.Fatalf("stats %+v, %v: entries left behind", stats, err)
	}
}
