package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/api"
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
