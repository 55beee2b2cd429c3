package api_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/api"
	"kudos/payment/sandbox"
)

// TestPaymentMethodCheckoutsAreLimited: an account opens at most 5
// payment-method checkouts an hour and 20 a day; beyond, 429 with
// Retry-After and nothing opened (issue 27 item 6: every click opened a
// checkout at the provider).
func TestPaymentMethodCheckoutsAreLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("cards@example.com")
	path := "/v1/accounts/" + account + "/billing/payment-methods"
	checkouts := func() int {
		var n int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM checkouts WHERE account_id = $1`, account).Scan(&n)
		return n
	}
	start := time.Now()
	at := func(d time.Duration) { h.db.SetClock(func() time.Time { return start.Add(d) }) }
	at(0)
	for range 5 {
		h.expect(h.do("POST", path, nil, token), 201)
	}
	r := h.expect(h.do("POST", path, nil, token), 429)
	if r.errorCode() != kudos.ERateLimited {
		t.Fatalf("code %q", r.errorCode())
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	if n := checkouts(); n != 5 {
		t.Fatalf("%d checkouts after a refused request, want 5", n)
	}
	// Each hour allows 5 more, until the day's 20 are used.
	for hour := 1; hour <= 3; hour++ {
		at(time.Duration(hour) * time.Hour)
		for range 5 {
			h.expect(h.do("POST", path, nil, token), 201)
		}
	}
	at(4 * time.Hour)
	opened := 0
	for range 5 {
		if h.do("POST", path, nil, token).Status == 201 {
			opened++
		}
	}
	if opened >= 5 {
		t.Fatalf("after 20 in a day, the fifth hour opened %d more: no daily limit", opened)
	}
}

// countingProvider is the sandbox provider counting the calls that list an
// account's payment methods.
type countingProvider struct {
	*sandbox.Provider
	lists atomic.Int32
}

// PaymentMethods counts, then lists.
func (p *countingProvider) PaymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	p.lists.Add(1)
	return p.Provider.PaymentMethods(ctx, accountID)
}

// TestBillingCachesPaymentMethods: GET …/billing asks the provider for the
// payment methods once a minute per account, and at once after a method
// is added (its checkout paid) or removed (issue 27 item 6: every read
// called the provider).
func TestBillingCachesPaymentMethods(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	counting := &countingProvider{Provider: h.srv.Payments.(*sandbox.Provider)}
	srv := *h.srv
	srv.Payments, srv.Registry = counting, nil
	h.app = api.New(&srv)
	token, account := h.signedUpUser("cached@example.com")
	base := "/v1/accounts/" + account
	mandates := func() int {
		t.Helper()
		return int(h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["mandate_count"].(float64))
	}
	for range 3 {
		if n := mandates(); n != 0 {
			t.Fatalf("%d mandates", n)
		}
	}
	if n := counting.lists.Load(); n != 1 {
		t.Fatalf("3 reads asked the provider %d times, want 1", n)
	}
	add := func() {
		t.Helper()
		co := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201)
		h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	}
	add()
	if n := mandates(); n != 1 {
		t.Fatalf("%d mandates right after adding one", n)
	}
	add()
	if n := mandates(); n != 2 {
		t.Fatalf("%d mandates right after adding a second", n)
	}
	id := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["mandates"].([]any)[0].(map[string]any)["id"].(string)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": id}, token), 204)
	if n := mandates(); n != 1 {
		t.Fatalf("%d mandates right after removing one", n)
	}
	// The workflow verifies each new method (an event, a refund) a moment
	// later, each a change; once it is done, reads come from the cache.
	eventually(t, "the workflow to be done with the new methods", func() bool {
		var refunded int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sandbox_charges WHERE account_id = $1 AND amount = 1 AND refunded`,
			account).Scan(&refunded)
		if refunded < 2 {
			return false
		}
		a, _ := h.db.PaymentMethodsStamp(context.Background(), uuid.MustParse(account))
		time.Sleep(500 * time.Millisecond)
		b, _ := h.db.PaymentMethodsStamp(context.Background(), uuid.MustParse(account))
		return a == b
	})
	mandates()
	before := counting.lists.Load()
	mandates()
	if n := counting.lists.Load() - before; n != 0 {
		t.Fatalf("an unchanged read asked the provider %d times", n)
	}
	h.db.SetClock(func() time.Time { return time.Now().Add(61 * time.Second) })
	mandates()
	if n := counting.lists.Load() - before; n != 1 {
		t.Fatalf("a read a minute later asked the provider %d times, want 1", n)
	}
}
