package store_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"kudos/internal/testenv"
	"kudos/store"
)

// TestRelayStopsAtTheFirstFailedDelivery: while Temporal is unreachable a
// round tries one entry, not the whole batch, and nothing is lost.
func TestRelayStopsAtTheFirstFailedDelivery(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	for _, key := range []string{"a", "b", "c"} {
		if err := db.Enqueue(ctx, store.OutboxEntry{Key: key, Kind: store.OutboxMail, Payload: map[string]string{"k": key}}); err != nil {
			t.Fatal(err)
		}
	}
	down := true
	var tried []string
	relay := store.NewRelay(db, func(_ context.Context, _, key string, _ []byte) error {
		tried = append(tried, key)
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
	db.Now = func() time.Time { return time.Now().Add(time.Hour) }
	if n, err := relay.DeliverPending(ctx); err != nil || n != 1 {
		t.Fatalf("after the backoff: %d, %v", n, err)
	}
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE delivered_at IS NULL`).Scan(&pending)
	if pending != 0 {
		t.Fatalf("%d entries lost", pending)
	}
}
