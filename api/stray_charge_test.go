package api_test

import (
	"strings"
	"testing"
	"time"

	"kudos"
)

// Off-session renewal charges that the customer completes after the
// workflow stopped waiting on them: a card whose later charges need
// authentication (Stripe's 4000002500003155) leaves the renewal's charge
// waiting on the customer while dunning offers the renewal's checkout
// instead. The customer (or their bank's app, with a decoupled
// authentication) may still complete that first charge. Kudos's books
// must then agree with the money taken: applied when the renewal is still
// owed, refunded when it is not, never left as money taken for nothing.

// inAuthenticationDunning signs email up on Starter with a card whose
// later charges need authentication (Stripe's 4000002500003155), on a
// harness whose renewal comes after 6 s with retries after 20 and 40 s,
// and waits until the renewal is retried; it returns the subscription then.
func inAuthenticationDunning(t *testing.T, email string) (h *harness, token, account string, sub map[string]any) {
	t.Helper()
	h = newHarness(t).withDunning(20*time.Second, 40*time.Second).withTemporal(6 * time.Second)
	token, account = h.paidWith(email, "STARTER", "4000002500003155")
	return h, token, account, h.inDunning(token, account)
}

// authenticateWaitingCharges completes, as the customer would, the
// account's charges waiting on authentication, and returns how many.
func (h *harness) authenticateWaitingCharges(account string) float64 {
	h.t.Helper()
	r := h.expect(h.do("POST", "/dev/sandbox/settle", map[string]any{"account_id": account, "authenticate": true}, ""), 200)
	n, _ := r.Body["settled"].(float64)
	return n
}

// waitingRenewalCharge is the key of the account's renewal charge waiting
// on the customer's authentication.
func (h *harness) waitingRenewalCharge(account string) string {
	h.t.Helper()
	var id string
	if err := h.db.Pool.QueryRow(h.t.Context(), `SELECT charge_id FROM sandbox_charges WHERE account_id = $1
		AND charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required' ORDER BY charge_id LIMIT 1`, account).Scan(&id); err != nil {
		h.t.Fatal(err)
	}
	return id
}

// TestAChargeAuthenticatedDuringDunningPaysTheRenewal: the customer
// completes the renewal's first charge while dunning still retries it: that
// charge pays the renewal (the invoice paid by it, the period started on
// its date), the renewal's checkout is closed, nothing is charged again and
// nothing refunded.
func TestAChargeAuthenticatedDuringDunningPaysTheRenewal(t *testing.T) {
	t.Parallel()
	h, token, account, sub := inAuthenticationDunning(t, "late-3ds@example.com")
	renewal := sub["plan_renewal_at"]
	charge := h.waitingRenewalCharge(account)
	eventually(t, "the renewal checkout", func() bool { return h.count("checkouts", account, "purpose = 'renewal' AND status = 'open'") == 1 })
	run := h.currentRun("subscription:" + account)
	if n := h.authenticateWaitingCharges(account); n != 1 {
		t.Fatalf("%v charges completed, want the one waiting", n)
	}
	eventually(t, "the renewal paid by the authenticated charge", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["plan_renewal_at"] != renewal
	})
	if sub["show_status"] != "active" || sub["plan"] != "STARTER" {
		t.Fatalf("after the charge: %v", sub)
	}
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'PAID' AND paid_by = '"+charge+"'", 1,
		"%d renewal invoices paid by the authenticated charge, want 1")
	h.wantRows("checkouts", account, "purpose = 'renewal' AND status = 'open'", 0, "%d renewal checkouts still open, want 0")
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%'", 1, "%d off-session renewal charges, want the one authenticated")
	h.wantRows("refunds", account, "true", 0, "%d refunds, want none")
	h.recordHistory("subscription:"+account, run, "subscription_stray_charge_applied.json")
}

// TestAChargeAuthenticatedAfterTheRenewalWasPaidIsRefunded: the customer
// pays the renewal on its checkout, then also completes the first charge
// still waiting on them: the second payment is given back in full (the
// refunds row, the timeline, the provider's refund, the customer's
// receipt), and the renewal stays paid by its checkout.
func TestAChargeAuthenticatedAfterTheRenewalWasPaidIsRefunded(t *testing.T) {
	t.Parallel()
	const email = "paid-twice@example.com"
	h, token, account, sub := inAuthenticationDunning(t, email)
	renewal := sub["plan_renewal_at"]
	charge := h.waitingRenewalCharge(account)
	var href, checkout string
	eventually(t, "the renewal checkout", func() bool {
		return h.db.Pool.QueryRow(t.Context(), `SELECT id, url FROM checkouts WHERE account_id = $1 AND purpose = 'renewal' AND status = 'open'`,
			account).Scan(&checkout, &href) == nil
	})
	h.expect(h.payWith(href, "4000002500003155"), 200)
	eventually(t, "the renewal paid on its checkout", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["plan_renewal_at"] != renewal
	})
	run := h.currentRun("subscription:" + account)
	if n := h.authenticateWaitingCharges(account); n != 1 {
		t.Fatalf("%v charges completed, want the one still waiting", n)
	}
	eventually(t, "the second payment refunded", func() bool {
		return h.count("refunds", account, "checkout_id = '"+charge+"' AND status = 'refunded'") == 1
	})
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "charge_id = '"+charge+"'", 1,
		"%d refunds of the charge at the provider, want 1")
	h.wantRows("billing_events", account, "type = 'refund'", 1, "%d refund events on the timeline, want 1")
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'PAID' AND paid_by = '"+checkout+"'", 1,
		"%d renewal invoices paid by the checkout, want 1")
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 0, "%d credit notes: the refunded charge paid no invoice")
	eventually(t, "the refund's receipt", func() bool {
		for _, m := range h.sent.to(email) {
			if m.Purpose == kudos.MailRefundIssued && strings.Contains(m.Text, "217.80") {
				return true
			}
		}
		return false
	})
	if s := h.subscription(token, account); s["show_status"] != "active" || s["plan_renewal_at"] != sub["plan_renewal_at"] {
		t.Fatalf("after the refund: %v, want the renewal kept", s)
	}
	// The books agree with the provider's: the charge and its refund are
	// both Kudos's, at their amounts.
	if rep := h.reconcileProvider(""); rep.Drift != 0 {
		t.Fatalf("drift %d after the refund: %+v", rep.Drift, rep.Differences)
	}
	h.recordHistory("subscription:"+account, run, "subscription_stray_charge_refunded.json")
}

