package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// verifySession is the setup-mode Checkout Session cs_1 as Stripe answers
// it with its SetupIntent (in status) and saved card expanded.
func verifySession(status string) canned {
	return canned{200, fmt.Sprintf(`{"id":"cs_1","object":"checkout.session","mode":"setup","status":"complete","customer":{"id":"cus_1","object":"customer"},
		"setup_intent":{"id":"seti_1","object":"setup_intent","status":%q,
		"last_setup_error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"test"},
		"payment_method":{"id":"pm_new","object":"payment_method","type":"card"}}}`, status)}
}

// verifyRequest is what the VerifyPaymentMethod activity asks for cs_1:
// SPEC §9's 0.01, which Stripe would refuse as under its minimum.
var verifyRequest = kudos.VerificationRequest{VerificationID: "pm_chk_1", ProviderID: "cs_1", AccountID: uuid.New(),
	Amount: kudos.Money{Amount: kudos.VerificationCharge, Currency: "EUR"}}

// verified tells how VerifyPaymentMethod left the card: the number of
// charges, refunds and detaches tried, and the defaults set.
func verified(rec *recorder) (charges, refunds, detaches int, defaults []string) {
	for _, q := range rec.find(http.MethodPost, "/v1/customers/cus_1") {
		defaults = append(defaults, q.Form.Get("invoice_settings[default_payment_method]"))
	}
	return len(rec.find(http.MethodPost, "/v1/payment_intents")), len(rec.find(http.MethodPost, "/v1/refunds")),
		len(rec.find(http.MethodPost, "/v1/payment_methods/pm_new/detach")), defaults
}

// TestVerifyPaymentMethod: SPEC §9 with Stripe. The card's verification is
// its setup-mode checkout's SetupIntent having succeeded (Stripe checked it
// with the issuer): the card becomes the customer's default and nothing is
// charged, since Stripe refuses a charge under its minimum (0.01 is,
// amount_too_small) and a charge at the minimum would cost its fee. A
// SetupIntent that did not succeed is a decline, and any refusal once the
// card is attached leaves no card on file that Kudos reports refused.
func TestVerifyPaymentMethod(t *testing.T) {
	t.Run("a succeeded setup is made default, nothing charged", func(t *testing.T) {
		// Were a charge tried, Stripe would refuse it as it does any under
		// its minimum: the answer that reported every card refused.
		p, rec, _ := newTestProvider(t, map[string]canned{
			"GET /v1/checkout/sessions/cs_1": verifySession("succeeded"),
			"POST /v1/payment_intents":       {400, stripeError("invalid_request_error", "amount_too_small", "")},
		})
		err := p.VerifyPaymentMethod(context.Background(), verifyRequest)
		charges, refunds, detaches, defaults := verified(rec)
		if charges != 0 || refunds != 0 {
			t.Errorf("a verification charge was tried: %d charges, %d refunds; want none", charges, refunds)
		}
		if err != nil && detaches == 0 {
			t.Errorf("the card was reported refused (%v) and left attached at Stripe", err)
		}
		if err != nil || len(defaults) != 1 || defaults[0] != "pm_new" || detaches != 0 {
			t.Fatalf("verification: %v, defaults %v, detaches %d; want nil, [pm_new], 0", err, defaults, detaches)
		}
	})
	t.Run("a setup that did not succeed is a decline, detached", func(t *testing.T) {
		p, rec, _ := newTestProvider(t, map[string]canned{
			"GET /v1/checkout/sessions/cs_1": verifySession("requires_payment_method"),
		})
		err := p.VerifyPaymentMethod(context.Background(), verifyRequest)
		charges, refunds, detaches, defaults := verified(rec)
		if kudos.ErrorCode(err) != kudos.EInvalid || detaches != 1 || len(defaults) != 0 || charges != 0 || refunds != 0 {
			t.Fatalf("verification: %v, detaches %d, defaults %v, charges %d, refunds %d; want EInvalid, 1, none, 0, 0",
				err, detaches, defaults, charges, refunds)
		}
	})
	t.Run("a refusal after the card is attached detaches it", func(t *testing.T) {
		p, rec, _ := newTestProvider(t, map[string]canned{
			"GET /v1/checkout/sessions/cs_1": verifySession("succeeded"),
			"POST /v1/customers/cus_1":       {400, stripeError("invalid_request_error", "resource_missing", "")},
		})
		err := p.VerifyPaymentMethod(context.Background(), verifyRequest)
		_, _, detaches, _ := verified(rec)
		if kudos.ErrorCode(err) != kudos.EInvalid || detaches != 1 {
			t.Fatalf("verification: %v, detaches %d; want EInvalid, 1", err, detaches)
		}
	})
	// Failures worth retrying are neither a refusal nor a reason to drop
	// the card: the activity asks again.
	apiError := canned{500, `{"error":{"type":"api_error","message":"test"}}`}
	for _, c := range []struct {
		name     string
		answers  map[string]canned
		detaches int
	}{
		{"a setup still processing is retried, kept", map[string]canned{
			"GET /v1/checkout/sessions/cs_1": verifySession("processing")}, 0},
		{"a failure to make it default is retried, kept", map[string]canned{
			"GET /v1/checkout/sessions/cs_1": verifySession("succeeded"), "POST /v1/customers/cus_1": apiError}, 0},
		{"a detach that failed is retried, not reported", map[string]canned{
			"GET /v1/checkout/sessions/cs_1":         verifySession("requires_payment_method"),
			"POST /v1/payment_methods/pm_new/detach": apiError}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, rec, _ := newTestProvider(t, c.answers)
			err := p.VerifyPaymentMethod(context.Background(), verifyRequest)
			_, _, detaches, defaults := verified(rec)
			if err == nil || kudos.ErrorCode(err) == kudos.EInvalid || detaches != c.detaches {
				t.Fatalf("verification: %v (code %q), detaches %d, defaults %v; want a retryable error, %d detaches",
					err, kudos.ErrorCode(err), detaches, defaults, c.detaches)
			}
		})
	}
}
