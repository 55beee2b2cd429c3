package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/api"
	"kudos/store"
)

// fakeWebhooks accepts the signature "good" and announces ev.
type fakeWebhooks struct{ ev *kudos.PaymentEvent }

func (f fakeWebhooks) ParseWebhook(_ context.Context, _ []byte, sig string) (*kudos.PaymentEvent, error) {
	if sig != "good" {
		return nil, kudos.Errorf(kudos.EBadRequest, "bad signature")
	}
	return f.ev, nil
}

func TestStripeWebhookIntakeStoresEachEventOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, account := h.signedUpUser("hook@example.com")
	ev := &kudos.PaymentEvent{EventID: "evt_1", Provider: "stripe", CheckoutID: "co_x", AccountID: uuid.MustParse(account),
		Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	h.srv.Webhooks = fakeWebhooks{ev: ev}
	h = newHarnessFrom(t, h)
	var _ api.WebhookParser = fakeWebhooks{}

	h.expect(h.do("POST", "/v1/webhooks/stripe", `{"id":"evt_1"}`, "", "Stripe-Signature", "bad"), 400)
	for range 5 { // Stripe delivers twice (and more)
		h.expect(h.do("POST", "/v1/webhooks/stripe", `{"id":"evt_1"}`, "", "Stripe-Signature", "good"), 200)
	}
	var events, deliveries int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM payment_events WHERE event_id = 'evt_1'`).Scan(&events)
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'payment_event'`).Scan(&deliveries)
	if events != 1 || deliveries != 1 {
		t.Fatalf("%d events, %d deliveries: want each once", events, deliveries)
	}
	// An event of no interest is acknowledged and changes nothing.
	h.srv.Webhooks = fakeWebhooks{}
	h = newHarnessFrom(t, h)
	h.expect(h.do("POST", "/v1/webhooks/stripe", `{}`, "", "Stripe-Signature", "good"), 200)
}

// TestPaymentDeliveredOnceTheWorkflowAcceptsIt: a payment event counts as
// delivered only once its workflow has accepted it (recorded in the
// history). With no worker the entry stays pending, whatever the relay
// tried; once a worker is back the payment is applied, and a second
// delivery of the same entry (a relay that died before marking it)
// changes nothing.
func TestPaymentDeliveredOnceTheWorkflowAcceptsIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("accepted@example.com", "PRO")
	h.worker.Stop()
	h.expect(h.payWith(href, "4242424242424242"), 200)
	var row store.OutboxRow
	read := func() (delivered *time.Time) {
		t.Helper()
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT id, key, kind, workflow_id, payload, attempts, delivered_at
			FROM outbox WHERE kind = 'payment_event' AND workflow_id = $1`, "subscription:"+account).
			Scan(&row.ID, &row.Key, &row.Kind, &row.WorkflowID, &row.Payload, &row.Attempts, &delivered); err != nil {
			t.Fatal(err)
		}
		return delivered
	}
	eventually(t, "a delivery attempt", func() bool { read(); return row.Attempts > 0 })
	if read() != nil {
		t.Fatal("the payment event counts as delivered while no worker could accept it")
	}
	if h.subscription(token, account)["plan"] == "PRO" {
		t.Fatal("applied without a worker")
	}

	h.worker = h.startWorker(h.acts)
	// The relay's next try, without waiting out its backoff.
	retryNow := func() {
		t.Helper()
		if _, err := h.db.Pool.Exec(context.Background(), `UPDATE outbox SET next_attempt_at = now() WHERE id = $1`, row.ID); err != nil {
			t.Fatal(err)
		}
		h.srv.Outbox.Kick()
	}
	retryNow()
	// Up to a minute and a half: the stopped worker's polls may still be
	// open at the server, which can hand the workflow task to one of them
	// and take it back only when that poll times out (60 s).
	eventuallyWithin(t, 90*time.Second, "the paid plan", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	retryNow() // tries during that minute may have grown the backoff
	eventually(t, "the entry delivered", func() bool { return read() != nil })
	if err := h.srv.Dispatcher.Deliver(context.Background(), row); err != nil {
		t.Fatalf("delivering the entry again: %v", err)
	}
	time.Sleep(time.Second) // a second application would show now
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid invoices, want 1", n)
	}
	var succeeded int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'payment_succeeded'`,
		account).Scan(&succeeded)
	if succeeded != 1 {
		t.Fatalf("%d payment_succeeded events, want 1", succeeded)
	}
}
