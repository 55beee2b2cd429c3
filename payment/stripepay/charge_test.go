package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

func TestChargeOffSession(t *testing.T) {
	const (
		customer   = "cus_test"
		mockPM     = "pm_1Pgc75B7WZ01zgkWlHVgdEGJ" // stripe-mock's fixture card
		createPI   = "POST /v1/payment_intents"
		listPIs    = "GET /v1/payment_intents"
		getPI      = "GET /v1/payment_intents/pi_1"
		getCus     = "GET /v1/customers/" + customer
		listPMs    = "GET /v1/customers/" + customer + "/payment_methods"
		succeeded  = `{"id":"pi_1","object":"payment_intent","status":"succeeded"}`
		processing = `{"id":"pi_1","object":"payment_intent","status":"processing"}`
		noDefault  = `{"id":"cus_test","object":"customer","invoice_settings":{"default_payment_method":null}}`
		twoCards   = `{"object":"list","has_more":false,"data":[
			{"id":"pm_old","object":"payment_method","type":"card","created":100},
			{"id":"pm_new","object":"payment_method","type":"card","created":200}]}`
	)
	for _, tc := range []struct {
		name        string
		noCustomer  bool
		answers     map[string]canned
		want        kudos.ChargeResult
		wantErr     bool
		wantCode    string // with wantErr: the kudos error code ("" a plain, retried error)
		wantPM      string // payment method charged; "" when no PaymentIntent is created
		wantNoFetch bool
	}{
		{name: "no customer", noCustomer: true, want: kudos.ChargeResult{FailureReason: "no_payment_method"}},
		{name: "succeeded on the most recent method",
			answers: map[string]canned{createPI: {200, succeeded}, getCus: {200, noDefault}, listPMs: {200, twoCards}},
			want:    kudos.ChargeResult{Paid: true, ProviderID: "pi_1"}, wantPM: "pm_new"},
		{name: "succeeded on the customer's default",
			answers: map[string]canned{
				createPI: {200, succeeded},
				getCus:   {200, `{"id":"cus_test","object":"customer","invoice_settings":{"default_payment_method":{"id":"pm_default","object":"payment_method","type":"card"}}}`},
			},
			want: kudos.ChargeResult{Paid: true, ProviderID: "pi_1"}, wantPM: "pm_default"},
		{name: "no payment method",
			answers: map[string]canned{getCus: {200, noDefault}, listPMs: {200, `{"object":"list","data":[],"has_more":false}`}},
			want:    kudos.ChargeResult{FailureReason: "no_payment_method"}},
		{name: "declined",
			answers: map[string]canned{createPI: {402, stripeError("card_error", "card_declined", "insufficient_funds")}},
			want:    kudos.ChargeResult{ProviderID: "pi_declined", FailureReason: "insufficient_funds"}, wantPM: mockPM},
		{name: "authentication required",
			answers: map[string]canned{createPI: {402, stripeError("card_error", "authentication_required", "")}},
			want:    kudos.ChargeResult{ProviderID: "pi_declined", FailureReason: "authentication_required"}, wantPM: mockPM},
		{name: "left requiring a payment method",
			answers: map[string]canned{createPI: {200, `{"id":"pi_1","object":"payment_intent","status":"requires_payment_method","last_payment_error":{"type":"card_error","code":"expired_card"}}`}},
			want:    kudos.ChargeResult{ProviderID: "pi_1", FailureReason: "expired_card"}, wantPM: mockPM},
		{name: "stripe-mock fixture (not succeeded)", wantPM: mockPM},
		{name: "rate limited",
			answers: map[string]canned{createPI: {429, stripeError("invalid_request_error", "rate_limit", "")}},
			wantErr: true, wantPM: mockPM},
		{name: "stripe down",
			answers: map[string]canned{createPI: {500, stripeError("api_error", "", "")}},
			wantErr: true, wantPM: mockPM},
		// Refused for good (an amount under Stripe's minimum): a business
		// outcome, never retried.
		{name: "amount too small",
			answers: map[string]canned{createPI: {400, stripeError("invalid_request_error", "amount_too_small", "")}},
			wantErr: true, wantCode: kudos.EInvalid, wantPM: mockPM},
		// A SEPA debit is processing for days: pending, not an error that
		// keeps the workflow retrying (issue 25 item 3).
		{name: "still processing",
			answers: map[string]canned{createPI: {200, processing}, getPI: {200, processing}},
			want:    kudos.ChargeResult{Pending: true, ProviderID: "pi_1"}, wantPM: mockPM},
		// The customer is gone at Stripe (deleted by hand): a refusal, an
		// unpaid renewal, not a retry forever (issue 25 item 3).
		{name: "customer gone",
			answers: map[string]canned{listPIs: {404, stripeError("invalid_request_error", "resource_missing", "")},
				getCus: {404, stripeError("invalid_request_error", "resource_missing", "")}},
			want: kudos.ChargeResult{FailureReason: "customer_not_found"}},
		{name: "processing, then succeeded",
			answers: map[string]canned{createPI: {200, processing}, getPI: {200, succeeded}},
			want:    kudos.ChargeResult{Paid: true, ProviderID: "pi_1"}, wantPM: mockPM},
		{name: "charged before",
			answers: map[string]canned{listPIs: {200, `{"object":"list","has_more":false,"data":[{"id":"pi_1","object":"payment_intent","status":"succeeded","amount":56628,"currency":"eur","metadata":{"charge_id":"chg_1"}}]}`}},
			want:    kudos.ChargeResult{Paid: true, ProviderID: "pi_1"}, wantNoFetch: true},
		// A payment under the key for another amount (a key reused for
		// another invoice: a renewal's year found by a returned upgrade's
		// retry) pays nothing of this charge, whatever its status; nothing
		// is charged either.
		{name: "charged before for another amount",
			answers: map[string]canned{listPIs: {200, `{"object":"list","has_more":false,"data":[{"id":"pi_1","object":"payment_intent","status":"succeeded","amount":21780,"currency":"eur","metadata":{"charge_id":"chg_1"}}]}`}},
			wantErr: true, wantCode: kudos.EConflict, wantNoFetch: true},
		{name: "charged before in another currency",
			answers: map[string]canned{listPIs: {200, `{"object":"list","has_more":false,"data":[{"id":"pi_1","object":"payment_intent","status":"succeeded","amount":56628,"currency":"usd","metadata":{"charge_id":"chg_1"}}]}`}},
			wantErr: true, wantCode: kudos.EConflict, wantNoFetch: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, store := newTestProvider(t, tc.answers)
			account := uuid.New()
			if !tc.noCustomer {
				_ = store.SaveStripeCustomer(context.Background(), account, customer, "")
			}
			req := kudos.ChargeRequest{ChargeID: "chg_1", AccountID: account, Amount: kudos.Money{Amount: 56628, Currency: "EUR"}, Description: "Renewal"}
			got, err := p.ChargeOffSession(context.Background(), req)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ChargeOffSession: err = %v, want error %v", err, tc.wantErr)
			}
			if code := kudos.ErrorCode(err); tc.wantErr && ((code == kudos.EInvalid) != (tc.wantCode == kudos.EInvalid) ||
				(code == kudos.EConflict) != (tc.wantCode == kudos.EConflict)) {
				t.Fatalf("ChargeOffSession: code %q (%v), want %q", code, err, tc.wantCode)
			}
			if tc.name == "stripe-mock fixture (not succeeded)" {
				if err != nil || got.Paid || got.FailureReason == "" {
					t.Errorf("result = %+v, %v; want unpaid with a reason", got, err)
				}
			} else if !tc.wantErr && got != tc.want {
				t.Errorf("result = %+v, want %+v", got, tc.want)
			}
			sent := rec.find(http.MethodPost, "/v1/payment_intents")
			if tc.wantPM == "" {
				if len(sent) != 0 {
					t.Errorf("%d PaymentIntents created, want none", len(sent))
				}
				if tc.wantNoFetch && len(rec.find(http.MethodGet, "/v1/customers/"+customer)) != 0 {
					t.Error("payment methods read for a charge made before")
				}
				return
			}
			if len(sent) != 1 {
				t.Fatalf("%d PaymentIntents created, want 1", len(sent))
			}
			f := sent[0].Form
			for k, v := range map[string]string{
				"amount": "56628", "currency": "eur", "customer": customer, "payment_method": tc.wantPM,
				"confirm": "true", "off_session": "true", "payment_method_types[0]": "card",
				"metadata[account_id]": account.String(), "metadata[charge_id]": "chg_1",
			} {
				if got := f.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if sent[0].IdempotencyKey != "chg_1" {
				t.Errorf("Idempotency-Key = %q, want chg_1", sent[0].IdempotencyKey)
			}
		})
	}
}

