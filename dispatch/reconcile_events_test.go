package dispatch

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// newestFirst is a provider whose list of events comes newest first, as
// Stripe's GET /v1/events does.
type newestFirst struct {
	kudos.ProviderLedger
	events []kudos.ProviderEvent // oldest first
}

func (p newestFirst) ListEvents(_ context.Context, _, _ time.Time, fn func(kudos.ProviderEvent) error) error {
	for i := len(p.events) - 1; i >= 0; i-- {
		if err := fn(p.events[i]); err != nil {
			return err
		}
	}
	return nil
}

func (p newestFirst) ReadEvent(_ context.Context, ev kudos.ProviderEvent) (*kudos.PaymentEvent, error) {
	return &kudos.PaymentEvent{EventID: ev.ID, OccurredAt: ev.Created}, nil
}

// recordingStore knows no event and keeps the order they are recorded in.
type recordingStore struct {
	ProviderLedgerStore
	recorded []string
}

func (s *recordingStore) RecordedEvents(context.Context, []string) (map[string]bool, error) {
	return map[string]bool{}, nil
}

func (s *recordingStore) RecordPaymentEvent(_ context.Context, ev kudos.PaymentEvent, _ func(kudos.PaymentEvent) store.OutboxEntry) (bool, error) {
	s.recorded = append(s.recorded, ev.EventID)
	return true, nil
}

// TestEventsNeverDeliveredAreRecordedOldestFirst: the reconciliation
// records the events the webhook never delivered, and the outbox hands an
// account's events to its workflow in the order they were recorded. Listed
// newest first, a payment's dispute or returned debit reached the workflow
// before the payment itself: found no paid invoice, it changed nothing, and
// the payment applied after it left the plan running on money taken back.
func TestEventsNeverDeliveredAreRecordedOldestFirst(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	p := newestFirst{events: []kudos.ProviderEvent{
		{ID: "evt_paid", Type: "checkout.session.completed", Created: at},
		{ID: "evt_dispute_opened", Type: "charge.dispute.created", Created: at.Add(time.Hour)},
		{ID: "evt_dispute_lost", Type: "charge.dispute.closed", Created: at.Add(2 * time.Hour)},
	}}
	db := &recordingStore{}
	r := &ProviderReconciler{Provider: p, Name: "stripe", DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var rep workflows.ProviderReconcileReport
	if err := r.events(context.Background(), at.Add(-time.Hour), at.Add(3*time.Hour), &rep, func(string, int) {}); err != nil {
		t.Fatal(err)
	}
	want := []string{"evt_paid", "evt_dispute_opened", "evt_dispute_lost"}
	if len(db.recorded) != len(want) {
		t.Fatalf("recorded %v, want %v", db.recorded, want)
	}
	for i := range want {
		if db.recorded[i] != want[i] {
			t.Fatalf("recorded %v, want %v: oldest first", db.recorded, want)
		}
	}
}
