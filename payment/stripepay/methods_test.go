package stripepay

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

func TestPaymentMethods(t *testing.T) {
	const (
		getCus  = "GET /v1/customers/cus_test"
		listPMs = "GET /v1/customers/cus_test/payment_methods"
		mixed   = `{"object":"list","has_more":false,"data":[
			{"id":"pm_card","object":"payment_method","type":"card","created":100,
			 "card":{"brand":"mastercard","last4":"4444","exp_month":3,"exp_year":2031}},
			{"id":"pm_paypal","object":"payment_method","type":"paypal","created":300},
			{"id":"pm_sepa","object":"payment_method","type":"sepa_debit","created":200,"sepa_debit":{"last4":"3000"}}]}`
	)
	card := kudos.PaymentMethod{ID: "pm_card", Method: "card", Brand: "mastercard", CardNumber: "4444", CardExpiryMonth: 3, CardExpiryYear: 2031}
	sepa := kudos.PaymentMethod{ID: "pm_sepa", Method: "directdebit", ConsumerAccount: "****3000"}
	withDefault := func(m kudos.PaymentMethod) kudos.PaymentMethod { m.Default = true; return m }
	for _, tc := range []struct {
		name       string
		noCustomer bool
		answers    map[string]canned
		want       []kudos.PaymentMethod
	}{
		{name: "no customer", noCustomer: true, want: []kudos.PaymentMethod{}},
		{name: "stripe-mock fixture", want: []kudos.PaymentMethod{{
			ID: "pm_1Pgc75B7WZ01zgkWlHVgdEGJ", Method: "card", Brand: "visa", CardNumber: "4242",
			CardExpiryMonth: 8, CardExpiryYear: 2030, Default: true}}},
		{name: "invoice default marked", answers: map[string]canned{
			getCus:  {200, `{"id":"cus_test","object":"customer","invoice_settings":{"default_payment_method":"pm_card"}}`},
			listPMs: {200, mixed},
		}, want: []kudos.PaymentMethod{sepa, withDefault(card)}},
		{name: "most recent marked without a default", answers: map[string]canned{
			getCus:  {200, `{"id":"cus_test","object":"customer","invoice_settings":{"default_payment_method":null}}`},
			listPMs: {200, mixed},
		}, want: []kudos.PaymentMethod{withDefault(sepa), card}},
		{name: "deleted customer", answers: map[string]canned{
			getCus: {200, `{"id":"cus_test","object":"customer","deleted":true}`},
		}, want: []kudos.PaymentMethod{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, store := newTestProvider(t, tc.answers)
			account := uuid.New()
			if !tc.noCustomer {
				_ = store.SaveStripeCustomer(context.Background(), account, "cus_test", "")
			}
			got, err := p.PaymentMethods(context.Background(), account)
			if err != nil {
				t.Fatalf("PaymentMethods: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("PaymentMethods =\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

func TestDetachPaymentMethod(t *testing.T) {
	const getPM = "GET /v1/payment_methods/pm_1"
	for _, tc := range []struct {
		name       string
		noCustomer bool
		answers    map[string]canned
		wantCode   string
		wantDetach bool
	}{
		{name: "no customer", noCustomer: true, wantCode: kudos.ENotFound},
		{name: "attached to no customer (stripe-mock fixture)", wantCode: kudos.ENotFound},
		{name: "another account's", answers: map[string]canned{
			getPM: {200, `{"id":"pm_1","object":"payment_method","type":"card","customer":"cus_other"}`},
		}, wantCode: kudos.ENotFound},
		{name: "unknown", answers: map[string]canned{
			getPM: {404, stripeError("invalid_request_error", "resource_missing", "")},
		}, wantCode: kudos.ENotFound},
		{name: "own", answers: map[string]canned{
			getPM: {200, `{"id":"pm_1","object":"payment_method","type":"card","customer":"cus_test"}`},
		}, wantDetach: true},
		{name: "stripe down", answers: map[string]canned{
			getPM: {500, stripeError("api_error", "", "")},
		}, wantCode: kudos.EInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, store := newTestProvider(t, tc.answers)
			account := uuid.New()
			if !tc.noCustomer {
				_ = store.SaveStripeCustomer(context.Background(), account, "cus_test", "")
			}
			err := p.DetachPaymentMethod(context.Background(), account, "pm_1")
			if got := kudos.ErrorCode(err); got != tc.wantCode {
				t.Fatalf("DetachPaymentMethod: code %q (%v), want %q", got, err, tc.wantCode)
			}
			if n := len(rec.find(http.MethodPost, "/v1/payment_methods/pm_1/detach")); (n == 1) != tc.wantDetach || n > 1 {
				t.Errorf("%d detach calls, want detach %v", n, tc.wantDetach)
			}
		})
	}
}

// TestDeleteCustomer: the customer is deleted at Stripe (with its payment
// methods); one already gone is no error; an outage is one (retried).
func TestDeleteCustomer(t *testing.T) {
	const del = "DELETE /v1/customers/cus_test"
	for _, tc := range []struct {
		name     string
		customer string
		answers  map[string]canned
		wantErr  bool
		wantCall bool
	}{
		{name: "never paid", customer: ""},
		{name: "deleted (stripe-mock)", customer: "cus_test", wantCall: true},
		{name: "already gone", customer: "cus_test", wantCall: true, answers: map[string]canned{
			del: {404, stripeError("invalid_request_error", "resource_missing", "")},
		}},
		{name: "stripe down", customer: "cus_test", wantCall: true, wantErr: true, answers: map[string]canned{
			del: {500, stripeError("api_error", "", "")},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, _ := newTestProvider(t, tc.answers)
			err := p.DeleteCustomer(context.Background(), uuid.New(), tc.customer)
			if (err != nil) != tc.wantErr {
				t.Fatalf("DeleteCustomer: %v, want error %v", err, tc.wantErr)
			}
			if n := len(rec.find(http.MethodDelete, "/v1/customers/cus_test")); (n > 0) != tc.wantCall {
				t.Errorf("%d delete calls, want a call %v", n, tc.wantCall)
			}
		})
	}
}
