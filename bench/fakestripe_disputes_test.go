package bench

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85/webhook"

	"kudos"
)

// TestFakeStripeDisputesParseAsStripes: the dispute phase's events, read
// by the real adapter with the fake Stripe behind it, are disputes of the
// account's checkout payment at the status the event says (what the
// intake benchmark counts on).
func TestFakeStripeDisputesParseAsStripes(t *testing.T) {
	f, p, account := paidFakeSession(t)
	disputes := f.DisputeAll(map[string]int64{account.String(): 1210, uuid.NewString(): 99})
	d, ok := disputes[account.String()]
	if !ok || len(disputes) != 1 {
		t.Fatalf("disputes %v", disputes)
	}
	for _, c := range []struct {
		typ, status string
		want        kudos.DisputeStatus
	}{
		{"charge.dispute.created", "needs_response", kudos.DisputeOpen},
		{"charge.dispute.closed", "won", kudos.DisputeWon},
		{"charge.dispute.closed", "lost", kudos.DisputeLost},
	} {
		body := d.Event("evt_"+c.status, c.typ, c.status, time.Now())
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: "whsec_bench"})
		ev, err := p.ParseWebhook(context.Background(), body, signed.Header)
		if err != nil {
			t.Fatal(err)
		}
		want := kudos.DisputeEvent{ID: d.ID, Status: c.want, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}, Payment: "co_1",
			Reason: "fraudulent"}
		if ev == nil || ev.AccountID != account || ev.Return != nil || ev.Dispute == nil || *ev.Dispute != want {
			t.Fatalf("%s %s: event %+v", c.typ, c.status, ev)
		}
	}
}
