package api_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// payWith presses Pay on a sandbox checkout with one of Stripe's test cards
// (ARCHITECTURE §4), as JSON.
func (h *harness) payWith(href, card string) response {
	path := strings.TrimPrefix(href, "http://127.0.0.1:8080")
	return h.do("POST", path+"/pay", map[string]any{"card": card}, "", "Accept", "application/json")
}

// startPlan signs up a user with a billing address and opens a checkout for
// plan; it returns the token, account and checkout link.
func (h *harness) startPlan(email, plan string) (token, account, href string) {
	token, account = h.signedUpUser(email)
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": plan}, token), 201)
	return token, account, co.str("checkout_href")
}

func (h *harness) invoiceCount(account, where string) int {
	var n int
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM invoices WHERE account_id = $1 AND `+where, account).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestSandboxDeclinedCardAtCheckout: Stripe's 4000000000009995 is declined
// at checkout; processing ends, and plan and invoices stay as they were.
func TestSandboxDeclinedCardAtCheckout(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("declined@example.com", "PRO")
	if r := h.expect(h.payWith(href, "4000000000009995"), 200); r.str("status") != "failed" {
		t.Fatalf("declined card: %s", r.Raw)
	}
	eventually(t, "processing to end", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "TRIAL" && s["show_status"] == "active"
	})
	if n := h.invoiceCount(account, "true"); n != 0 {
		t.Fatalf("%d invoices after a declined first payment", n)
	}
	// The customer may try again with a card that works.
	co := h.expect(h.do("POST", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.recordHistory("subscription:"+account, "", "subscription_checkout_declined.json")
}

// TestSandboxUnknownCardIsRefused: a number that is not one of the test
// cards is a client error that changes nothing.
func TestSandboxUnknownCardIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("unknown-card@example.com", "STARTER")
	if r := h.expect(h.payWith(href, "1234"), 422); r.field("card") == "" {
		t.Fatal(r.Raw)
	}
	if s := h.subscription(token, account); s["show_status"] != "processing" {
		t.Fatalf("after a refused card the checkout stays open: %v", s)
	}
}

// TestSandboxCancelEndsTheCheckoutAtOnce: the customer going back from the
// hosted page ends the checkout (303 to the app), so the dashboard is not
// locked in "processing" until the checkout's expiry.
func TestSandboxCancelEndsTheCheckoutAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("cancel@example.com", "TEAM")
	r := h.do("POST", strings.TrimPrefix(href, "http://127.0.0.1:8080")+"/cancel", nil, "")
	if r.Status != 303 || !strings.Contains(r.Header.Get("Location"), "/dashboard/"+account+"/") {
		t.Fatalf("cancel: %d %q %s", r.Status, r.Header.Get("Location"), r.Raw)
	}
	eventually(t, "processing to end", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "TRIAL" && s["show_status"] == "active"
	})
	if n := h.invoiceCount(account, "true"); n != 0 {
		t.Fatalf("%d invoices after a cancelled checkout", n)
	}
	h.expect(h.payWith(href, "4242424242424242"), 409) // a cancelled checkout cannot be paid
	var status string
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT status FROM checkouts WHERE account_id = $1`, account).Scan(&status)
	if status != "cancelled" {
		t.Fatalf("checkout status %q, want cancelled", status)
	}
	h.recordHistory("subscription:"+account, "", "subscription_checkout_cancelled.json")
}

// TestSandboxSavedCardsOffSession: 4000000000000341 and 4000002500003155
// pay at checkout and are saved, but their later off-session charges are
// declined or need authentication: the renewal is not paid.
func TestSandboxSavedCardsOffSession(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ card, last4 string }{{"4000000000000341", "0341"}, {"4000002500003155", "3155"}} {
		t.Run(c.card, func(t *testing.T) {
			h := newHarness(t).withTemporal(3 * time.Second)
			token, account, href := h.startPlan("offsession-"+c.last4+"@example.com", "STARTER")
			h.expect(h.payWith(href, c.card), 200)
			eventually(t, "Starter", func() bool { return h.subscription(token, account)["plan"] == "STARTER" })
			billing := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing", nil, token), 200)
			if !strings.Contains(billing.Raw, c.last4) {
				t.Fatalf("the paying card is not saved: %s", billing.Raw)
			}
			eventually(t, "the unpaid renewal", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'DUE_PAYMENT'") == 1 })
			if n := h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'"); n != 0 {
				t.Fatalf("%d paid renewals with a card whose off-session charges fail", n)
			}
		})
	}
}

