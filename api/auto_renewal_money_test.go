package api_test

import (
	"testing"
	"time"
)

// TestRestartingAutoRenewalWhileAReturnedDebitIsRetriedKeepsThePlan: the
// owner stopped auto-renewal, then the debit of the running period came
// back and is retried (dunning: the period is owed whatever happens to the
// next one). Turning auto-renewal back on is the opposite of giving up on
// the plan; it ended the plan at once (plan_expired, the invoice left due)
// because any change of auto-renewal during dunning was taken for a stop.
func TestRestartingAutoRenewalWhileAReturnedDebitIsRetriedKeepsThePlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour).withTemporal(time.Hour)
	token, account := h.paidWith("restart-in-dunning@example.com", "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	h.expect(h.do("DELETE", base+"/subscription", nil, token), 200)
	invoice := h.paidInvoiceID(account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	h.inDunning(token, account)
	h.expect(h.do("POST", base+"/subscription/restart", nil, token), 200)
	sub := h.subscription(token, account)
	if sub["show_status"] != "active" || sub["start_next_period"] != true || sub["payment_retry_at"] == nil {
		t.Fatalf("auto-renewal restarted during the retries: %v, want active, renewing, still retried", sub)
	}
	h.wantRows("billing_events", account, "type = 'plan_expired'", 0, "%d plan_expired events, want none")
	h.recordHistory("subscription:"+account, "", "subscription_restart_in_dunning.json")
}

// TestAutoRenewalStoppedWhileTheRenewalDebitSettlesIsKept: the owner
// stops auto-renewal while the renewal's SEPA debit is settling; the debit
// then fails. The owner has opted out, so the plan ends there (the invoice
// due, as a renewal with auto-renewal off). Before, dunning started as if
// nothing had been said: the mandate was debited again off-session and a
// paid retry began a year the owner had declined.
func TestAutoRenewalStoppedWhileTheRenewalDebitSettlesIsKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour).withPending(time.Hour, 24*time.Hour).withTemporal(5 * time.Second)
	token, account, _ := h.renewalDebitSettling("stop-while-settling@example.com", true)
	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription", nil, token), 200)
	run := h.currentRun("subscription:" + account)
	h.settleAtSandbox(account, true)
	eventuallyWithin(t, 10*time.Second, "the plan ended, on the charge's event", func() bool {
		return h.subscription(token, account)["show_status"] == "plan_expired"
	})
	if sub := h.subscription(token, account); sub["payment_retry_at"] != nil || sub["start_next_period"] != false {
		t.Fatalf("after the failed debit: %v, want no retry and auto-renewal off", sub)
	}
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'DUE_PAYMENT'", 1, "%d renewal invoices due, want 1")
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%'", 1, "%d renewal charges, want 1 (none retried)")
	h.recordHistory("subscription:"+account, run, "subscription_renewal_stopped_while_settling.json")
}

// TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesKeepsThePayment:
// in dunning the customer paid the renewal on its checkout by SEPA Direct
// Debit, and while that debit settles stops auto-renewal. The renewal is
// being paid, so the plan goes on to the debit's outcome, and it stays off.
// Before, the stop ended the plan at once (plan_expired mailed), and when
// the debit landed the plan was started again from that day with
// auto-renewal back on: the customer who had declined was renewed a year
// later.
func TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesKeepsThePayment(t *testing.T) {
	t.Parallel()
	h, token, account := stoppedWhileTheRenewalsCheckoutSettles(t, "stop-while-checkout-settles@example.com", sepaSucceeds, false)
	run := h.currentRun("subscription:" + account)
	h.settleAtSandbox(account, true)
	eventually(t, "the renewal paid", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'") == 1 })
	if sub := h.subscription(token, account); sub["start_next_period"] != false {
		t.Fatalf("after the debit settled: %v, want auto-renewal still off", sub)
	}
	h.recordHistory("subscription:"+account, run, "subscription_stopped_while_checkout_settles.json")
}

// stoppedWhileTheRenewalsCheckoutSettles: in dunning (the renewal needed
// authentication) the customer pays the renewal's checkout by SEPA with
// iban, then stops auto-renewal while the debit settles (rebuilt: after
// the run was lost, so that the run rebuilt from Postgres does not know the
// debit settles); the plan is still active then, with auto-renewal off.
func stoppedWhileTheRenewalsCheckoutSettles(t *testing.T, email, iban string, rebuilt bool) (h *harness, token, account string) {
	t.Helper()
	h, token, account, _ = inAuthenticationDunning(t, email)
	var href string
	eventually(t, "the renewal checkout", func() bool {
		return h.db.Pool.QueryRow(t.Context(), `SELECT url FROM checkouts WHERE account_id = $1 AND purpose = 'renewal' AND status = 'open'`,
			account).Scan(&href) == nil
	})
	h.expect(h.payWith(href, iban), 200)
	time.Sleep(time.Second) // the workflow has noted it settling
	if rebuilt {
		h.terminate(account)
	}
	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription", nil, token), 200)
	if sub := h.subscription(token, account); sub["show_status"] != "active" || sub["start_next_period"] != false {
		t.Fatalf("auto-renewal stopped while the renewal's debit settles: %v, want active with auto-renewal off", sub)
	}
	return h, token, account
}

// TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesThenItFails: the
// same, and the debit fails: the owner declined the year, so the plan ends
// at the next attempt's time with the invoice due, and the card that
// needed authentication is not charged again.
func TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesThenItFails(t *testing.T) {
	t.Parallel()
	h, token, account := stoppedWhileTheRenewalsCheckoutSettles(t, "stop-while-checkout-fails@example.com", sepaFails, false)
	h.settleAtSandbox(account, true)
	eventually(t, "the plan ended", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%'", 1, "%d off-session renewal charges, want the first one only")
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'DUE_PAYMENT'", 1, "%d renewal invoices due, want 1")
}

// TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesAfterARebuild: the
// same stop, by a run rebuilt from Postgres, which does not know that the
// renewal's checkout was paid and its debit settles. It ended the plan
// there (the provider, asked when the checkout was closed, said the
// payment settles, and the plan ended all the same); when the debit landed
// it restarted the plan with auto-renewal on, a new year from then, renewed
// again against the owner's choice. The stop asks the provider first, and
// a debit settling on the checkout decides, as in a run that knew it.
func TestAutoRenewalStoppedWhileTheRenewalsCheckoutSettlesAfterARebuild(t *testing.T) {
	t.Parallel()
	h, token, account := stoppedWhileTheRenewalsCheckoutSettles(t, "stop-while-checkout-rebuilt@example.com", sepaSucceeds, true)
	renewal := h.subscription(token, account)["plan_renewal_at"]
	run := h.currentRun("subscription:" + account)
	h.settleAtSandbox(account, true)
	eventually(t, "the renewal paid", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'") == 1 })
	if sub := h.subscription(token, account); sub["start_next_period"] != false || sub["show_status"] != "active" || sub["period_started_at"] != renewal {
		t.Fatalf("after the debit settled: %v, want active, auto-renewal still off, the period paid from its renewal date %v", sub, renewal)
	}
	h.recordHistory("subscription:"+account, run, "subscription_stop_asks_the_checkout.json")
}
