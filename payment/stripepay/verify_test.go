package stripepay

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// TestVerifyPaymentMethod: SPEC §9 with Stripe: the card a setup-mode
// checkout saved is charged 0.01 off-session and refunded at once, each
// under its idempotency key, and becomes the customer's default; a card
// that declines is detached and refused.
func TestVerifyPaymentMethod(t *testing.T) {
	const session = `{"id":"cs_1","object":"checkout.session","status":"complete","customer":{"id":"cus_1","object":"customer"},
		"setup_intent":{"id":"seti_1","object":"setup_intent","payment_method":{"id":"pm_new","object":"payment_method","type":"card"}}}`
	req := kudos.VerificationRequest{VerificationID: "pm_chk_1", ProviderID: "cs_1", AccountID: uuid.New(), Amount: kudos.Money{Amount: 1, Currency: "EUR"}}
	t.Run("charged, refunded, made default", func(t *testing.T) {
		p, rec, _ := newTestProvider(t, map[string]canned{
			"GET /v1/checkout/sessions/cs_1": {200, session},
			"POST /v1/payment_intents":       {200, `{"id":"pi_v","object":"payment_intent","status":"succeeded"}`},
			"POST /v1/refunds":               {200, `{"id":"re_v","object":"refund","status":"succeeded"}`},
		})
		if err := p.VerifyPaymentMethod(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		pi := rec.find(http.MethodPost, "/v1/payment_intents")
		if len(pi) != 1 || pi[0].Form.Get("amount") != "1" || pi[0].Form.Get("currency") != "eur" || pi[0].Form.Get("payment_method") != "pm_new" ||
			pi[0].Form.Get("off_session") != "true" || pi[0].IdempotencyKey != "verify:pm_chk_1" {
			t.Fatalf("charge %+v", pi)
		}
		re := rec.find(http.MethodPost, "/v1/refunds")
		if len(re) != 1 || re[0].Form.Get("payment_intent") != "pi_v" || re[0].IdempotencyKey != "verify-refund:pm_chk_1" {
			t.Fatalf("refund %+v", re)
		}
		cu := rec.find(http.MethodPost, "/v1/customers/cus_1")
		if len(cu) != 1 || cu[0].Form.Get("invoice_settings[default_payment_method]") != "pm_new" {
			t.Fatalf("default %+v", cu)
		}
	})
	t.Run("declined", func(t *testing.T) {
		p, rec, _ := newTestProvider(t, map[string]canned{
			"GET /v1/checkout/sessions/cs_1": {200, session},
			"POST /v1/payment_intents":       {402, stripeError("card_error", "card_declined", "insufficient_funds")},
		})
		if err := p.VerifyPaymentMethod(context.Background(), req); kudos.ErrorCode(err) != kudos.EInvalid {
			t.Fatalf("declined verification: %v, want EInvalid", err)
		}
		if len(rec.find(http.MethodPost, "/v1/payment_methods/pm_new/detach")) != 1 || len(rec.find(http.MethodPost, "/v1/refunds")) != 0 {
			t.Fatal("a declined card must be detached, and nothing refunded")
		}
	})
}
