package api_test

import (
	"context"
	"testing"
	"time"
)

// terminate ends the account's subscription workflow as an operator (or a
// lost history) would: what follows must be rebuilt from Postgres.
func (h *harness) terminate(account string) {
	h.t.Helper()
	if err := h.tc.TerminateWorkflow(context.Background(), "subscription:"+account, "", "test: history lost"); err != nil {
		h.t.Fatal(err)
	}
}

// TestExpiredPlanStaysPayableAfterARestart: a plan_expired account whose
// workflow is gone pays its due invoice and is active again.
func TestExpiredPlanStaysPayableAfterARestart(t *testing.T) {
	t.Parallel()
	h, token, account, due := expiredByADeclinedRenewal(t, "restart-due@example.com")
	base := "/v1/accounts/" + account
	h.terminate(account)
	pay := h.expect(h.do("POST", base+"/invoices/"+due+"/payment", nil, token), 201)
	h.expect(h.payWith(pay.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "the plan to be active again", func() bool {
		s := h.subscription(token, account)
		return s["show_status"] == "active" && s["plan"] == "STARTER"
	})
	h.recordHistory("subscription:"+account, "", "subscription_restarted_plan_expired_paid.json")
}

// TestAnExpiredPlansInvoicePaidLaterCarriesTheNewPeriod: the renewal
// invoice left due when dunning let the plan expire, paid later, starts a
// new period from its payment; the invoice is for that period (its date of
// supply, and what a later dispute or returned debit of it is judged by),
// not for the renewal's that never started.
func TestAnExpiredPlansInvoicePaidLaterCarriesTheNewPeriod(t *testing.T) {
	t.Parallel()
	h, token, account, due := expiredByADeclinedRenewal(t, "expired-paid-later@example.com")
	base := "/v1/accounts/" + account
	time.Sleep(2 * time.Second) // paid well after the renewal date it was billed for
	pay := h.expect(h.do("POST", base+"/invoices/"+due+"/payment", nil, token), 201)
	h.expect(h.payWith(pay.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "the plan to be active again", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	var from, to, started, renews time.Time
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT i.service_from, i.service_to, s.period_started_at, s.plan_renewal_at
		FROM invoices i JOIN subscriptions s ON s.account_id = i.account_id WHERE i.id = $1`, due).Scan(&from, &to, &started, &renews); err != nil {
		t.Fatal(err)
	}
	if !from.Equal(started) || !to.Equal(renews) {
		t.Fatalf("the invoice paid later is for %s – %s, want the period it started: %s – %s", from, to, started, renews)
	}
}

// expiredByADeclinedRenewal is a Starter plan of 3 s bought by email whose
// renewal was declined with no retries, so the plan expired: its harness,
// the owner's token, the account and the renewal's invoice left due.
func expiredByADeclinedRenewal(t *testing.T, email string) (h *harness, token, account, due string) {
	h = newHarness(t).withDunning().withTemporal(3 * time.Second) // no retries: the plan expires at the renewal
	token, account, href := h.startPlan(email, "STARTER")
	h.expect(h.payWith(href, "4000000000000341"), 200) // its renewal will be declined
	eventually(t, "the plan to expire", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	due = h.expect(h.do("GET", "/v1/accounts/"+account+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	return h, token, account, due
}

// TestOpenCheckoutSurvivesARestart: a checkout paid after its workflow was
// lost is applied by the workflow rebuilt from Postgres.
func TestOpenCheckoutSurvivesARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("restart-open@example.com", "PRO")
	h.terminate(account)
	h.expect(h.payWith(href, "4242424242424242"), 200)
	eventually(t, "the paid plan", func() bool {
		s := h.subscription(token, account)
		return s["show_status"] == "active" && s["plan"] == "PRO"
	})
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid invoices", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_restarted_open_checkout_paid.json")
}

// TestTrialExpiresByItsTimer: a trial ends by the workflow's timer alone,
// and the activation mail went out through the e-mail workflow.
func TestTrialExpiresByItsTimer(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.srv.Config.TrialDuration = 3 * time.Second
	token, account := h.signedUpUser("short-trial@example.com")
	eventually(t, "the trial to expire", func() bool { return h.subscription(token, account)["show_status"] == "trial_expired" })
	h.recordHistory("subscription:"+account, "", "subscription_trial_expired.json")
	var mailWorkflow string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT workflow_id FROM outbox WHERE kind = 'mail' ORDER BY id LIMIT 1`).
		Scan(&mailWorkflow); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the activation mail", func() bool { return !h.running(mailWorkflow) })
	h.recordHistory(mailWorkflow, "", "email_delivered.json")
}

// TestARunRebuiltWhileTheRenewalDebitSettlesWaitsForIt: the renewal's SEPA
// debit is settling (the owner has turned auto-renewal off meanwhile) when
// the subscription's run is lost and rebuilt from Postgres. The read model
// kept no trace of the settling charge, so the rebuilt run took the
// renewal date as still to come: it renewed again, and with auto-renewal
// off ended the plan, its invoice left PROCESSING, while the debit was
// still to land. Now the rebuilt run waits for the debit, and its outcome
// decides as in the run that started it.
func TestARunRebuiltWhileTheRenewalDebitSettlesWaitsForIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour).withPending(time.Hour, 24*time.Hour).withTemporal(5 * time.Second)
	token, account, renewal := h.renewalDebitSettling("rebuilt-while-settling@example.com", false)
	base := "/v1/accounts/" + account
	h.expect(h.do("DELETE", base+"/subscription", nil, token), 200)
	h.terminate(account)
	h.expect(h.do("DELETE", base+"/subscription", nil, token), 200) // an update: the run is rebuilt from Postgres
	time.Sleep(2 * time.Second)
	if s := h.subscription(token, account); s["show_status"] != "active" || s["plan_renewal_at"] != renewal {
		t.Fatalf("the rebuilt run while the renewal's debit settles: %v, want active, the renewal date unchanged", s)
	}
	h.settleAtSandbox(account, true)
	eventually(t, "the renewed period", func() bool {
		s := h.subscription(token, account)
		return s["plan_renewal_at"] != renewal && s["show_status"] == "active" && s["start_next_period"] == false
	})
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%'", 1, "%d renewal charges, want 1")
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'", 1, "%d paid renewal invoices, want 1")
	h.recordHistory("subscription:"+account, "", "subscription_rebuilt_while_renewal_settles.json")
}
