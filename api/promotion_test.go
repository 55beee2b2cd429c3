package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"kudos"
	"kudos/dispatch"
)

// promo creates a promotion code for the test.
func (h *harness) promo(p kudos.Promotion) {
	h.t.Helper()
	if p.AmountOff > 0 && p.Currency == "" {
		p.Currency = "EUR"
	}
	if err := h.db.CreatePromotion(context.Background(), p); err != nil {
		h.t.Fatal(err)
	}
}

// invoiceAmounts are the net, VAT, total and discount line of the account's
// one invoice of kind.
func (h *harness) invoiceAmounts(account, kind string) (net, vat, total int64, code string, off int64) {
	h.t.Helper()
	var c *string
	var o *int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT net_amount, vat_amount, total_amount, discount_code, discount_amount
		FROM invoices WHERE account_id = $1 AND kind = $2`, account, kind).Scan(&net, &vat, &total, &c, &o); err != nil {
		h.t.Fatal(err)
	}
	if c != nil && o != nil {
		code, off = *c, *o
	}
	return net, vat, total, code, off
}

// TestPricingShowsAPromotionCodesDiscount (issue 38 item 3): the plans
// page's pricing read with ?promotion_code= (any case) answers the prices
// less the code's discount on the plans it covers, and what the code does;
// a code that cannot be used is 422 fields.promotion_code saying why:
// unknown, expired, withdrawn (expired), used up.
func TestPricingShowsAPromotionCodesDiscount(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("promo-pricing@example.com")
	one, past := 1, time.Now().Add(-time.Hour)
	h.promo(kudos.Promotion{Code: "SPRING20", PercentOff: 20, Duration: kudos.PromotionYears, Years: 2, Plans: []kudos.Plan{kudos.PlanTeam, kudos.PlanPro}})
	h.promo(kudos.Promotion{Code: "FIFTY", AmountOff: 5000, Duration: kudos.PromotionOnce})
	h.promo(kudos.Promotion{Code: "OLD", PercentOff: 10, Duration: kudos.PromotionOnce, ExpiresAt: &past})
	h.promo(kudos.Promotion{Code: "GONE", PercentOff: 10, Duration: kudos.PromotionOnce})
	h.promo(kudos.Promotion{Code: "SOLO", PercentOff: 10, Duration: kudos.PromotionOnce, MaxRedemptions: &one})
	if err := h.db.DeactivatePromotion(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE promotion_codes SET redeemed = 1 WHERE code = 'SOLO'`); err != nil {
		t.Fatal(err)
	}
	path := "/v1/pricing/" + account
	plain := h.expect(h.do("GET", path, nil, token), 200)
	if _, ok := plain.Body["promotion"]; ok {
		t.Fatalf("pricing without a code: %s", plain.Raw)
	}
	r := h.expect(h.do("GET", path+"?promotion_code=spring20", nil, token), 200)
	table := r.Body["pricing_table"].(map[string]any)
	if table["starter_pricing"] != 180.0 || table["pro_pricing"] != 374.4 || table["team_pricing"] != 950.4 {
		t.Fatalf("the table less 20 %% on Pro and Team: %s", r.Raw)
	}
	p := r.Body["promotion"].(map[string]any)
	if p["code"] != "SPRING20" || p["percent_off"] != 20.0 || p["duration"] != "years" || p["duration_years"] != 2.0 ||
		fmt.Sprint(p["plans"]) != "[TEAM PRO]" || p["amount_off"] != nil {
		t.Fatalf("the code's terms: %s", r.Raw)
	}
	r = h.expect(h.do("GET", path+"?promotion_code=Fifty", nil, token), 200)
	if table = r.Body["pricing_table"].(map[string]any); table["starter_pricing"] != 130.0 || table["team_pricing"] != 1138.0 {
		t.Fatalf("the table less 50.00: %s", r.Raw)
	}
	if p = r.Body["promotion"].(map[string]any); p["amount_off"] != 50.0 || p["duration"] != "once" || p["percent_off"] != nil {
		t.Fatalf("the amount code's terms: %s", r.Raw)
	}
	for code, why := range map[string]string{"NOPE": kudos.FPromotionUnknown, "x": kudos.FPromotionUnknown, "old": kudos.FPromotionExpired,
		"GONE": kudos.FPromotionExpired, "solo": kudos.FPromotionUsedUp} {
		if f := h.expect(h.do("GET", path+"?promotion_code="+code, nil, token), 422).field("promotion_code"); f != why {
			t.Errorf("%s: fields.promotion_code %q, want %q", code, f, why)
		}
	}
}

