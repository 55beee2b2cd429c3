package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85/webhook"

	"kudos"
	"kudos/payment/stripepay"
)

// TestFakeStripeRefundsParseAsStripes: the refund phase's events, read
// back from the fake Stripe by the real adapter, are refunds of the
// account's checkout (what the intake benchmark counts on).
func TestFakeStripeRefundsParseAsStripes(t *testing.T) {
	f, p, account := paidFakeSession(t)
	refunds := f.RefundAll(refundAmount, nil)
	r, ok := refunds[account.String()]
	if !ok {
		t.Fatalf("refunds %v", refunds)
	}
	for _, payload := range []map[string]any{
		{"id": "evt_1", "object": "event", "created": time.Now().Unix() + 1, "type": "charge.refunded",
			"data": map[string]any{"object": map[string]any{"id": r.ChargeID, "object": "charge"}}},
		{"id": "evt_2", "object": "event", "created": time.Now().Unix() + 1, "type": "refund.updated",
			"data": map[string]any{"object": map[string]any{"id": r.RefundID, "object": "refund"}}},
	} {
		body, _ := json.Marshal(payload)
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: "whsec_bench"})
		ev, err := p.ParseWebhook(context.Background(), body, signed.Header)
		if err != nil {
			t.Fatal(err)
		}
		if ev == nil || ev.Movement != kudos.MovementRefund || ev.AccountID != account || ev.CheckoutID != "co_1" ||
			ev.ProviderRefundID != r.RefundID || ev.Amount == nil || ev.Amount.Amount != refundAmount {
			t.Fatalf("%s: event %+v", payload["type"], ev)
		}
	}
}

// paidFakeSession starts a fake Stripe (stopped when t ends) with one paid
// Checkout Session of a new account (checkout co_1), and returns it with
// the real adapter pointed at it.
func paidFakeSession(t *testing.T) (*FakeStripe, *stripepay.Provider, uuid.UUID) {
	t.Helper()
	f, err := StartFakeStripe("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	base := "http://" + f.addr
	account := uuid.New()
	form := url.Values{"mode": {"payment"}, "metadata[account_id]": {account.String()}, "metadata[checkout_id]": {"co_1"},
		"metadata[purpose]": {"subscription"}}
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/checkout/sessions", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	f.PayAll()
	p, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_bench", WebhookSecret: "whsec_bench", APIBaseURL: base, Currency: "EUR"},
		nilCustomers{})
	if err != nil {
		t.Fatal(err)
	}
	return f, p, account
}

// nilCustomers is a CustomerStore with no customers.
type nilCustomers struct{}

func (nilCustomers) StripeCustomer(context.Context, uuid.UUID) (string, error)           { return "", nil }
func (nilCustomers) SaveStripeCustomer(context.Context, uuid.UUID, string, string) error { return nil }
func (nilCustomers) StripeCustomerEmail(context.Context, uuid.UUID) (string, error)      { return "", nil }
func (nilCustomers) SaveStripeCustomerEmail(context.Context, uuid.UUID, string) error    { return nil }