// TestCancelOpenCharges: at an account's erasure the customer's
// PaymentIntents that Kudos charged off-session and that can still be
// completed (waiting on authentication) are cancelled, named by our charge
// key; a checkout's PaymentIntent, one that succeeded, and one not ours
// are left alone. The erased account's customer is given (its row is gone).
func TestCancelOpenCharges(t *testing.T) {
	account := uuid.New()
	intent := func(id, status, meta string) string {
		return fmt.Sprintf(`{"id":%q,"object":"payment_intent","amount":21780,"currency":"eur","customer":"cus_gone","status":%q,"metadata":%s}`,
			id, status, meta)
	}
	ours := fmt.Sprintf(`{"account_id":%q,"charge_id":"renewal:x:1"}`, account)
	list := `{"object":"list","url":"/v1/payment_intents","has_more":false,"data":[` + strings.Join([]string{
		intent("pi_action", "requires_action", ours),
		intent("pi_paid", "succeeded", fmt.Sprintf(`{"account_id":%q,"charge_id":"renewal:x:0"}`, account)),
		intent("pi_checkout", "requires_payment_method", fmt.Sprintf(`{"account_id":%q,"checkout_id":"co_1"}`, account)),
		intent("pi_other", "requires_action", `{}`),
	}, ",") + `]}`
	p, rec, _ := newTestProvider(t, map[string]canned{
		"GET /v1/payment_intents":                   {200, list},
		"POST /v1/payment_intents/pi_action/cancel": {200, intent("pi_action", "canceled", ours)},
	})
	ids, err := p.CancelOpenCharges(context.Background(), account, "cus_gone")
	if err != nil || len(ids) != 1 || ids[0] != "renewal:x:1" {
		t.Fatalf("cancelled %v (%v), want the charge waiting on authentication", ids, err)
	}
	var cancels []string
	for _, r := range rec.reqs {
		if r.Method == "GET" && r.Path == "/v1/payment_intents" && r.Form.Get("customer") != "cus_gone" {
			t.Errorf("listed the payments of %q, want the erased account's customer", r.Form.Get("customer"))
		}
		if strings.HasSuffix(r.Path, "/cancel") {
			cancels = append(cancels, r.Path)
		}
	}
	if len(cancels) != 1 {
		t.Fatalf("cancel calls %v, want pi_action's only", cancels)
	}
}