// TestPromotionGuessingIsRateLimited (issue 38 item 3): every pricing read
// or plan request with a promotion code takes a try from the account's
// budget (20 an hour) and the client's: beyond it 429 with Retry-After,
// right codes included, while reads without a code go on.
func TestPromotionGuessingIsRateLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("promo-guess@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", validAddress(), token), 200)
	h.promo(kudos.Promotion{Code: "REAL10", PercentOff: 10, Duration: kudos.PromotionOnce})
	path := "/v1/pricing/" + account
	for i := range 20 {
		h.expect(h.do("GET", fmt.Sprintf("%s?promotion_code=GUESS%03d", path, i), nil, token), 422)
	}
	r := h.expect(h.do("GET", path+"?promotion_code=REAL10", nil, token), 429)
	if r.errorCode() != kudos.ERateLimited {
		t.Fatalf("the 21st try: %s", r.Raw)
	}
	h.expect(h.do("POST", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "REAL10"}, token), 429)
	h.expect(h.do("GET", path, nil, token), 200)
}

// TestAPromotionCodeDiscountsTheCheckoutAndItsInvoice (issue 38 item 3):
// a Team plan bought with a 20 % forever code (typed in lower case) is
// checked out at the discounted price with VAT computed after the
// discount; the invoice carries the discount line; the account's
// subscription shows the running promotion, a second code is then refused
// (one at a time), and the code's use is counted. A code for other plans
// is refused for Starter. The run is recorded for the replay tests.
func TestAPromotionCodeDiscountsTheCheckoutAndItsInvoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.promo(kudos.Promotion{Code: "TEAM20", PercentOff: 20, Duration: kudos.PromotionForever, Plans: []kudos.Plan{kudos.PlanTeam, kudos.PlanPro}})
	h.promo(kudos.Promotion{Code: "MORE", PercentOff: 5, Duration: kudos.PromotionOnce})
	token, account := h.signedUpUser("promo-checkout@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	r := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER", "promotion_code": "team20"}, token), 422)
	if f := r.field("promotion_code"); f != kudos.FPromotionNotForPlan {
		t.Fatalf("a Team/Pro code for Starter: %s", r.Raw)
	}
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM", "promotion_code": "team20"}, token), 201).str("checkout_href")
	// 1188.00 less 20 % is 950.40; 21 % VAT on that is 199.58.
	if page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200); !strings.Contains(page.Raw, "EUR 1149.98") {
		t.Fatalf("the discounted Team checkout: %s", page.Raw)
	}
	h.expect(h.sandbox(href, "pay"), 200)
	eventually(t, "Team", func() bool { return h.subscription(token, account)["plan"] == "TEAM" })
	net, vat, total, code, off := h.invoiceAmounts(account, "SUBSCRIPTION")
	if net != 95040 || vat != 19958 || total != 114998 || code != "TEAM20" || off != 23760 {
		t.Fatalf("invoice net %d VAT %d total %d, line %s -%d: want 950.40 + 199.58 = 1149.98 after TEAM20 -237.60", net, vat, total, code, off)
	}
	promo, _ := h.subscription(token, account)["promotion"].(map[string]any)
	if promo["code"] != "TEAM20" || promo["duration"] != "forever" {
		t.Fatalf("the account's running promotion: %v", promo)
	}
	if p, err := h.db.Promotion(context.Background(), "TEAM20"); err != nil || p.Redeemed != 1 {
		t.Fatalf("TEAM20 used %+v (%v), want once", p, err)
	}
	if f := h.expect(h.do("GET", "/v1/pricing/"+account+"?promotion_code=more", nil, token), 422).field("promotion_code"); f != kudos.FPromotionActive {
		t.Fatalf("a second code while one runs: %q", f)
	}
	h.recordHistory("subscription:"+account, "", "subscription_promotion_checkout.json")
}