// TestCancelCheckoutFromTheApp: the customer backs out (the provider's
// cancel link, or "Cancel payment" on the processing overlay): the app ends
// the open checkout at once and the dashboard is no longer processing.
func TestCancelCheckoutFromTheApp(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("app-cancel@example.com", "PRO")
	base := "/v1/accounts/" + account
	if r := h.expect(h.do("DELETE", base+"/subscription/checkout", nil, token), 200); r.str("status") != "cancelled" {
		t.Fatalf("cancel: %s", r.Raw)
	}
	if s := h.subscription(token, account); s["show_status"] != "active" || s["plan"] != "TRIAL" {
		t.Fatalf("after cancelling: %v", s)
	}
	h.expect(h.payWith(href, "4242424242424242"), 409) // closed at the provider too
	// Nothing open: cancelling again is harmless.
	if r := h.expect(h.do("DELETE", base+"/subscription/checkout", nil, token), 200); r.str("status") != "none" {
		t.Fatalf("second cancel: %s", r.Raw)
	}
	h.recordHistory("subscription:"+account, "", "subscription_checkout_cancelled_in_app.json")
}

// TestCancelCheckoutFindsItPaid: the customer paid in another tab, then
// pressed cancel: the payment is applied, not thrown away.
func TestCancelCheckoutFindsItPaid(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("cancel-paid@example.com", "STARTER")
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE sandbox_checkouts SET status = 'paid' WHERE id = $1`, sandboxID(href)); err != nil {
		t.Fatal(err)
	}
	if r := h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription/checkout", nil, token), 200); r.str("status") != "paid" {
		t.Fatalf("cancel of a paid checkout: %s", r.Raw)
	}
	if s := h.subscription(token, account); s["plan"] != "STARTER" || s["show_status"] != "active" {
		t.Fatalf("after cancelling a paid checkout: %v", s)
	}
	h.recordHistory("subscription:"+account, "", "subscription_cancel_finds_paid.json")
}

// TestAddingAPaymentMethodChargesAndRefundsACent: SPEC §9: adding a payment
// method charges 0.01 in the account's currency and refunds it at once — a
// real charge and a separate refund, recorded by the provider.
func TestAddingAPaymentMethodChargesAndRefundsACent(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("verify-card@example.com", "STARTER")
	h.expect(h.payWith(href, "4242424242424242"), 200)
	eventually(t, "Starter", func() bool { return h.subscription(token, account)["plan"] == "STARTER" })
	add := h.expect(h.do("POST", "/v1/accounts/"+account+"/billing/payment-methods", nil, token), 201)
	h.expect(h.payWith(add.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "the verification charge and its refund", func() bool {
		var charged, refunds int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sandbox_charges WHERE account_id = $1 AND amount = 1 AND paid`,
			account).Scan(&charged)
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sandbox_refunds r JOIN sandbox_charges c ON c.charge_id = r.charge_id
			WHERE c.account_id = $1 AND r.amount = 1`, account).Scan(&refunds)
		return charged == 1 && refunds == 1
	})
	// The sandbox refunds the cent in the same call that charges it; the
	// checkout is marked paid when its workflow applies the event, a moment
	// later on a loaded machine.
	eventually(t, "the payment-method checkout paid", func() bool {
		var status string
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT status FROM checkouts WHERE account_id = $1 AND purpose = 'payment_method'`,
			account).Scan(&status)
		return status == "paid"
	})
}
