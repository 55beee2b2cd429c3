package api_test

import (
	"context"
	"testing"
	"time"

	"kudos"
)

// TestALostDisputeBillsTheYearAtThePriceAgreed: a plan bought with a
// promotion code loses the dispute of its payment. The period is unpaid
// and the plan expires with a due invoice of a year of it; that invoice
// bills the year at the price the customer agreed for it, less the same
// code's discount, though the code (once: the first payment only) no
// longer discounts the account's renewals.
func TestALostDisputeBillsTheYearAtThePriceAgreed(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.promo(kudos.Promotion{Code: "FIRST25", PercentOff: 25, Duration: kudos.PromotionOnce})
	token, account := h.signedUpUser("disputed-promo@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "first25"}, token), 201).str("checkout_href")
	h.expect(h.sandbox(href, "pay"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	paidNet, _, _, code, off := h.invoiceAmounts(account, "SUBSCRIPTION")
	if code != "FIRST25" || off == 0 {
		t.Fatalf("the plan's invoice was not discounted: %s -%d", code, off)
	}

	h.expect(h.dispute(account, h.invoiceOfKind(account, "SUBSCRIPTION"), "lost"), 200)
	eventually(t, "the plan expired by the lost dispute", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	due := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	var net, dueOff int64
	var dueCode *string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT net_amount, discount_code, coalesce(discount_amount, 0) FROM invoices WHERE id = $1`,
		due).Scan(&net, &dueCode, &dueOff); err != nil {
		t.Fatal(err)
	}
	if net != paidNet || dueCode == nil || *dueCode != "FIRST25" || dueOff != off {
		t.Fatalf("the due invoice's net %d, discount %v -%d; want the year at the price agreed, %d less FIRST25's %d", net, dueCode, dueOff,
			paidNet, off)
	}
}
