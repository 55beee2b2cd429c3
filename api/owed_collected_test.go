package api_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kudos"
)

// returnedDuringTheDeletion buys a Starter plan for email, schedules the
// account's deletion and has the bank return the plan's debit during the
// grace: the owner is mailed payment_failed.
func (h *harness) returnedDuringTheDeletion(email string) (token, account, invoice string) {
	h.t.Helper()
	token, account = h.paidWith(email, "STARTER", "4242424242424242")
	invoice = h.paidInvoiceID(account)
	h.scheduleDeletion(token, account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	eventually(h.t, "the payment_failed mail", func() bool { return slices.Contains(h.sent.purposes(email), kudos.MailPaymentFailed) })
	return token, account, invoice
}

// TestADebitOwedDuringTheDeletionIsCollectedOnceItIsCancelled: a debit of
// the running period returned during the deletion's grace is held as
// owed (nothing is charged off-session for an account being deleted).
// When the owner cancels the deletion, the account goes on, and that
// invoice was never asked for again: the plan ran to its renewal on money
// the bank took back (a free year, on purpose: schedule the deletion,
// have the bank return the debit, cancel). Cancelling the deletion now
// starts the returned invoice's dunning, as if it had come back then.
func TestADebitOwedDuringTheDeletionIsCollectedOnceItIsCancelled(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour, 2*time.Hour)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(time.Hour)
	token, account, invoice := h.returnedDuringTheDeletion("owed-then-kept@example.com")
	h.expect(h.do("POST", "/v1/accounts/"+account+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, token), 200)
	sub := h.inDunning(token, account)
	if failed, _ := sub["failed_payment"].(map[string]any); sub["show_status"] != "active" || failed == nil || failed["invoice_id"] != invoice {
		t.Fatalf("after the deletion was cancelled: %v, want the returned invoice retried", sub)
	}
}

// TestAYearReturnedDuringAnotherDunningIsCollectedOnceThatIsPaid: both
// debits of a period came back (an empty bank account): the extra seats'
// first, so dunning retries them, then the year's, which is held as owed
// meanwhile. Paying the seats ended the dunning and the year's invoice was
// never asked for again: the plan ran to its renewal unpaid. Once the
// seats are paid, the year's invoice is retried in its turn.
func TestAYearReturnedDuringAnotherDunningIsCollectedOnceThatIsPaid(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour, 2*time.Hour).withTemporal(time.Hour)
	owner, account := h.teamWithSeats("two-returns@example.com", 12, 0)
	base := "/v1/accounts/" + account
	seats, year := h.invoiceOfKind(account, "SEATS"), h.invoiceOfKind(account, "SUBSCRIPTION")
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": seats}, ""), 200)
	h.inDunning(owner, account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": year}, ""), 200)
	eventually(t, "the year's return booked", func() bool {
		return h.count("payment_events", account, "applied_at IS NULL") == 0 &&
			h.invoiceCount(account, "id = '"+year+"' AND status = 'DUE_PAYMENT'") == 1
	})
	pay := h.expect(h.do("POST", base+"/invoices/"+seats+"/payment", nil, owner), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the seats paid again", func() bool { return h.invoiceCount(account, "id = '"+seats+"' AND status = 'PAID'") == 1 })
	eventually(t, "the year's invoice retried", func() bool {
		failed, _ := h.subscription(owner, account)["failed_payment"].(map[string]any)
		return failed != nil && failed["invoice_id"] == year
	})
	if sub := h.subscription(owner, account); sub["show_status"] != "active" || sub["payment_retry_at"] == nil {
		t.Fatalf("after the seats were paid: %v, want the year's invoice in dunning", sub)
	}
}

// TestALostDisputeDuringAReturnedDebitsDunningEndsTheDunning: the extra
// seats' debit came back and dunning retried it, then the year's card
// payment was lost to a dispute: the plan expired with a new due invoice
// of the year. The seats' dunning ran on regardless, charging a plan that
// had ended (a disputed card among them) and, used up, put the small
// seats invoice in place of the year's as the one that reactivates the
// plan. The lost period ends the dunning: the seats' invoice is held as
// owed, the year's due invoice is the one to pay.
func TestALostDisputeDuringAReturnedDebitsDunningEndsTheDunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour, 2*time.Hour).withTemporal(time.Hour)
	owner, account := h.teamWithSeats("lost-during-dunning@example.com", 12, 0)
	seats, year := h.invoiceOfKind(account, "SEATS"), h.invoiceOfKind(account, "SUBSCRIPTION")
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": seats}, ""), 200)
	h.inDunning(owner, account)
	h.expect(h.dispute(account, year, "open"), 200)
	h.expect(h.dispute(account, year, "lost"), 200)
	eventually(t, "the plan expired by the lost dispute", func() bool {
		return h.subscription(owner, account)["show_status"] == "plan_expired"
	})
	if sub := h.subscription(owner, account); sub["payment_retry_at"] != nil || sub["failed_payment"] != nil {
		t.Fatalf("after the lost dispute: %v, want the seats' dunning over", sub)
	}
	due := h.expect(h.do("GET", "/v1/accounts/"+account+"/invoices/latest-unpaid", nil, owner), 200).str("invoice_id")
	if due == "" || due == seats || due == year {
		t.Fatalf("the due invoice %q: want the new one of the year", due)
	}
	if n := h.invoiceCount(account, "id = '"+seats+"' AND status = 'DUE_PAYMENT'"); n != 1 {
		t.Fatal("the seats' invoice is no longer due")
	}
	h.recordHistory("subscription:"+account, "", "subscription_dispute_ends_dunning.json")
}