// TestAnAbandonedCheckoutGivesItsCodeBack (issue 38 item 3): a checkout
// opened with a code of one use holds it (a second account is told it is
// used up); cancelling the checkout gives it back, and the second account
// can use it. The same account asking again with the same code gets the
// same checkout; without it, a new one at the full price.
func TestAnAbandonedCheckoutGivesItsCodeBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	one := 1
	h.promo(kudos.Promotion{Code: "ONLY1", AmountOff: 5000, Duration: kudos.PromotionOnce, MaxRedemptions: &one})
	tokenA, accountA := h.signedUpUser("promo-a@example.com")
	tokenB, accountB := h.signedUpUser("promo-b@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+accountA+"/billing-address", validAddress(), tokenA), 200)
	h.expect(h.do("PATCH", "/v1/accounts/"+accountB+"/billing-address", validAddress(), tokenB), 200)
	body := map[string]any{"plan": "PRO", "promotion_code": "only1"}
	first := h.expect(h.do("POST", "/v1/accounts/"+accountA+"/subscription", body, tokenA), 201).str("checkout_href")
	if again := h.expect(h.do("POST", "/v1/accounts/"+accountA+"/subscription", body, tokenA), 201).str("checkout_href"); again != first {
		t.Fatalf("the same request opened another checkout")
	}
	if f := h.expect(h.do("POST", "/v1/accounts/"+accountB+"/subscription", body, tokenB), 422).field("promotion_code"); f != kudos.FPromotionUsedUp {
		t.Fatalf("B while A holds the only use: %q", f)
	}
	h.expect(h.do("DELETE", "/v1/accounts/"+accountA+"/subscription/checkout", nil, tokenA), 200)
	eventually(t, "the use given back", func() bool {
		p, err := h.db.Promotion(context.Background(), "ONLY1")
		return err == nil && p.Redeemed == 0
	})
	href := h.expect(h.do("POST", "/v1/accounts/"+accountB+"/subscription", body, tokenB), 201).str("checkout_href")
	// 468.00 less 50.00 is 418.00; 21 % VAT on that is 87.78.
	if page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200); !strings.Contains(page.Raw, "EUR 505.78") {
		t.Fatalf("B's discounted checkout: %s", page.Raw)
	}
}

// TestAForeverCodeDiscountsEachRenewalInvoice (issue 38 item 3): a Pro
// plan bought with a forever amount code on a short period renews on the
// workflow's timer with the code's discount line on the renewal invoice
// and VAT after it; the account's promotion runs on. The first run (the
// purchase and the renewal) is recorded for the replay tests.
func TestAForeverCodeDiscountsEachRenewalInvoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(4 * time.Second)
	h.promo(kudos.Promotion{Code: "LOYAL", AmountOff: 6800, Duration: kudos.PromotionForever})
	token, account := h.signedUpUser("promo-renews@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	wf := "subscription:" + account
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "Loyal"}, token), 201).str("checkout_href")
	first := h.currentRun(wf)
	h.expect(h.payWith(href, "4242424242424242"), 200)
	eventually(t, "the renewal paid", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'") >= 1 })
	// 468.00 less 68.00 is 400.00; 21 % VAT on that is 84.00.
	rows, err := h.db.Pool.Query(context.Background(), `SELECT net_amount, vat_amount, total_amount, discount_code, discount_amount
		FROM invoices WHERE account_id = $1 AND kind IN ('SUBSCRIPTION', 'RENEWAL')`, account)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var net, vat, total, off int64
		var code string
		if err := rows.Scan(&net, &vat, &total, &code, &off); err != nil {
			t.Fatal(err)
		}
		if net != 40000 || vat != 8400 || total != 48400 || code != "LOYAL" || off != 6800 {
			t.Fatalf("invoice net %d VAT %d total %d line %s -%d, want 400.00 + 84.00 after LOYAL -68.00", net, vat, total, code, off)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("%d discounted invoices, want the purchase's and the renewal's", n)
	}
	if p, _ := h.subscription(token, account)["promotion"].(map[string]any); p["code"] != "LOYAL" {
		t.Fatalf("the promotion after a renewal: %v", p)
	}
	h.recordHistory(wf, first, "subscription_promotion_renewed.json")
}

