package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
)

// refundsOfCheckout counts the refunds of the account's checkout.
func (h *harness) refundsOfCheckout(account, checkout string) int {
	h.t.Helper()
	var n int
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM refunds WHERE account_id = $1 AND checkout_id = $2`, account,
		checkout).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestALateUpgradePricedFromAnotherPlanIsRefunded: a Starter account
// opened an upgrade to Team, left it (cancelled), and upgraded to Pro
// instead. The Team upgrade's payment then arrives late (a delayed
// webhook). It was priced as Starter → Team for the rest of the period,
// while the account is on Pro now: applied, the account went to Team
// having paid Starter → Pro and Starter → Team, the Pro → Team part twice.
// A late upgrade priced from a plan the account is no longer on is
// refunded in full; the account stays on the plan it paid for.
func TestALateUpgradePricedFromAnotherPlanIsRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.paidWith("late-upgrade-from@example.com", "STARTER", "4242424242424242")
	team := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "TEAM"}, token), 201)
	first := h.checkoutOf(account)
	h.expect(h.sandbox(team.str("checkout_href"), "cancel"), 200)
	eventually(t, "the cancel", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	pro := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.payWith(pro.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })

	h.latePaidEvent(account, first)
	eventually(t, "the late Team upgrade refunded", func() bool { return h.refundsOfCheckout(account, first) == 1 })
	if sub := h.subscription(token, account); sub["plan"] != "PRO" || sub["show_status"] != "active" {
		t.Fatalf("after the late upgrade: %v, want Pro as paid", sub)
	}
	if n := h.invoiceCount(account, "kind = 'UPGRADE' AND status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid upgrades, want the Pro one", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_late_priced_from.json")
}

// TestALateSeatsPaymentPricedFromOtherSeatsIsRefunded: a Team owner opened
// a checkout for 3 more seats (10 → 13), left it, and bought 2 (10 → 12)
// instead. The first checkout's payment arriving late set the seats to 13
// ("up to" its count): 3 + 2 seats paid, 3 given. A late seats payment
// priced from seats the account no longer has is refunded in full.
func TestALateSeatsPaymentPricedFromOtherSeatsIsRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("late-seats-from@example.com")
	h.buyPlan(owner, account, "TEAM")
	time.Sleep(2 * time.Second)
	more := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription/seats", map[string]any{"seats": 13}, owner), 201)
	first := h.checkoutOf(account)
	h.expect(h.sandbox(more.str("checkout_href"), "cancel"), 200)
	eventually(t, "the cancel", func() bool { return h.subscription(owner, account)["show_status"] == "active" })
	fewer := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription/seats", map[string]any{"seats": 12}, owner), 201)
	h.expect(h.sandbox(fewer.str("checkout_href"), "pay"), 200)
	eventually(t, "12 seats", func() bool { _, limit := h.seats(owner, account); return limit == 12 })

	h.latePaidEvent(account, first)
	eventually(t, "the late seats payment refunded", func() bool { return h.refundsOfCheckout(account, first) == 1 })
	if _, limit := h.seats(owner, account); limit != 12 {
		t.Fatalf("%d seats after the late payment, want the 12 paid for", limit)
	}
}

// TestALatePaymentLostToADisputeIsNotApplied: a plan's checkout closed
// with no word of its payment (cancelled here; a webhook lost in
// production), the payment was disputed and the dispute lost, and only
// then did its "paid" event come (replayed by the provider
// reconciliation). The payment's money is back with the customer, but
// the late payment started the plan: a year given for nothing. A payment
// lost to a dispute, or returned, is never applied, whatever its
// checkout's status.
func TestALatePaymentLostToADisputeIsNotApplied(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("late-after-dispute@example.com", "PRO")
	checkout := h.checkoutOf(account)
	h.expect(h.sandbox(href, "cancel"), 200)
	eventually(t, "the cancel", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	for i, status := range []kudos.DisputeStatus{kudos.DisputeOpen, kudos.DisputeLost} {
		ev := kudos.PaymentEvent{EventID: "evt_dispute_" + uuid.NewString(), Provider: "sandbox", AccountID: uuid.MustParse(account),
			OccurredAt: time.Now().Add(time.Duration(i) * time.Second), Dispute: &kudos.DisputeEvent{ID: "dp_" + checkout, Status: status,
				Amount: kudos.Money{Amount: 59900, Currency: "EUR"}, Payment: checkout}}
		if _, err := h.db.RecordPaymentEvent(context.Background(), ev, dispatch.PaymentEvent); err != nil {
			t.Fatal(err)
		}
		h.srv.Outbox.Kick()
	}
	eventually(t, "the dispute lost", func() bool { return h.count("disputes", account, "status = 'lost'") == 1 })
	h.latePaidEvent(account, checkout)
	eventually(t, "the late paid event answered", func() bool {
		return h.count("payment_events", account, "event_id LIKE 'evt_late_%' AND applied_at IS NOT NULL") == 1
	})
	if s := h.subscription(token, account); s["plan"] != "TRIAL" {
		t.Fatalf("after the late payment of a payment lost to a dispute: %v, want the trial still", s)
	}
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 0 {
		t.Fatalf("%d paid invoices, want none: the payment was taken back", n)
	}
}
