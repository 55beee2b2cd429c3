package store_test

import (
	"context"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testenv"
)

// TestProviderReconciliationCursor: the provider reconciliation remembers
// its cursor in Postgres. The first run reads the first window back; a run
// that did not finish (its worker lost) is resumed over the same window;
// the next run starts where the last finished one ended; and while one
// holds the provider's lock, another is refused (never two at once).
func TestProviderReconciliationCursor(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	first, err := db.BeginProviderReconciliation(ctx, "sandbox", now, 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !first.Since.Equal(now.Add(-48*time.Hour)) || !first.Until.Equal(now) || first.Resumed {
		t.Fatalf("first run %+v", first)
	}
	again, err := db.BeginProviderReconciliation(ctx, "sandbox", now.Add(time.Hour), 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || !again.Resumed || !again.Until.Equal(now) {
		t.Fatalf("an unfinished run begun again: %+v, want %+v resumed", again, first)
	}
	if err := db.FinishProviderReconciliation(ctx, first.ID, 3, map[string]int{"drift": 3}); err != nil {
		t.Fatal(err)
	}
	if n, err := db.LedgerDrift(ctx); err != nil || n != 3 {
		t.Fatalf("drift %d, %v", n, err)
	}
	next, err := db.BeginProviderReconciliation(ctx, "sandbox", now.Add(24*time.Hour), 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if next.ID == first.ID || !next.Since.Equal(now) || !next.Until.Equal(now.Add(24*time.Hour)) {
		t.Fatalf("next run %+v, want [%v, %v)", next, now, now.Add(24*time.Hour))
	}
	other, err := db.BeginProviderReconciliation(ctx, "stripe", now, 48*time.Hour)
	if err != nil || other.ID == next.ID || !other.Since.Equal(now.Add(-48*time.Hour)) {
		t.Fatalf("another provider's first run %+v, %v", other, err)
	}

	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- db.WithProviderLock(ctx, "sandbox", func() error { close(held); <-release; return nil })
	}()
	<-held
	err = db.WithProviderLock(ctx, "sandbox", func() error { t.Error("ran while another held the lock"); return nil })
	if kudos.ErrorCode(err) != kudos.EConflict {
		t.Fatalf("a second reconciliation meanwhile: %v, want EConflict", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ran := false
	if err := db.WithProviderLock(ctx, "sandbox", func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("after the first ended: ran %t, %v", ran, err)
	}
}