// TestAnUpgradeTakesAPromotionCode (issue 38 item 3): PATCH subscription
// {plan, promotion_code} prices the upgrade's prorated difference less the
// code's discount (the invoice's discount line), and a once code leaves
// no promotion running once paid.
func TestAnUpgradeTakesAPromotionCode(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.promo(kudos.Promotion{Code: "UP10", PercentOff: 10, Duration: kudos.PromotionOnce})
	token, account := h.paidWith("promo-upgrade@example.com", "STARTER", "4242424242424242")
	href := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "up10"}, token), 201).str("checkout_href")
	h.expect(h.payWith(href, "4242424242424242"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	net, vat, _, code, off := h.invoiceAmounts(account, "UPGRADE")
	if code != "UP10" || off <= 0 || off != (net+off+5)/10 || vat != (net*21+50)/100 {
		t.Fatalf("upgrade invoice net %d VAT %d, line %s -%d: want 10 %% off the prorated difference, VAT after it", net, vat, code, off)
	}
	if p := h.subscription(token, account)["promotion"]; p != nil {
		t.Fatalf("a once code still runs after the upgrade: %v", p)
	}
}

// TestARenewalReminderNamesTheDiscountedAmount: the renewal reminder of an
// account whose forever code runs names what the renewal will charge, the
// price less the code and VAT on what is left (484.00), not the list price.
func TestARenewalReminderNamesTheDiscountedAmount(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withLifecycle(time.Hour, 0, 3*time.Second).withTemporal(6 * time.Second)
	h.promo(kudos.Promotion{Code: "LOYAL", AmountOff: 6800, Duration: kudos.PromotionForever})
	const email = "promo-reminded@example.com"
	token, account := h.signedUpUser(email)
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "LOYAL"}, token), 201).str("checkout_href")
	h.expect(h.payWith(href, "4242424242424242"), 200)
	var text string
	eventually(t, "the renewal reminder", func() bool {
		for _, m := range h.sent.to(email) {
			if m.Purpose == kudos.MailRenewalReminder {
				text = m.Text
				return true
			}
		}
		return false
	})
	if !strings.Contains(text, "484.00") || strings.Contains(text, "566.28") {
		t.Fatalf("the reminder names another amount than 484.00 (468.00 less LOYAL's 68.00, with 21 %% VAT):\n%s", text)
	}
}

// TestARebuiltRunKeepsTheOpenCheckoutsCode: the account's run is lost
// while a checkout priced with a forever code is open; the reconciliation
// rebuilds it from Postgres, the checkout is paid, and the renewal is
// discounted as the code says. Before, the rebuilt run knew the checkout
// but not its code's terms, and the renewals were charged in full.
func TestARebuiltRunKeepsTheOpenCheckoutsCode(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(6 * time.Second)
	h.promo(kudos.Promotion{Code: "LOYAL", AmountOff: 6800, Duration: kudos.PromotionForever})
	token, account := h.signedUpUser("promo-rebuilt@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO", "promotion_code": "LOYAL"}, token), 201).str("checkout_href")
	h.terminate(account)
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick}
	eventually(t, "the reconciliation to start the account's run again", func() bool {
		rep, err := r.Reconcile(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(rep.Started) == 1
	})
	h.expect(h.payWith(href, "4242424242424242"), 200)
	eventually(t, "the renewal paid", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'") >= 1 })
	var net, off int64
	var code *string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT net_amount, discount_code, coalesce(discount_amount, 0) FROM invoices
		WHERE account_id = $1 AND kind = 'RENEWAL' ORDER BY created_at LIMIT 1`, account).Scan(&net, &code, &off); err != nil {
		t.Fatal(err)
	}
	if net != 40000 || code == nil || *code != "LOYAL" || off != 6800 {
		t.Fatalf("the renewal after a rebuilt run: net %d, code %v, -%d; want 400.00 after LOYAL's 68.00", net, code, off)
	}
}
