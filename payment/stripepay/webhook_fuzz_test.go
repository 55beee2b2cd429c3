package stripepay

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// fuzzAccount and fuzzCheckout are the metadata of the session that the
// fuzzed provider's Stripe always answers.
var fuzzAccount = uuid.MustParse("6f1c1b4e-9a51-4c59-8a2e-3c0d1f5b7a10")

const fuzzCheckout = "chk_fuzz"

// paidSession answers every request with a complete, paid checkout session
// of ours, without any network.
type paidSession struct{}

func (paidSession) RoundTrip(req *http.Request) (*http.Response, error) {
	body := `{"id":"cs_fuzz","object":"checkout.session","status":"complete","payment_status":"paid",
		"metadata":{"account_id":"` + fuzzAccount.String() + `","checkout_id":"` + fuzzCheckout + `"}}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// FuzzParseWebhook: a delivery whose signature header is not Stripe's HMAC of
// the exact payload is refused as a 400, whatever the payload; a properly
// signed one never panics and gives a complete event of ours, nothing, or a
// 400; and changing one byte of a signed payload makes it refused.
func FuzzParseWebhook(f *testing.F) {
	created := time.Now().Unix()
	f.Add(eventJSON("checkout.session.completed", created), "t=1,v1=00", uint16(3))
	f.Add(eventJSON("checkout.session.expired", created), "", uint16(0))
	f.Add(eventJSON("customer.created", created), "v1=", uint16(9))
	f.Add([]byte(`{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}`), "t=abc", uint16(1))
	f.Add([]byte(`not json`), "t=1,v1=zz,v0=aa", uint16(2))
	p, err := newProvider(Config{SecretKey: "sk_test_fuzz", WebhookSecret: testWebhookSecret, APIBaseURL: "http://stripe.invalid", Currency: "EUR"},
		&memStore{}, &http.Client{Transport: paidSession{}}, 0)
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, payload []byte, header string, at uint16) {
		if ev, err := p.ParseWebhook(ctx, payload, header); ev != nil || kudos.ErrorCode(err) != kudos.EBadRequest {
			t.Fatalf("unsigned delivery: event %+v, error %v; want a 400", ev, err)
		}
		signature := sign(payload, testWebhookSecret, time.Now())
		ev, err := p.ParseWebhook(ctx, payload, signature)
		switch {
		case err != nil && kudos.ErrorCode(err) != kudos.EBadRequest:
			t.Fatalf("signed delivery: unexpected error %v", err)
		case ev != nil && (ev.EventID == "" || ev.Provider != "stripe" || ev.AccountID != fuzzAccount ||
			ev.CheckoutID != fuzzCheckout || ev.Outcome != kudos.PaymentPaid):
			t.Fatalf("signed delivery: incomplete event %+v", ev)
		}
		if len(payload) == 0 {
			return
		}
		changed := append([]byte(nil), payload...)
		changed[int(at)%len(changed)] ^= 0x01
		if ev, err := p.ParseWebhook(ctx, changed, signature); ev != nil || kudos.ErrorCode(err) != kudos.EBadRequest {
			t.Fatalf("changed payload: event %+v, error %v; want a 400", ev, err)
		}
	})
}
