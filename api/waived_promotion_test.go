package api_test

import (
	"context"
	"testing"
	"time"

	"kudos"
)

// TestAnUpgradeWaivedByItsCodeUsesTheCode: Pro a euro a year dearer than
// Starter, the upgrade's difference (1.21 with VAT) is chargeable; a
// forever 90 % code, one use in all, brings it under the provider's
// minimum charge: the upgrade is waived (applied at once, a paid invoice of zero),
// and the code was used for it, as Stripe Billing counts a redemption
// whatever the amount left: its one use is taken (no other account may use
// it), the invoice names it, and it runs for the account's renewals as
// after a paid checkout. Before, the waiver dropped the code: never
// counted, usable again by the account and by any other, past its one use.
func TestAnUpgradeWaivedByItsCodeUsesTheCode(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.Prices.Pro = h.srv.Config.Prices.Starter + 100 // a euro a year more
	h.withTemporal(time.Hour)
	one := 1
	h.promo(kudos.Promotion{Code: "PRO90", PercentOff: 90, Duration: kudos.PromotionForever, MaxRedemptions: &one})
	token, account := h.paidWith("waived-by-code@example.com", "STARTER", "4242424242424242")
	r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "pro90"}, token), 200)
	if r.Body["applied"] != true {
		t.Fatalf("an upgrade brought to nothing by its code: %s, want applied", r.Raw)
	}
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.wantRows("invoices", account, "kind = 'UPGRADE' AND status = 'PAID' AND total_amount = 0 AND discount_code = 'PRO90'", 1,
		"%d waived upgrade invoices naming the code, want 1")
	if p, err := h.db.Promotion(context.Background(), "PRO90"); err != nil || p.Redeemed != 1 {
		t.Fatalf("the code after the waived upgrade: %+v (%v), want its one use taken", p, err)
	}
	if p := h.subscription(token, account)["promotion"]; p == nil {
		t.Fatal("the forever code does not run after the upgrade it waived")
	}
	h.recordHistory("subscription:"+account, "", "subscription_upgrade_waived_by_code.json")
}
