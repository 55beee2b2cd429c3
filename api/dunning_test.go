package api_test

import (
	"slices"
	"testing"
	"time"

	"kudos"
)

// withDunning gives the harness a short dunning schedule (and no
// reminders); call it before withTemporal.
func (h *harness) withDunning(schedule ...time.Duration) *harness {
	h.srv.Config.Lifecycle = kudos.Lifecycle{DunningSchedule: schedule, Trial: h.srv.Config.TrialDuration}
	return h
}

// inDunning waits until the account's renewal is being retried and
// returns its subscription then.
func (h *harness) inDunning(token, account string) map[string]any {
	h.t.Helper()
	var sub map[string]any
	eventually(h.t, "the failed renewal to be retried", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] != nil
	})
	return sub
}

// paidWith signs up email and buys plan with a sandbox test card.
func (h *harness) paidWith(email, plan, card string) (token, account string) {
	token, account, href := h.startPlan(email, plan)
	h.expect(h.payWith(href, card), 200)
	eventually(h.t, plan, func() bool { return h.subscription(token, account)["plan"] == plan })
	return token, account
}

// TestDunningThenExpiry: a card whose later charges are declined (Stripe's
// 4000000000000341) goes through dunning: the plan stays active with
// payment_retry_at set while the renewal is retried on the schedule, the
// customer is mailed after each failure, and after the last attempt the
// plan expires with the renewal invoice due.
func TestDunningThenExpiry(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(2*time.Second, 4*time.Second).withTemporal(6 * time.Second)
	const email = "dunned@example.com"
	token, account := h.paidWith(email, "STARTER", "4000000000000341")
	base := "/v1/accounts/" + account
	sub := h.inDunning(token, account)
	if sub["show_status"] != "active" {
		t.Fatalf("during dunning the plan shows %v", sub["show_status"])
	}
	failed, _ := sub["failed_payment"].(map[string]any)
	if failed == nil || failed["amount"] != 217.8 || failed["currency"] != "EUR" || failed["invoice_id"] == "" {
		t.Fatalf("failed payment %v", sub["failed_payment"])
	}
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, token), 409) // no upgrade with a payment outstanding
	eventually(t, "the plan to expire after the last attempt", func() bool {
		sub = h.subscription(token, account)
		return sub["show_status"] == "plan_expired"
	})
	if sub["payment_retry_at"] != nil || sub["failed_payment"] != nil {
		t.Fatalf("after expiry: %v", sub)
	}
	due := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	if due != failed["invoice_id"] {
		t.Fatalf("the due invoice %s is not the one retried %v", due, failed["invoice_id"])
	}
	if n := h.invoiceCount(account, "kind = 'RENEWAL'"); n != 1 {
		t.Fatalf("%d renewal invoices: every attempt bills the same one", n)
	}
	var charges int
	_ = h.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM sandbox_charges WHERE account_id = $1 AND charge_id LIKE 'renewal:%'`, account).Scan(&charges)
	if charges != 3 {
		t.Fatalf("%d renewal charges, want the renewal date's and 2 retries", charges)
	}
	want := []kudos.MailPurpose{kudos.MailActivation, kudos.MailPaymentReceipt, kudos.MailPaymentFailed, kudos.MailPaymentFailed, kudos.MailPlanExpired}
	eventually(t, "the mails of dunning", func() bool { return slices.Equal(h.sent.purposes(email), want) })
	h.recordHistory("subscription:"+account, "", "subscription_dunning_expired.json")
}

// TestDunningRecoveredByANewCard: a working card added during dunning is
// charged at once; the period keeps its renewal date and dunning ends.
func TestDunningRecoveredByANewCard(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(20*time.Second, 40*time.Second).withTemporal(6 * time.Second)
	const email = "recovered@example.com"
	token, account := h.paidWith(email, "STARTER", "4000000000000341")
	base := "/v1/accounts/" + account
	sub := h.inDunning(token, account)
	renewal := sub["plan_renewal_at"].(string)
	run := h.currentRun("subscription:" + account)
	co := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201)
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "the renewal paid with the new card", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["plan_renewal_at"] != renewal
	})
	at, _ := time.Parse(time.RFC3339Nano, renewal)
	next, _ := time.Parse(time.RFC3339Nano, sub["plan_renewal_at"].(string))
	// The period keeps the renewal date (a later renewal may have moved it
	// on by whole periods meanwhile).
	if d := next.Sub(at); sub["show_status"] != "active" || sub["failed_payment"] != nil || d < 6*time.Second || d%(6*time.Second) != 0 {
		t.Fatalf("after the recovery: %v (renewal was %s)", sub, renewal)
	}
	if n := h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'"); n < 1 {
		t.Fatal("the renewal invoice is not paid")
	}
	eventually(t, "a receipt for the renewal", func() bool {
		got := h.sent.purposes(email)
		return len(got) >= 4 && slices.Equal(got[:4], []kudos.MailPurpose{kudos.MailActivation, kudos.MailPaymentReceipt, kudos.MailPaymentFailed,
			kudos.MailPaymentReceipt})
	})
	h.recordHistory("subscription:"+account, run, "subscription_dunning_new_card.json")
}
