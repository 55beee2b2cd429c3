package api_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"kudos/dispatch"
	"kudos/store"
	"kudos/workflows"
)

// pagedStore is the reconciliation's store that records where every page
// read starts and, on read number killAt (1-based), stands still until
// the worker is killed (kill closed or the attempt's context ended).
type pagedStore struct {
	dispatch.ReconcileStore
	killAt        int
	reached, kill chan struct{}

	mu     sync.Mutex
	afters []uuid.UUID
}

func (s *pagedStore) SubscriptionStatusPage(ctx context.Context, after uuid.UUID, limit int) ([]store.SubscriptionStatus, error) {
	s.mu.Lock()
	s.afters = append(s.afters, after)
	n := len(s.afters)
	s.mu.Unlock()
	if n == s.killAt {
		close(s.reached)
		select {
		case <-s.kill:
		case <-ctx.Done():
		}
		return nil, errors.New("the worker was killed mid-sweep")
	}
	return s.ReconcileStore.SubscriptionStatusPage(ctx, after, limit)
}

// reads returns where the page reads started, in order.
func (s *pagedStore) reads() []uuid.UUID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]uuid.UUID(nil), s.afters...)
}

// TestReconcileSweepResumesAfterTheWorkerIsKilled (issue 39 item 1): the
// Schedule's sweep walks the accounts in keyset pages (3 here), continues
// as new every few pages (4 here), and heartbeats where it is after every
// page. The worker is killed while reading the third page; the attempt on
// the next worker resumes after a page the killed one had walked, not from
// the first account, and the sweep's report counts every account once.
func TestReconcileSweepResumesAfterTheWorkerIsKilled(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.worker.Stop() // only this test's workers serve the queue
	ctx := context.Background()
	if _, err := h.db.Pool.Exec(ctx, `WITH a AS (INSERT INTO accounts (id, name) SELECT gen_random_uuid(), 'sweep ' || i
		FROM generate_series(1, 20) i RETURNING id)
		INSERT INTO subscriptions (account_id, plan, show_status) SELECT id, 'TRIAL', 'trial_expired' FROM a`); err != nil {
		t.Fatal(err)
	}
	var total int
	if err := h.db.Pool.QueryRow(ctx, `SELECT count(*) FROM subscriptions s JOIN accounts a ON a.id = s.account_id
		WHERE a.deleted_at IS NULL`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := &pagedStore{ReconcileStore: h.db, killAt: 3, reached: make(chan struct{}), kill: make(chan struct{})}
	sweepWith := func(db dispatch.ReconcileStore) *dispatch.Reconciler {
		return &dispatch.Reconciler{Temporal: h.tc, DB: db, Log: log, PageSize: 3, PagesPerRun: 4}
	}
	first := *h.acts
	first.Reconciler = sweepWith(db)
	killed := h.startWorker(&first)

	id := "reconcile-sweep-" + uuid.NewString()
	run, err := h.tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: h.queue}, workflows.Reconcile,
		workflows.ReconcileProgress{})
	if err != nil {
		t.Fatal(err)
	}
	firstRun := run.GetRunID() // Get follows the chain: the ID changes
	select {
	case <-db.reached:
	case <-time.After(time.Minute):
		t.Fatal("the sweep never reached its third page")
	}
	before := db.reads()
	close(db.kill)
	killed.Stop()

	second := *h.acts
	second.Reconciler = sweepWith(db)
	h.startWorker(&second)
	var rep workflows.ReconcileReport
	getCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := run.Get(getCtx, &rep); err != nil {
		t.Fatal(err)
	}
	reads := db.reads()
	resumedAt := reads[len(before)]
	if resumedAt == uuid.Nil {
		t.Fatalf("the sweep started over after the worker was killed: page reads %v", reads)
	}
	if resumedAt != before[1] && resumedAt != before[2] {
		t.Fatalf("the sweep resumed after %s, want after a page the killed worker walked (%s or %s)", resumedAt, before[1], before[2])
	}
	pages := (total + 2) / 3
	if len(reads) > pages+3 {
		t.Fatalf("%d page reads for %d pages: pages read again beyond the one lost", len(reads), pages)
	}
	if rep.Walked != total {
		t.Fatalf("the sweep walked %d accounts, want each of the %d once", rep.Walked, total)
	}
	if last := h.currentRun(id); last == firstRun {
		t.Fatal("the sweep of 7 pages at 4 pages a run did not continue as new")
	}
	h.recordHistory(id, firstRun, "reconcile_paged_resumed.json")
	h.recordHistory(id, "", "reconcile_paged_last.json")
}

// TestTheSubscriptionSweepSaysWhenItLastFinished: the sweep that restarts
// lost subscription workflows had no gauge of when it last finished (the
// provider reconciliation has one): a sweep failing at every beat, or
// never reaching its last page, was seen only by its failures' rate.
// kudos_subscriptions_reconciled_age_seconds is absent before any sweep
// and a few seconds right after one.
func TestTheSubscriptionSweepSaysWhenItLastFinished(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	if age, ok := h.outboxGauge("kudos_subscriptions_reconciled_age_seconds"); ok {
		t.Fatalf("kudos_subscriptions_reconciled_age_seconds %v before any sweep, want none", age)
	}
	sweep := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := sweep.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if age, ok := h.outboxGauge("kudos_subscriptions_reconciled_age_seconds"); !ok || age < 0 || age > 60 {
		t.Fatalf("kudos_subscriptions_reconciled_age_seconds %v (%v) right after a sweep, want a few seconds", age, ok)
	}
}
