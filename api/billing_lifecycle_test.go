package api_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"kudos"
)

// withLifecycle sets the trial's length and the reminders (before
// withTemporal).
func (h *harness) withLifecycle(trial, trialReminder, renewalReminder time.Duration, schedule ...time.Duration) *harness {
	h.srv.Config.TrialDuration = trial
	h.srv.Config.Lifecycle = kudos.Lifecycle{TrialReminder: trialReminder, RenewalReminder: renewalReminder, Trial: trial,
		DunningSchedule: schedule}
	return h
}

// mailed waits until the purposes of the mails delivered to email are want.
func (h *harness) mailed(email string, want ...kudos.MailPurpose) {
	h.t.Helper()
	eventually(h.t, "mails "+email, func() bool { return slices.Equal(h.sent.purposes(email), want) })
}

// timelineTypes counts the types on the account's billing timeline.
func (h *harness) timelineTypes(token, account string) map[string]int {
	h.t.Helper()
	r := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing/timeline?limit=100", nil, token), 200)
	n := map[string]int{}
	for _, e := range r.Body["events"].([]any) {
		n[e.(map[string]any)["type"].(string)]++
	}
	return n
}

// TestTrialReminderThenExpiry: the trial reminder goes out before the trial
// ends, once; then the trial expires.
func TestTrialReminderThenExpiry(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withLifecycle(5*time.Second, 3*time.Second, 0).withTemporal(time.Hour)
	const email = "reminded@example.com"
	token, account := h.signedUpUser(email)
	eventually(t, "the trial to expire", func() bool { return h.subscription(token, account)["show_status"] == "trial_expired" })
	h.mailed(email, kudos.MailActivation, kudos.MailTrialReminder)
	if n := h.timelineTypes(token, account); n["trial_reminder_sent"] != 1 || n["trial_expired"] != 1 {
		t.Fatalf("timeline %v: want the reminder and the expiry once", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_trial_reminder_expired.json")
}

// TestPurchaseBeforeTheTrialReminder: a trial that bought a plan gets no
// trial reminder, and a receipt for its payment.
func TestPurchaseBeforeTheTrialReminder(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withLifecycle(8*time.Second, 3*time.Second, 0).withTemporal(time.Hour)
	const email = "early@example.com"
	token, account := h.paidWith(email, "PRO", "4242424242424242")
	time.Sleep(6 * time.Second) // past the reminder's time
	if s := h.subscription(token, account); s["show_status"] != "active" || s["plan"] != "PRO" {
		t.Fatalf("after the trial's end: %v", s)
	}
	h.mailed(email, kudos.MailActivation, kudos.MailPaymentReceipt)
	h.recordHistory("subscription:"+account, "", "subscription_purchase_before_reminder.json")
}

// TestRenewalReminderThenRenewal: the renewal reminder goes out before a
// renewal, then the renewal is charged and receipted.
func TestRenewalReminderThenRenewal(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withLifecycle(time.Hour, 0, 3*time.Second).withTemporal(6 * time.Second)
	const email = "renewing@example.com"
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	wf := "subscription:" + account
	first := h.currentRun(wf)
	h.mailed(email, kudos.MailActivation, kudos.MailPaymentReceipt, kudos.MailRenewalReminder, kudos.MailPaymentReceipt)
	if n := h.timelineTypes(token, account); n["renewal_reminder_sent"] < 1 || n["renewal_succeeded"] < 1 {
		t.Fatalf("timeline %v: want the reminder and the renewal", n)
	}
	h.recordHistory(wf, first, "subscription_renewal_reminder_renewed.json")
}

// TestAuthenticationRequiredCompletedOnTheProvidersPage: a saved card whose
// later charges need authentication (Stripe's 4000002500003155): the
// customer is mailed a link to the provider's page; paying there settles
// the renewal, keeping its date, without a second charge.
func TestAuthenticationRequiredCompletedOnTheProvidersPage(t *testing.T) {
	t.Parallel()
	const email = "secure@example.com"
	h, token, account, sub := inAuthenticationDunning(t, email)
	if sub["show_status"] != "active" {
		t.Fatalf("while authentication is asked for the plan shows %v", sub["show_status"])
	}
	renewal := sub["plan_renewal_at"]
	run := h.currentRun("subscription:" + account)
	var href string
	eventually(t, "the renewal checkout", func() bool {
		return h.db.Pool.QueryRow(t.Context(), `SELECT url FROM checkouts WHERE account_id = $1 AND purpose = 'renewal' AND status = 'open'`,
			account).Scan(&href) == nil
	})
	eventually(t, "the payment_action_required mail", func() bool {
		for _, m := range h.sent.to(email) {
			if m.Purpose == kudos.MailPaymentActionRequired && strings.Contains(m.Text, href) {
				return true
			}
		}
		return false
	})
	h.expect(h.payWith(href, "4000002500003155"), 200) // on-session, the customer authenticates
	eventually(t, "the renewal settled", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["plan_renewal_at"] != renewal
	})
	var charges int
	_ = h.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM sandbox_charges WHERE account_id = $1 AND charge_id LIKE 'renewal:%'`, account).Scan(&charges)
	if charges != 1 {
		t.Fatalf("%d off-session renewal charges, want the one that asked for authentication", charges)
	}
	h.recordHistory("subscription:"+account, run, "subscription_renewal_authenticated.json")
}
