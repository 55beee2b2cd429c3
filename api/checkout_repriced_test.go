package api_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/workflows"
)

// responseLost is a payment provider whose first CreateCheckout is made
// at the provider and its answer lost (as a network failure or a worker
// dying before RecordCheckout): meanwhile then runs (the VAT basis
// changing before the activity's retry).
type responseLost struct {
	kudos.PaymentProvider
	lost      *atomic.Bool
	meanwhile func(account uuid.UUID)
}

// CreateCheckout implements kudos.PaymentProvider.
func (p *responseLost) CreateCheckout(ctx context.Context, req kudos.CheckoutRequest) (kudos.Checkout, error) {
	co, err := p.PaymentProvider.CreateCheckout(ctx, req)
	if err == nil && p.lost.CompareAndSwap(false, true) {
		p.meanwhile(req.AccountID)
		return kudos.Checkout{}, errors.New("test: the provider's answer was lost")
	}
	return co, err
}

// TestACheckoutPricedAgainOnItsRetryIsNotPaidByTheFirstPrice: the first
// attempt of OpenCheckout made the provider's checkout of a Belgian
// business's Team plan at 0 % (1 188.00, reverse charged) and its answer
// was lost; the address then lost its VAT id (Dutch VAT, 1 437.48), and
// the activity's retry priced that. The provider, asked again under the
// same checkout id (its idempotency key), answered the first checkout
// whatever its amount: the invoice of 1 437.48 was recorded with the page
// of 1 188.00 and paid by it. Now the first page is closed and the
// customer told to try again (409 price_changed, the one error shape); the
// second click opens a checkout at the new price, under a new id, and the
// invoice is paid by that amount. When the first attempt had recorded
// its checkout before dying ("report lost"), that record is closed too:
// nothing stays open or processing at the old price.
func TestACheckoutPricedAgainOnItsRetryIsNotPaidByTheFirstPrice(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"answer lost", "report lost"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t).withTemporal(time.Hour)
			var lost atomic.Bool
			meanwhile := func(account uuid.UUID) {
				if _, err := h.db.Pool.Exec(context.Background(), `UPDATE billing_addresses SET country = 'nl_NL', vat_id = '',
					vat_id_status = 'none', organization_name = 'Moved BV' WHERE account_id = $1`, account); err != nil {
					t.Error(err)
				}
			}
			open := h.acts.OpenCheckout
			if how == "answer lost" {
				acts := *h.acts
				acts.Payments = &responseLost{PaymentProvider: h.acts.Payments, lost: &lost, meanwhile: meanwhile}
				open = acts.OpenCheckout
			} else {
				open = func(ctx context.Context, in workflows.OpenCheckoutInput) (workflows.OpenCheckoutResult, error) {
					res, err := h.acts.OpenCheckout(ctx, in)
					if err == nil && lost.CompareAndSwap(false, true) {
						meanwhile(in.AccountID)
						return res, errors.New("test: the worker died after the checkout was recorded")
					}
					return res, err
				}
			}
			// The worker is replaced before the account has any workflow:
			// replaced later, the subscription's next task could wait for
			// the stopped worker's sticky queue to time out, which under
			// load ate the update's 15 s for opening a checkout (503).
			h.startWorkerWith(map[string]any{workflows.ActivityOpenCheckout: open})
			token, account := h.signedUpUser("repriced-" + strings.ReplaceAll(how, " ", "-") + "@example.com")
			base := "/v1/accounts/" + account
			h.expect(h.do("PATCH", base+"/billing-address", beAddress("BE0123456789"), token), 200)

			r := h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM"}, token)
			if !lost.Load() {
				t.Fatalf("the first attempt's answer was not lost: %s", r.Raw)
			}
			if r.Status == 201 { // the hole: show what was paid for what
				h.expect(h.sandbox(r.str("checkout_href"), "pay"), 200)
				eventually(t, "the invoice paid", func() bool { return h.invoiceCount(account, "status = 'PAID'") == 1 })
				_, _, total, _, _ := h.invoiceAmounts(account, "SUBSCRIPTION")
				t.Fatalf("the checkout opened on the retry (%s) was paid: invoice of %d paid by a page of %d", r.Raw, total, h.sandboxAmount(r.str("checkout_href")))
			}
			if h.expect(r, 409).errorCode() != kudos.EPriceChanged || !strings.Contains(r.Raw, "price changed") {
				t.Fatalf("the retry priced again: %s, want 409 price_changed saying the price changed", r.Raw)
			}
			var stale string
			if err := h.db.Pool.QueryRow(context.Background(), `SELECT status FROM sandbox_checkouts WHERE account_id = $1`, account).Scan(&stale); err != nil || stale != "expired" {
				t.Fatalf("the first attempt's checkout is %q (%v), want expired", stale, err)
			}
			if n, s := h.invoiceCount(account, "true"), h.checkoutStatus(account); n != 0 || (s != "" && s != "expired") {
				t.Fatalf("%d invoices and a checkout %q after the refusal, want none open", n, s)
			}

			href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 201).str("checkout_href")
			if page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200); !strings.Contains(page.Raw, "EUR 1437.48") {
				t.Fatalf("the second click's checkout is not at the new price: %s", page.Raw)
			}
			h.expect(h.sandbox(href, "pay"), 200)
			eventually(t, "the invoice paid", func() bool { return h.invoiceCount(account, "status = 'PAID'") == 1 })
			if _, _, total, _, _ := h.invoiceAmounts(account, "SUBSCRIPTION"); total != 143748 || h.sandboxAmount(href) != 143748 {
				t.Fatalf("invoice of %d paid by a page of %d, want 143748 both", total, h.sandboxAmount(href))
			}
		})
	}
}

// sandboxAmount is the amount of the sandbox checkout at href.
func (h *harness) sandboxAmount(href string) int64 {
	h.t.Helper()
	var amount int64
	id := href[strings.LastIndex(href, "/")+1:]
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT amount FROM sandbox_checkouts WHERE id = $1`, id).Scan(&amount); err != nil {
		h.t.Fatal(err)
	}
	return amount
}