// TestStoppingRenewalDuringDunningCancelsTheChargeWaitingOnTheCustomer:
// auto-renewal turned off while the renewal is retried ends the plan, and
// the renewal's charge waiting on the customer is cancelled at the
// provider: it can no longer be completed for a period that never starts.
func TestStoppingRenewalDuringDunningCancelsTheChargeWaitingOnTheCustomer(t *testing.T) {
	t.Parallel()
	h, token, account, _ := inAuthenticationDunning(t, "stop-in-dunning@example.com")
	h.waitingRenewalCharge(account)
	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription", nil, token), 200)
	eventually(t, "the plan ended", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	eventually(t, "the waiting charge cancelled", func() bool {
		return h.count("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required'") == 0
	})
	if n := h.authenticateWaitingCharges(account); n != 0 {
		t.Fatalf("the customer completed %v charges of a plan that ended", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_dunning_end_cancels_charges.json")
}

// TestAChargeAuthenticatedLaterPaysNoReturnedDebitOfItsPeriod: the
// renewal is paid on its checkout while its first charge K still waits on
// the customer's authentication; in the same period the debit of an
// upgrade is returned, and its dunning retries it (a period of its own:
// the one K was made for). The customer then completes K: it is a second
// payment of the renewal, given back in full, and never pays the upgrade's
// invoice (K's year is not the upgrade's price: the customer paid the year
// twice while Kudos booked only the upgrade). The provider's books and
// Kudos's agree.
func TestAChargeAuthenticatedLaterPaysNoReturnedDebitOfItsPeriod(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(30*time.Second, 60*time.Second).withTemporal(30 * time.Second)
	token, account := h.paidWith("late-3ds-returned@example.com", "STARTER", "4000002500003155")
	base := "/v1/accounts/" + account
	var sub map[string]any
	eventuallyWithin(t, time.Minute, "the renewal retried", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] != nil
	})
	renewal := sub["plan_renewal_at"]
	charge := h.waitingRenewalCharge(account)
	var href string
	eventually(t, "the renewal checkout", func() bool {
		return h.db.Pool.QueryRow(t.Context(), `SELECT url FROM checkouts WHERE account_id = $1 AND purpose = 'renewal' AND status = 'open'`,
			account).Scan(&href) == nil
	})
	h.expect(h.payWith(href, "4000002500003155"), 200)
	eventually(t, "the renewal paid on its checkout", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["plan_renewal_at"] != renewal
	})
	up := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.sandbox(up.str("checkout_href"), "pay"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	upgrade := h.invoiceOfKind(account, "UPGRADE")
	h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": true}, ""), 204)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": upgrade}, ""), 200)
	eventually(t, "the upgrade's debit retried", func() bool { return h.subscription(token, account)["payment_retry_at"] != nil })
	run := h.currentRun("subscription:" + account)
	if n := h.authenticateWaitingCharges(account); n != 1 {
		t.Fatalf("%v charges completed, want the renewal's first one", n)
	}
	eventually(t, "the authenticated charge refunded or applied", func() bool {
		return h.count("refunds", account, "checkout_id = '"+charge+"'") == 1 || h.count("invoices", account, "paid_by = '"+charge+"'") > 0
	})
	h.wantRows("invoices", account, "paid_by = '"+charge+"'", 0, "%d invoices paid by the renewal's second payment, want none")
	h.wantRows("refunds", account, "checkout_id = '"+charge+"' AND status = 'refunded'", 1, "%d refunds of the second payment, want 1")
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "charge_id = '"+charge+"'", 1,
		"%d refunds of the charge at the provider, want 1")
	h.wantRows("invoices", account, "id = '"+upgrade+"' AND status = 'DUE_PAYMENT'", 1, "%d upgrade invoices still due, want 1")
	if s := h.subscription(token, account); s["payment_retry_at"] == nil || s["plan"] != "PRO" {
		t.Fatalf("after the refund: %v, want the upgrade's debit still retried", s)
	}
	if rep := h.reconcileProvider(""); rep.Drift != 0 {
		t.Fatalf("drift %d after the refund: %+v", rep.Drift, rep.Differences)
	}
	h.recordHistory("subscription:"+account, run, "subscription_stray_charge_of_returned_period.json")
}
