package stripepay

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// sign returns a Stripe-Signature header for payload, made like Stripe does.
func sign(payload []byte, secret string, at time.Time) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", at.Unix(), payload)
	return fmt.Sprintf("t=%d,v1=%s", at.Unix(), hex.EncodeToString(mac.Sum(nil)))
}

// eventJSON is a Stripe event about checkout session cs_1. Its API version
// is an old one on purpose: the provider must not depend on it.
func eventJSON(typ string, created int64) []byte {
	return fmt.Appendf(nil, `{"id":"evt_1","object":"event","api_version":"2020-08-27","created":%d,"type":%q,
		"data":{"object":{"id":"cs_1","object":"checkout.session","status":"open","payment_status":"unpaid"}}}`, created, typ)
}

// sessionJSON is checkout session cs_1 as Stripe answers it now.
func sessionJSON(status, paymentStatus, metadata string) string {
	return fmt.Sprintf(`{"id":"cs_1","object":"checkout.session","status":%q,"payment_status":%q,"metadata":%s}`, status, paymentStatus, metadata)
}

func TestParseWebhook(t *testing.T) {
	account := uuid.New()
	meta := fmt.Sprintf(`{"account_id":%q,"checkout_id":"chk_1","purpose":"subscription"}`, account)
	now := time.Now()
	created := now.Add(-time.Minute).Unix()
	for _, tc := range []struct {
		name     string
		typ      string
		session  string // canned answer of GET /v1/checkout/sessions/cs_1; "" means stripe-mock's
		tamper   bool
		secret   string
		signedAt time.Time
		header   string // overrides the computed header when set
		want     kudos.PaymentOutcome
		wantCode string
		wantGet  bool
	}{
		{name: "completed and paid", typ: "checkout.session.completed", session: sessionJSON("complete", "paid", meta), want: kudos.PaymentPaid, wantGet: true},
		{name: "setup completed", typ: "checkout.session.completed", session: sessionJSON("complete", "no_payment_required", meta), want: kudos.PaymentPaid, wantGet: true},
		{name: "completed, payment pending", typ: "checkout.session.completed", session: sessionJSON("complete", "unpaid", meta), want: kudos.PaymentPending, wantGet: true},
		{name: "async payment succeeded", typ: "checkout.session.async_payment_succeeded", session: sessionJSON("complete", "paid", meta), want: kudos.PaymentPaid, wantGet: true},
		{name: "async payment failed", typ: "checkout.session.async_payment_failed", session: sessionJSON("complete", "unpaid", meta), want: kudos.PaymentFailed, wantGet: true},
		{name: "expired", typ: "checkout.session.expired", session: sessionJSON("expired", "unpaid", meta), want: kudos.PaymentExpired, wantGet: true},
		{name: "late completed event of an expired session", typ: "checkout.session.completed", session: sessionJSON("expired", "unpaid", meta), want: kudos.PaymentExpired, wantGet: true},
		{name: "late failure of a session paid since", typ: "checkout.session.async_payment_failed", session: sessionJSON("complete", "paid", meta), want: kudos.PaymentPaid, wantGet: true},
		{name: "still open", typ: "checkout.session.completed", session: sessionJSON("open", "unpaid", meta), wantGet: true},
		{name: "unknown event type", typ: "customer.created", wantGet: false},
		// Sessions Kudos did not make are acknowledged and ignored.
		{name: "missing metadata (stripe-mock's session)", typ: "checkout.session.completed", wantGet: true},
		{name: "malformed account id", typ: "checkout.session.completed", session: sessionJSON("complete", "paid", `{"account_id":"nope","checkout_id":"chk_1"}`), wantGet: true},
		{name: "missing checkout id", typ: "checkout.session.completed", session: sessionJSON("complete", "paid", fmt.Sprintf(`{"account_id":%q}`, account)), wantGet: true},
		{name: "tampered payload", typ: "checkout.session.completed", tamper: true, wantCode: kudos.EBadRequest},
		{name: "wrong secret", typ: "checkout.session.completed", secret: "whsec_other", wantCode: kudos.EBadRequest},
		{name: "stale signature", typ: "checkout.session.completed", signedAt: now.Add(-301 * time.Second), wantCode: kudos.EBadRequest},
		{name: "no signature", typ: "checkout.session.completed", header: "-", wantCode: kudos.EBadRequest},
		{name: "garbled signature", typ: "checkout.session.completed", header: "t=abc,v1=zz", wantCode: kudos.EBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var answers map[string]canned
			if tc.session != "" {
				answers = map[string]canned{"GET /v1/checkout/sessions/cs_1": {200, tc.session}}
			}
			p, rec, _ := newTestProvider(t, answers)
			payload := eventJSON(tc.typ, created)
			secret, at := testWebhookSecret, now
			if tc.secret != "" {
				secret = tc.secret
			}
			if !tc.signedAt.IsZero() {
				at = tc.signedAt
			}
			header := sign(payload, secret, at)
			switch tc.header {
			case "":
			case "-":
				header = ""
			default:
				header = tc.header
			}
			if tc.tamper {
				payload = eventJSON(tc.typ, created+1)
			}
			ev, err := p.ParseWebhook(context.Background(), payload, header)
			if got := kudos.ErrorCode(err); got != tc.wantCode {
				t.Fatalf("ParseWebhook: code %q (%v), want %q", got, err, tc.wantCode)
			}
			if n := len(rec.find(http.MethodGet, "/v1/checkout/sessions/cs_1")); (n == 1) != tc.wantGet || n > 1 {
				t.Errorf("%d session reads, want read %v", n, tc.wantGet)
			}
			if tc.want == "" {
				if ev != nil {
					t.Errorf("event = %+v, want none", ev)
				}
				return
			}
			want := kudos.PaymentEvent{
				EventID: "evt_1", Provider: "stripe", CheckoutID: "chk_1", AccountID: account,
				Outcome: tc.want, OccurredAt: time.Unix(created, 0).UTC(),
			}
			if ev == nil || *ev != want {
				t.Errorf("event = %+v, want %+v", ev, want)
			}
		})
	}
}
