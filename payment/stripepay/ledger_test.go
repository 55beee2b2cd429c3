package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// Issue 36 item 1: the events of off-session charges and refunds, in
// Stripe's own shapes, on stripe-mock (canned answers where a test needs
// an object's current state or metadata, which stripe-mock cannot keep).

// movementEventJSON is a Stripe event of type typ about object (its JSON).
func movementEventJSON(id, typ string, created int64, object string) []byte {
	return fmt.Appendf(nil, `{"id":%q,"object":"event","api_version":"2024-06-20","created":%d,"livemode":false,
		"pending_webhooks":1,"request":{"id":null,"idempotency_key":null},"type":%q,"data":{"object":%s}}`, id, created, typ, object)
}

// intentJSON is PaymentIntent pi_1 as Stripe answers it.
func intentJSON(status, metadata string) string {
	return fmt.Sprintf(`{"id":"pi_1","object":"payment_intent","amount":21780,"amount_received":21780,"currency":"eur",
		"customer":"cus_1","off_session":true,"status":%q,"metadata":%s}`, status, metadata)
}

// refundJSON is a refund of pi_1 as Stripe answers it.
func refundJSON(id string, amount, created int64, status, metadata string) string {
	return fmt.Sprintf(`{"id":%q,"object":"refund","amount":%d,"charge":"ch_1","created":%d,"currency":"eur",
		"payment_intent":"pi_1","reason":"requested_by_customer","status":%q,"metadata":%s}`, id, amount, created, status, metadata)
}

func TestParseChargeEvents(t *testing.T) {
	account := uuid.New()
	renewal := fmt.Sprintf(`{"account_id":%q,"charge_id":"renewal:%s:2026-03-02T12:00:00Z"}`, account, account)
	checkout := fmt.Sprintf(`{"account_id":%q,"checkout_id":"chk_1","purpose":"subscription"}`, account)
	created := time.Now().Add(-time.Minute).Unix()
	for _, tc := range []struct {
		name, typ, eventStatus string
		current                string // GET /v1/payment_intents/pi_1; "" : stripe-mock's (no metadata)
		want                   kudos.PaymentOutcome
	}{
		{name: "succeeded", typ: "payment_intent.succeeded", eventStatus: "succeeded", current: intentJSON("succeeded", renewal), want: kudos.PaymentPaid},
		{name: "processing", typ: "payment_intent.processing", eventStatus: "processing", current: intentJSON("processing", renewal), want: kudos.PaymentPending},
		{name: "failed", typ: "payment_intent.payment_failed", eventStatus: "requires_payment_method", current: intentJSON("requires_payment_method", renewal), want: kudos.PaymentFailed},
		{name: "requires action", typ: "payment_intent.requires_action", eventStatus: "requires_action", current: intentJSON("requires_action", renewal), want: kudos.PaymentFailed},
		// A late processing event of a debit that has settled since: its current state decides.
		{name: "stale processing event", typ: "payment_intent.processing", eventStatus: "processing", current: intentJSON("succeeded", renewal), want: kudos.PaymentPaid},
		// A checkout's PaymentIntent: its session's events tell it.
		{name: "a checkout's payment", typ: "payment_intent.succeeded", eventStatus: "succeeded", current: intentJSON("succeeded", checkout)},
		{name: "not Kudos's (stripe-mock's own)", typ: "payment_intent.succeeded", eventStatus: "succeeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var answers map[string]canned
			if tc.current != "" {
				answers = map[string]canned{"GET /v1/payment_intents/pi_1": {200, tc.current}}
			}
			p, rec, _ := newTestProvider(t, answers)
			payload := movementEventJSON("evt_pi", tc.typ, created, intentJSON(tc.eventStatus, renewal))
			ev, err := p.ParseWebhook(context.Background(), payload, sign(payload, testWebhookSecret, time.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rec.find(http.MethodGet, "/v1/payment_intents/pi_1")); n != 1 {
				t.Errorf("%d reads of the PaymentIntent, want 1", n)
			}
			if tc.want == "" {
				if ev != nil {
					t.Fatalf("event %+v, want none", ev)
				}
				return
			}
			want := kudos.PaymentEvent{EventID: "evt_pi", Provider: "stripe", AccountID: account, Outcome: tc.want,
				OccurredAt: time.Unix(created, 0).UTC(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge,
					ChargeID: "renewal:" + account.String() + ":2026-03-02T12:00:00Z", PaymentID: "pi_1"}}
			var amount *kudos.Money
			if ev != nil {
				amount, ev.Amount = ev.Amount, nil
			}
			if ev == nil || *ev != want {
				t.Fatalf("event %+v, want %+v", ev, want)
			}
			// A charge paid carries what was received: a charge nobody owes
			// any more (a stray renewal charge, one of an erased account) is
			// given back in full from it, and without it was left to an
			// operator.
			if tc.want == kudos.PaymentPaid && (amount == nil || *amount != (kudos.Money{Amount: 21780, Currency: "EUR"})) {
				t.Fatalf("paid charge's amount %+v, want EUR 217.80", amount)
			}
		})
	}
}

