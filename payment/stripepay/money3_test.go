package stripepay

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// TestRefundRefusedForNow: a refund Stripe refuses because the account's
// balance is short may pass later: EUnavailable (tried again on a
// schedule), not EInvalid (recorded as refused at once). Issue 25 item 11.
func TestRefundRefusedForNow(t *testing.T) {
	const session = "GET /v1/checkout/sessions/cs_1"
	paid := `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"paid","payment_intent":"pi_1"}`
	for _, tc := range []struct {
		name, code string
		want       string
	}{
		{"balance insufficient", "balance_insufficient", kudos.EUnavailable},
		{"charge disputed", "charge_disputed", kudos.EInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, _ := newTestProvider(t, map[string]canned{session: {200, paid},
				"POST /v1/refunds": {400, stripeError("invalid_request_error", tc.code, "")}})
			_, err := p.Refund(context.Background(), kudos.RefundRequest{RefundID: "refund:co_1", ProviderID: "cs_1", AccountID: uuid.New(),
				Amount: kudos.Money{Amount: 100, Currency: "EUR"}})
			if code := kudos.ErrorCode(err); code != tc.want {
				t.Fatalf("Refund: code %q (%v), want %q", code, err, tc.want)
			}
		})
	}
}

// TestCancelCharge: a renewal charge still processing past its limit is
// cancelled when Stripe lets it be (then it failed); one Stripe will not
// cancel stays pending; one that settled meanwhile says so. Issue 25 item 3.
func TestCancelCharge(t *testing.T) {
	const (
		customer   = "cus_test"
		listPIs    = "GET /v1/payment_intents"
		cancelPI   = "POST /v1/payment_intents/pi_1/cancel"
		getPI      = "GET /v1/payment_intents/pi_1"
		processing = `{"object":"list","has_more":false,"data":[{"id":"pi_1","object":"payment_intent","status":"processing","metadata":{"charge_id":"chg_1"}}]}`
	)
	for _, tc := range []struct {
		name       string
		answers    map[string]canned
		want       kudos.ChargeResult
		wantCancel bool
	}{
		{"cancelled", map[string]canned{listPIs: {200, processing},
			cancelPI: {200, `{"id":"pi_1","object":"payment_intent","status":"canceled"}`}},
			kudos.ChargeResult{ProviderID: "pi_1", FailureReason: "canceled"}, true},
		{"cannot be cancelled", map[string]canned{listPIs: {200, processing},
			cancelPI: {400, stripeError("invalid_request_error", "payment_intent_unexpected_state", "")},
			getPI:    {200, `{"id":"pi_1","object":"payment_intent","status":"processing"}`}},
			kudos.ChargeResult{ProviderID: "pi_1", Pending: true}, true},
		{"settled meanwhile", map[string]canned{listPIs: {200, `{"object":"list","has_more":false,"data":[{"id":"pi_1","object":"payment_intent","status":"succeeded","metadata":{"charge_id":"chg_1"}}]}`}},
			kudos.ChargeResult{ProviderID: "pi_1", Paid: true}, false},
		{"never made", map[string]canned{listPIs: {200, `{"object":"list","has_more":false,"data":[]}`}},
			kudos.ChargeResult{FailureReason: "not_charged"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, store := newTestProvider(t, tc.answers)
			account := uuid.New()
			_ = store.SaveStripeCustomer(context.Background(), account, customer, "")
			got, err := p.CancelCharge(context.Background(), account, "chg_1")
			if err != nil || got != tc.want {
				t.Fatalf("CancelCharge = %+v, %v; want %+v", got, err, tc.want)
			}
			if n := len(rec.find(http.MethodPost, "/v1/payment_intents/pi_1/cancel")); (n == 1) != tc.wantCancel {
				t.Errorf("%d cancel calls, want cancel %v", n, tc.wantCancel)
			}
		})
	}
}

// TestUseCheckoutMethod: the card that paid a checkout (a renewal that
// needed authentication, a due invoice) becomes the customer's default, so
// that next year's off-session charge uses it. Issue 25 item 12.
func TestUseCheckoutMethod(t *testing.T) {
	p, rec, store := newTestProvider(t, map[string]canned{
		"GET /v1/checkout/sessions/cs_1": {200, `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"paid",
			"customer":"cus_test","payment_intent":{"id":"pi_1","object":"payment_intent","status":"succeeded","payment_method":"pm_new"}}`},
	})
	account := uuid.New()
	_ = store.SaveStripeCustomer(context.Background(), account, "cus_test", "")
	if err := p.UseCheckoutMethod(context.Background(), account, "cs_1"); err != nil {
		t.Fatal(err)
	}
	got := rec.find(http.MethodGet, "/v1/checkout/sessions/cs_1")
	if len(got) != 1 || got[0].Form.Get("expand[0]") != "payment_intent" {
		t.Fatalf("session read %+v, want one with the payment intent expanded", got)
	}
	upd := rec.find(http.MethodPost, "/v1/customers/cus_test")
	if len(upd) != 1 || upd[0].Form.Get("invoice_settings[default_payment_method]") != "pm_new" {
		t.Fatalf("customer updates %+v, want the default payment method pm_new", upd)
	}
}