// TestAReturnedYearPaidAfterTheDunningBuysThePlanItBilled: a Starter year
// was paid, then upgraded to Pro; the year's debit came back and its
// dunning ran out: the plan expired with the Starter invoice due. Paying
// that Starter invoice reactivated Pro for a new year (the plan the run
// was on) at the Starter price — while a run rebuilt from the read model
// reactivated Starter, the invoice's plan. Both now reactivate what the
// invoice bills.
func TestAReturnedYearPaidAfterTheDunningBuysThePlanItBilled(t *testing.T) {
	t.Parallel()
	inBothRuns(t, func(t *testing.T, rebuilt bool) {
		h := newHarness(t).withDunning(time.Second, 2*time.Second).withTemporal(time.Hour)
		token, account := h.paidWith(fmt.Sprintf("returned-year-upgraded-%v@example.com", rebuilt), "STARTER", "4242424242424242")
		base := "/v1/accounts/" + account
		year := h.invoiceOfKind(account, "SUBSCRIPTION")
		time.Sleep(time.Second) // an upgrade priced above the provider's minimum
		up := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
		h.expect(h.payWith(up.str("checkout_href"), "4242424242424242"), 200)
		eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })

		h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": true}, ""), 204)
		h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": year}, ""), 200)
		eventually(t, "the plan expired once dunning failed", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
		if rebuilt {
			h.terminate(account)
		}
		h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": false}, ""), 204)
		pay := h.expect(h.do("POST", base+"/invoices/"+year+"/payment", nil, token), 201)
		h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
		eventually(t, "the plan active again", func() bool { return h.subscription(token, account)["show_status"] == "active" })
		if s := h.subscription(token, account); s["plan"] != "STARTER" {
			t.Fatalf("after paying the Starter invoice: %v, want the Starter year it bills", s)
		}
		if !rebuilt {
			h.recordHistory("subscription:"+account, "", "subscription_returned_due_plan.json")
		}
	})
}

// TestAReturnedDebitBeingRetriedStopsWhenTheDeletionIsScheduled: a
// returned debit's dunning (collected whatever auto-renewal says) ran on
// once the owner scheduled the account's deletion: the mandate or card
// was charged off-session during the grace, and a SEPA retry settling
// after the erasure was refunded with its invoice left due on an erased
// account. Nothing is charged for an account being deleted: the
// scheduling holds the invoice as owed, as a return during the grace is,
// and cancelling the deletion resumes its dunning.
func TestAReturnedDebitBeingRetriedStopsWhenTheDeletionIsScheduled(t *testing.T) {
	t.Parallel()
	for name, stopFirst := range map[string]bool{"auto-renewal on": false, "auto-renewal stopped before": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t).withDunning(3*time.Second, time.Minute)
			h.srv.Config.DeletionGrace = time.Hour
			h = h.withTemporal(time.Hour)
			token, account := h.paidWith(fmt.Sprintf("retried-then-deleted-%v@example.com", stopFirst), "STARTER", "4242424242424242")
			base := "/v1/accounts/" + account
			invoice := h.paidInvoiceID(account)
			if stopFirst {
				h.expect(h.do("DELETE", base+"/subscription", nil, token), 200)
			}
			h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": true}, ""), 204)
			h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
			h.inDunning(token, account)
			h.scheduleDeletion(token, account)
			h.expect(h.do("POST", "/dev/sandbox/declines", map[string]any{"account_id": account, "decline": false}, ""), 204)
			time.Sleep(5 * time.Second) // past the first retry
			if n := h.invoiceCount(account, "id = '"+invoice+"' AND status = 'DUE_PAYMENT'"); n != 1 {
				t.Fatal("the returned invoice was charged again during the deletion's grace")
			}
			if sub := h.subscription(token, account); sub["payment_retry_at"] != nil || sub["failed_payment"] != nil {
				t.Fatalf("during the deletion's grace: %v, want no retry", sub)
			}
			if !stopFirst { // auto-renewal turned off by the scheduling ended the unpaid period
				return
			}
			h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, token), 200)
			if failed, _ := h.inDunning(token, account)["failed_payment"].(map[string]any); failed == nil || failed["invoice_id"] != invoice {
				t.Fatalf("after the deletion was cancelled: %v, want the returned invoice retried again", failed)
			}
			h.recordHistory("subscription:"+account, "", "subscription_deletion_holds_returned.json")
		})
	}
}
