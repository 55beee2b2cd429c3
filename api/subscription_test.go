package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kudos"
)

// subscription returns the account's subscription as the api shows it.
func (h *harness) subscription(token, account string) map[string]any {
	r := h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200)
	return r.Body["account"].(map[string]any)["subscription"].(map[string]any)
}

// sandbox settles a sandbox checkout through its button, as JSON.
func (h *harness) sandbox(href, action string) response {
	path := strings.TrimPrefix(href, "http://127.0.0.1:8080")
	return h.do("POST", path+"/"+action, nil, "", "Accept", "application/json")
}

func TestSubscriptionCheckoutToPaidThroughTemporal(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(2 * time.Second)
	token, account := h.signedUpUser("buyer@example.com")
	base := "/v1/accounts/" + account

	pricing := h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200)
	if pricing.str("currency") != "EUR" || pricing.Body["vat_rate"] != float64(21) || pricing.str("checkout_origin") != "http://127.0.0.1:8080" {
		t.Fatalf("pricing %s", pricing.Raw)
	}
	// No billing address yet: the UI must ask for it first (SPEC §4).
	if r := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 422); r.field("account_billing_address") != kudos.FRequired {
		t.Fatal(r.Raw)
	}
	h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "GOLD"}, token), 422)
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)

	first := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	second := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	href := first.str("checkout_href")
	if !strings.HasPrefix(href, "http://127.0.0.1:8080/sandbox/checkout/") || second.str("checkout_href") != href {
		t.Fatalf("checkouts %s / %s: a second click must get the same checkout", first.Raw, second.Raw)
	}
	if s := h.subscription(token, account); s["show_status"] != "processing" {
		t.Fatalf("while paying: %v", s)
	}
	// The hosted page shows the amount: Pro 468.00 + 21 % VAT.
	page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200)
	if !strings.Contains(page.Raw, "EUR 566.28") {
		t.Fatalf("sandbox page: %s", page.Raw)
	}
	wfID := "subscription:" + account
	firstRun := h.currentRun(wfID)
	h.expect(h.sandbox(href, "pay"), 200)
	h.expect(h.sandbox(href, "pay"), 409) // a settled checkout cannot be paid twice

	eventually(t, "the plan to become active", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "PRO" && s["show_status"] == "active" && s["plan_renewal_at"] != nil && s["start_next_period"] == true
	})
	var number, status string
	var total int64
	err := h.db.Pool.QueryRow(context.Background(), `SELECT number, status, total_amount FROM invoices i JOIN accounts a ON a.id = i.account_id
		WHERE a.id = $1 AND i.kind = 'SUBSCRIPTION'`, account).Scan(&number, &status, &total)
	if err != nil || status != "PAID" || total != 56628 || !strings.HasPrefix(number, "KUD-") {
		t.Fatalf("invoice %s %s %d %v", number, status, total, err)
	}
	h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 404)

	// The 2 s period renews by itself, charging the saved sandbox card.
	eventually(t, "a paid renewal", func() bool {
		var n int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM invoices WHERE account_id = $1 AND kind = 'RENEWAL' AND status = 'PAID'`, account).Scan(&n)
		return n >= 1
	})

	// Renewal off: the plan stops at the end of the period with a due invoice
	// that 'continue with plan' pays.
	h.expect(h.do("DELETE", base+"/subscription", nil, token), 200)
	if s := h.subscription(token, account); s["start_next_period"] != false {
		t.Fatalf("after cancel: %v", s)
	}
	eventually(t, "the plan to expire", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	h.expect(h.do("POST", base+"/subscription/restart", nil, token), 409) // an expired plan is paid, not restarted
	due := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	pay := h.expect(h.do("POST", base+"/invoices/"+due+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the plan to be active again", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	h.expect(h.do("POST", base+"/invoices/"+due+"/payment", nil, token), 409)
	h.recordHistory(wfID, firstRun, "subscription_trial_checkout_paid_renewed.json")
	h.recordHistory(wfID, h.currentRun(wfID), "subscription_renewal_off_expired_paid_due.json")
}

func TestUpgradeAndDeclinedRenewal(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning().withTemporal(3 * time.Second) // no retries: the plan expires at once
	token, account := h.signedUpUser("upgrader@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 409) // a trial is not upgraded
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "Starter", func() bool { return h.subscription(token, account)["plan"] == "STARTER" })

	// Decline renewals before upgrading, so the renewal after it fails.
	h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": true}, ""), 204)
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 422)
	up := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.sandbox(up.str("checkout_href"), "pay"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	var kind, desc string
	var total int64
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT kind, description, total_amount FROM invoices WHERE account_id = $1 AND kind = 'UPGRADE'`, account).Scan(&kind, &desc, &total)
	full := int64(46800-18000) * 121 / 100
	if desc != "UPGRADE_PRO" || total <= 0 || total >= full {
		t.Fatalf("upgrade invoice %s %d: want a prorated part of %d", desc, total, full)
	}
	eventually(t, "the declined renewal to expire the plan", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	if r := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200); r.str("invoice_id") == "" {
		t.Fatal(r.Raw)
	}
	h.recordHistory("subscription:"+account, "", "subscription_upgrade_renewal_declined.json")
}

func TestCheckoutFailReturnsToTrial(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("failer@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "fail"), 200)
	eventually(t, "the trial back", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "TRIAL" && s["show_status"] == "active"
	})
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM invoices WHERE account_id = $1`, account).Scan(&n)
	if n != 0 {
		t.Fatalf("%d invoices after a failed first payment (nothing is owed)", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_checkout_failed.json")
}