// TestARefundTriedAgainReachesStripeAgain: Stripe saves a request's answer
// under its idempotency key, errors included, for 24 hours: a refund
// refused for now (balance_insufficient) tried again an hour later under
// the same key got the saved refusal back, so the tries at 1 h and 6 h
// never reached Stripe. Each hour's try has a key of its own; a refund
// already made under an earlier key is found first, by our refund id in
// its metadata, and never made twice.
func TestARefundTriedAgainReachesStripeAgain(t *testing.T) {
	const session = "GET /v1/checkout/sessions/cs_1"
	paid := `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"paid","payment_intent":"pi_1"}`
	req := kudos.RefundRequest{RefundID: "refund:co_1", ProviderID: "cs_1", AccountID: uuid.New(), Amount: kudos.Money{Amount: 100, Currency: "EUR"}}
	p, rec, _ := newTestProvider(t, map[string]canned{session: {200, paid},
		"GET /v1/refunds":  {200, `{"object":"list","has_more":false,"data":[]}`},
		"POST /v1/refunds": {400, stripeError("invalid_request_error", "balance_insufficient", "")}})
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return at }
	for range 2 {
		if _, err := p.Refund(context.Background(), req); kudos.ErrorCode(err) != kudos.EUnavailable {
			t.Fatalf("Refund: %v, want refused for now", err)
		}
		at = at.Add(time.Hour)
	}
	sent := rec.find(http.MethodPost, "/v1/refunds")
	if len(sent) != 2 || sent[0].IdempotencyKey == sent[1].IdempotencyKey || !strings.HasPrefix(sent[1].IdempotencyKey, req.RefundID) {
		t.Fatalf("two tries an hour apart sent %d requests with keys %v, want two different keys of %s", len(sent), keys(sent), req.RefundID)
	}
	made, rec2, _ := newTestProvider(t, map[string]canned{session: {200, paid},
		"GET /v1/refunds": {200, `{"object":"list","has_more":false,"data":[{"id":"re_made","object":"refund","amount":100,"currency":"eur",
			"payment_intent":"pi_1","status":"succeeded","metadata":{"refund_id":"refund:co_1"}}]}`}})
	if id, err := made.Refund(context.Background(), req); err != nil || id != "re_made" {
		t.Fatalf("Refund of one made before: %q, %v; want re_made", id, err)
	}
	if n := len(rec2.find(http.MethodPost, "/v1/refunds")); n != 0 {
		t.Fatalf("%d refunds created for one made before, want none", n)
	}
}

// keys are the idempotency keys of requests.
func keys(reqs []request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.IdempotencyKey)
	}
	return out
}

// TestAnAutomaticRefundNamesItsAmount: a refund Kudos makes on its own (a
// payment nothing was owed for, a stray or erased charge) was sent with no
// amount, which Stripe reads as "what is left of the payment". After a
// partial refund made in the dashboard meanwhile, Stripe refunded the rest
// while Kudos booked, credited and mailed the whole payment. Now the
// amount Kudos books is the amount asked: Stripe refunds that, or refuses
// a refund over what is left (booked as refused, for an operator).
func TestAnAutomaticRefundNamesItsAmount(t *testing.T) {
	const session = "GET /v1/checkout/sessions/cs_1"
	paid := `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"paid","payment_intent":"pi_1"}`
	req := kudos.RefundRequest{RefundID: "refund:co_1", ProviderID: "cs_1", AccountID: uuid.New(), Amount: kudos.Money{Amount: 21780, Currency: "EUR"}}
	p, rec, _ := newTestProvider(t, map[string]canned{session: {200, paid},
		"GET /v1/refunds":  {200, `{"object":"list","has_more":false,"data":[]}`},
		"POST /v1/refunds": {200, `{"id":"re_1","object":"refund","amount":21780,"currency":"eur","payment_intent":"pi_1","status":"succeeded"}`}})
	if _, err := p.Refund(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	sent := rec.find(http.MethodPost, "/v1/refunds")
	if len(sent) != 1 || sent[0].Form.Get("amount") != "21780" {
		t.Fatalf("the automatic refund sent amount %q, want 21780 (the amount booked)", sent[0].Form.Get("amount"))
	}
	over, _, _ := newTestProvider(t, map[string]canned{session: {200, paid},
		"GET /v1/refunds": {200, `{"object":"list","has_more":false,"data":[]}`},
		"POST /v1/refunds": {400, stripeError("invalid_request_error", "amount_too_large",
			"Refund amount (€217.80) is greater than unrefunded amount on charge (€117.80)")}})
	if _, err := over.Refund(context.Background(), req); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund over what is left: %v, want refused (EInvalid)", err)
	}
}