func TestParseRefundEvents(t *testing.T) {
	account := uuid.New()
	checkout := fmt.Sprintf(`{"account_id":%q,"checkout_id":"chk_1","purpose":"subscription"}`, account)
	renewal := fmt.Sprintf(`{"account_id":%q,"charge_id":"renewal:x"}`, account)
	created := time.Now().Add(-time.Minute).Unix()
	charge := `{"id":"ch_1","object":"charge","amount":21780,"amount_refunded":1000,"currency":"eur","payment_intent":"pi_1","refunded":false,"status":"succeeded"}`
	list := func(refunds ...string) string {
		body := `{"object":"list","url":"/v1/refunds","has_more":false,"data":[`
		for i, r := range refunds {
			if i > 0 {
				body += ","
			}
			body += r
		}
		return body + "]}"
	}
	for _, tc := range []struct {
		name, typ, object string
		answers           map[string]canned
		want              *kudos.LedgerMovement
		wantCheckout      string
	}{
		{name: "dashboard refund of a checkout's payment", typ: "charge.refunded", object: charge, answers: map[string]canned{
			"GET /v1/refunds":              {200, list(refundJSON("re_2", 500, created+60, "succeeded", "{}"), refundJSON("re_1", 1000, created-5, "succeeded", "{}"))},
			"GET /v1/payment_intents/pi_1": {200, intentJSON("succeeded", checkout)}},
			want:         &kudos.LedgerMovement{Movement: kudos.MovementRefund, PaymentID: "pi_1", ProviderRefundID: "re_1", Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}},
			wantCheckout: "chk_1"},
		{name: "refund of a renewal charge made by ops (our id in its metadata)", typ: "refund.updated",
			object: refundJSON("re_3", 2000, created, "succeeded", `{"refund_id":"ops-refund:abc"}`), answers: map[string]canned{
				"GET /v1/refunds/re_3":         {200, refundJSON("re_3", 2000, created, "succeeded", `{"refund_id":"ops-refund:abc"}`)},
				"GET /v1/payment_intents/pi_1": {200, intentJSON("succeeded", renewal)}},
			want: &kudos.LedgerMovement{Movement: kudos.MovementRefund, ChargeID: "renewal:x", PaymentID: "pi_1", ProviderRefundID: "re_3",
				RefundID: "ops-refund:abc", Amount: &kudos.Money{Amount: 2000, Currency: "EUR"}}},
		// Two dashboard refunds of one charge in the same second: charge.refunded
		// cannot tell them apart (both are its newest), refund.created names each.
		{name: "the second of two refunds made in one second", typ: "refund.created",
			object: refundJSON("re_6", 700, created, "succeeded", "{}"), answers: map[string]canned{
				"GET /v1/refunds":              {200, list(refundJSON("re_7", 300, created, "succeeded", "{}"), refundJSON("re_6", 700, created, "succeeded", "{}"))},
				"GET /v1/refunds/re_6":         {200, refundJSON("re_6", 700, created, "succeeded", "{}")},
				"GET /v1/payment_intents/pi_1": {200, intentJSON("succeeded", checkout)}},
			want:         &kudos.LedgerMovement{Movement: kudos.MovementRefund, PaymentID: "pi_1", ProviderRefundID: "re_6", Amount: &kudos.Money{Amount: 700, Currency: "EUR"}},
			wantCheckout: "chk_1"},
		{name: "a refund that failed", typ: "refund.updated", object: refundJSON("re_4", 2000, created, "failed", "{}"), answers: map[string]canned{
			"GET /v1/refunds/re_4": {200, refundJSON("re_4", 2000, created, "failed", "{}")}}},
		{name: "a refund of a renewal charge that failed after it was made", typ: "refund.updated",
			object: refundJSON("re_5", 2000, created, "failed", "{}"), answers: map[string]canned{
				"GET /v1/refunds/re_5":         {200, refundJSON("re_5", 2000, created, "failed", `{"refund_id":"ops-refund:abc"}`)},
				"GET /v1/payment_intents/pi_1": {200, intentJSON("succeeded", renewal)}},
			want: &kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ChargeID: "renewal:x", PaymentID: "pi_1", ProviderRefundID: "re_5",
				RefundID: "ops-refund:abc", Amount: &kudos.Money{Amount: 2000, Currency: "EUR"}, Reason: "failed"}},
		// Stripe's own event for it: refund.failed.
		{name: "a refund.failed event", typ: "refund.failed",
			object: refundJSON("re_8", 2000, created, "failed", "{}"), answers: map[string]canned{
				"GET /v1/refunds/re_8":         {200, refundJSON("re_8", 2000, created, "failed", `{"refund_id":"ops-refund:abc"}`)},
				"GET /v1/payment_intents/pi_1": {200, intentJSON("succeeded", renewal)}},
			want: &kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ChargeID: "renewal:x", PaymentID: "pi_1", ProviderRefundID: "re_8",
				RefundID: "ops-refund:abc", Amount: &kudos.Money{Amount: 2000, Currency: "EUR"}, Reason: "failed"}},
		{name: "a payment Kudos did not take", typ: "charge.refunded", object: charge, answers: map[string]canned{
			"GET /v1/refunds": {200, list(refundJSON("re_1", 1000, created, "succeeded", "{}"))}}},
		// stripe-mock's own refunds and PaymentIntent: its shapes parse, and are no one's.
		{name: "stripe-mock's shapes", typ: "charge.refunded", object: charge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, _ := newTestProvider(t, tc.answers)
			payload := movementEventJSON("evt_re", tc.typ, created, tc.object)
			ev, err := p.ParseWebhook(context.Background(), payload, sign(payload, testWebhookSecret, time.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if ev != nil {
					t.Fatalf("event %+v, want none", ev)
				}
				return
			}
			if ev == nil || ev.EventID != "evt_re" || ev.AccountID != account || ev.Outcome != kudos.PaymentPaid || ev.CheckoutID != tc.wantCheckout {
				t.Fatalf("event %+v", ev)
			}
			got := ev.LedgerMovement
			if got.Amount == nil || *got.Amount != *tc.want.Amount {
				t.Fatalf("amount %+v, want %+v", got.Amount, tc.want.Amount)
			}
			got.Amount, tc.want.Amount = nil, nil
			if got != *tc.want {
				t.Fatalf("movement %+v, want %+v", got, *tc.want)
			}
		})
	}
}
