package stripepay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// mockObject returns stripe-mock's own object at path (Stripe's shape of
// it, from Stripe's OpenAPI fixtures), decoded for editing.
func mockObject(t *testing.T, path string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, stripeMockURL(t)+path, nil)
	req.SetBasicAuth("sk_test_kudos", "")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil || res.StatusCode != 200 {
		t.Fatalf("stripe-mock %s: %d %s", path, res.StatusCode, body)
	}
	return obj
}

// stripeEvent is an event of type typ about obj, as Stripe sends it.
func stripeEvent(t *testing.T, id, typ string, created int64, obj map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2020-08-27", "created": created, "type": typ,
		"livemode": false, "pending_webhooks": 1, "data": map[string]any{"object": obj}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseWebhookDisputesAndReturns (issue 36 item 3): Stripe's dispute
// events (stripe-mock's dispute and charge objects, Stripe's own shapes)
// become dispute events of the payment Kudos made (found by the
// PaymentIntent's metadata, read again): opened while the network
// decides, won or lost when closed (an inquiry closed without a
// chargeback as won); a SEPA debit taken back (its charge.failed, or a
// SEPA dispute) is a returned payment. Events of payments Kudos did not
// make, and failures of cards, are acknowledged and ignored.
func TestParseWebhookDisputesAndReturns(t *testing.T) {
	account := uuid.New()
	checkoutPI := fmt.Sprintf(`{"id":"pi_kudos","object":"payment_intent","status":"succeeded","metadata":{"account_id":%q,"checkout_id":"co_1","purpose":"subscription"}}`, account)
	renewalPI := fmt.Sprintf(`{"id":"pi_kudos","object":"payment_intent","status":"succeeded","metadata":{"account_id":%q,"charge_id":"renewal:x:2027"}}`, account)
	created := time.Now().Add(-time.Minute).Unix()
	dispute := func(status, method string) map[string]any {
		d := mockObject(t, "/v1/disputes/dp_1")
		d["id"], d["status"], d["payment_intent"], d["amount"], d["currency"], d["reason"] = "dp_1", status, "pi_kudos", 21780, "eur", "fraudulent"
		d["payment_method_details"] = map[string]any{"type": method}
		return d
	}
	charge := func(method string) map[string]any {
		c := mockObject(t, "/v1/charges/ch_1")
		c["id"], c["status"], c["payment_intent"], c["amount"], c["currency"], c["failure_code"] = "ch_1", "failed", "pi_kudos", 21780, "eur", "insufficient_funds"
		c["payment_method_details"] = map[string]any{"type": method, method: map[string]any{}}
		return c
	}
	eur := kudos.Money{Amount: 21780, Currency: "EUR"}
	for _, tc := range []struct {
		name    string
		typ     string
		obj     map[string]any
		pi      string // canned PaymentIntent; "" : stripe-mock's (no Kudos metadata)
		dispute *kudos.DisputeEvent
		ret     *kudos.ReturnEvent
		wantGet bool
	}{
		{name: "dispute opened", typ: "charge.dispute.created", obj: dispute("needs_response", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeOpen, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		{name: "dispute of a renewal charge", typ: "charge.dispute.created", obj: dispute("under_review", "card"), pi: renewalPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeOpen, Amount: eur, Payment: "renewal:x:2027", Reason: "fraudulent"}},
		{name: "dispute lost", typ: "charge.dispute.closed", obj: dispute("lost", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeLost, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		{name: "dispute won", typ: "charge.dispute.closed", obj: dispute("won", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeWon, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		{name: "inquiry closed", typ: "charge.dispute.closed", obj: dispute("warning_closed", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeWon, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		// Stopped before it became a chargeback (Visa RDR): announced at once
		// as prevented, on its created event; nothing is taken back by it.
		{name: "dispute prevented", typ: "charge.dispute.created", obj: dispute("prevented", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeWon, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		{name: "prevented dispute closed", typ: "charge.dispute.closed", obj: dispute("prevented", "card"), pi: checkoutPI, wantGet: true,
			dispute: &kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeWon, Amount: eur, Payment: "co_1", Reason: "fraudulent"}},
		{name: "SEPA dispute: the bank took the debit back", typ: "charge.dispute.created", obj: dispute("lost", "sepa_debit"), pi: renewalPI,
			wantGet: true, ret: &kudos.ReturnEvent{ID: "dp_1", Payment: "renewal:x:2027", Amount: eur, Reason: "fraudulent"}},
		{name: "SEPA dispute closed", typ: "charge.dispute.closed", obj: dispute("lost", "sepa_debit"), pi: renewalPI},
		{name: "SEPA debit failed after it succeeded", typ: "charge.failed", obj: charge("sepa_debit"), pi: checkoutPI, wantGet: true,
			ret: &kudos.ReturnEvent{ID: "ch_1", Payment: "co_1", Amount: eur, Reason: "insufficient_funds"}},
		{name: "a declined card", typ: "charge.failed", obj: charge("card"), pi: checkoutPI},
		{name: "a dispute of a payment Kudos did not make", typ: "charge.dispute.created", obj: dispute("needs_response", "card"), wantGet: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := map[string]canned{}
			if tc.pi != "" {
				answers["GET /v1/payment_intents/pi_kudos"] = canned{200, tc.pi}
			}
			p, rec, _ := newTestProvider(t, answers)
			payload := stripeEvent(t, "evt_d", tc.typ, created, tc.obj)
			ev, err := p.ParseWebhook(context.Background(), payload, sign(payload, testWebhookSecret, time.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rec.find(http.MethodGet, "/v1/payment_intents/pi_kudos")); (n == 1) != tc.wantGet || n > 1 {
				t.Errorf("%d PaymentIntent reads, want read %v", n, tc.wantGet)
			}
			if tc.dispute == nil && tc.ret == nil {
				if ev != nil {
					t.Fatalf("event %+v, want none", ev)
				}
				return
			}
			if ev == nil || ev.EventID != "evt_d" || ev.AccountID != account || ev.CheckoutID != "" || ev.Outcome != "" ||
				!ev.OccurredAt.Equal(time.Unix(created, 0)) {
				t.Fatalf("event %+v", ev)
			}
			if tc.dispute != nil && (ev.Dispute == nil || *ev.Dispute != *tc.dispute || ev.Return != nil) {
				t.Fatalf("dispute %+v, want %+v", ev.Dispute, tc.dispute)
			}
			if tc.ret != nil && (ev.Return == nil || *ev.Return != *tc.ret || ev.Dispute != nil) {
				t.Fatalf("return %+v, want %+v", ev.Return, tc.ret)
			}
		})
	}
	t.Run("malformed dispute", func(t *testing.T) {
		p, _, _ := newTestProvider(t, nil)
		payload := []byte(fmt.Sprintf(`{"id":"evt_x","object":"event","created":%d,"type":"charge.dispute.created","data":{"object":{"id":7}}}`, created))
		_, err := p.ParseWebhook(context.Background(), payload, sign(payload, testWebhookSecret, time.Now()))
		if kudos.ErrorCode(err) != kudos.EBadRequest {
			t.Fatalf("err %v, want bad request", err)
		}
	})
}
