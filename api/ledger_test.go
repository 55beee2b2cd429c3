package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
)

// Issue 36 items 1 and 5, on a real Temporal and Postgres with the
// sandbox playing the provider's side.

// TestSettledSEPARenewalIsAppliedWithinSeconds: a renewal charged to a SEPA
// mandate is processing, asked about only hourly here (daily in
// production). When the debit settles, the sandbox emits the charge's
// event as Stripe does (payment_intent.succeeded): the period starts
// within seconds, charged once, and the event is marked applied.
func TestSettledSEPARenewalIsAppliedWithinSeconds(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(2*time.Second).withPending(time.Hour, 24*time.Hour).withTemporal(5 * time.Second)
	token, account, renewal := h.renewalDebitSettling("ledger-renewal@example.com", false)
	run := h.currentRun("subscription:" + account)
	h.settleAtSandbox(account, true)
	eventuallyWithin(t, 10*time.Second, "the renewed period, on the charge's event", func() bool {
		return h.subscription(token, account)["plan_renewal_at"] != renewal
	})
	// Marked applied once its application is over: just after the period's write.
	eventually(t, "the charge event marked applied", func() bool {
		return h.count("payment_events", account, "movement = 'charge' AND outcome = 'paid' AND applied_at IS NOT NULL") == 1
	})
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%'", 1, "%d renewal charges, want 1")
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'", 1, "%d paid renewal invoices, want 1")
	h.recordHistory("subscription:"+account, run, "subscription_ledger_charge_event.json")
}

// TestFailedSEPARenewalStartsDunningWithinSeconds: the renewal's debit
// fails at the bank (the mandate's later debits fail); the sandbox emits
// its payment_intent.payment_failed and dunning starts within seconds,
// not at the next hourly (daily in production) ask.
func TestFailedSEPARenewalStartsDunningWithinSeconds(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour).withPending(time.Hour, 24*time.Hour).withTemporal(5 * time.Second)
	token, account, _ := h.renewalDebitSettling("ledger-renewal-failed@example.com", true)
	run := h.currentRun("subscription:" + account)
	h.settleAtSandbox(account, true)
	eventuallyWithin(t, 10*time.Second, "dunning, on the charge's event", func() bool {
		return h.subscription(token, account)["payment_retry_at"] != nil
	})
	// Marked applied once its application is over: just after dunning's write.
	eventually(t, "the failed-charge event marked applied", func() bool {
		return h.count("payment_events", account, "movement = 'charge' AND outcome = 'failed' AND applied_at IS NOT NULL") == 1
	})
	h.recordHistory("subscription:"+account, run, "subscription_ledger_charge_failed_event.json")
}

// renewalDebitSettling buys Starter for email by SEPA Direct Debit and
// waits until the renewal's debit is processing at the sandbox (set to
// fail when it settles, as sepaFails's debits do, when fails), the workflow
// waiting on it; renewal is the renewal date it pays for. The harness's
// period must be short (withTemporal).
func (h *harness) renewalDebitSettling(email string, fails bool) (token, account string, renewal any) {
	h.t.Helper()
	token, account, href := h.startPlan(email, "STARTER")
	h.expect(h.payWith(href, sepaSucceeds), 200)
	h.settleAtSandbox(account, true)
	eventually(h.t, "Starter", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	renewal = h.subscription(token, account)["plan_renewal_at"]
	if fails {
		if _, err := h.db.Pool.Exec(context.Background(), `UPDATE sandbox_payment_methods SET off_session = 'pending_fail' WHERE account_id = $1`,
			account); err != nil {
			h.t.Fatal(err)
		}
	}
	eventually(h.t, "the renewal charge to be processing", func() bool {
		return h.count("sandbox_charges", account, "settles_as IS NOT NULL") == 1
	})
	time.Sleep(time.Second) // the workflow has noted it processing
	return token, account, renewal
}

// creditNotes returns the account's billing read's credit notes, newest
// first.
func (h *harness) creditNotes(token, account string) []map[string]any {
	var out []map[string]any
	for _, it := range h.expect(h.do("GET", "/v1/accounts/"+account+"/billing", nil, token), 200).Body["invoices"].([]any) {
		if m := it.(map[string]any); m["kind"] == "credit_note" {
			out = append(out, m)
		}
	}
	return out
}

// paidInvoice returns the account's paid invoice's billing item.
func (h *harness) paidInvoice(token, account string) map[string]any {
	h.t.Helper()
	var inv map[string]any
	eventually(h.t, "the invoice paid", func() bool {
		for _, it := range h.expect(h.do("GET", "/v1/accounts/"+account+"/billing", nil, token), 200).Body["invoices"].([]any) {
			if m := it.(map[string]any); m["kind"] == "invoice" && m["status"] == "PAID" {
				inv = m
				return true
			}
		}
		return false
	})
	return inv
}

// TestDashboardRefundIsBookedOnce: a refund made in the provider's
// dashboard (the sandbox's provider-refund emits charge.refunded) gets a
// credit note of the refunded amount (VAT included, status CREDITED,
// correcting the invoice), a refund_issued mail and the timeline's refund
// event. The provider's next event for the same refund (refund.updated)
// books nothing new; a second partial refund gets its own credit note; more
// than is left is refused with a clear error.
func TestDashboardRefundIsBookedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	const email = "ledger-refund@example.com"
	token, account, href := h.startPlan(email, "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	paid := int64(inv["amount"].(float64)*100 + 0.5)

	r := h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": inv["id"],
		"amount": 10.00}, ""), 200)
	refundID := r.str("refund_id")
	eventually(t, "the credit note of the dashboard refund", func() bool { return len(h.creditNotes(token, account)) == 1 })
	cn := h.creditNotes(token, account)[0]
	if cn["status"] != "CREDITED" || cn["corrects"] != inv["id"] || cn["amount"] != -10.0 {
		t.Fatalf("credit note %v, want -10.00 CREDITED correcting %v", cn, inv["id"])
	}
	eventually(t, "the refund_issued mail", func() bool { return h.mailCount(email) > 0 && h.lastMail(email).Purpose == kudos.MailRefundIssued })
	h.wantRows("billing_events", account, "type = 'refund' AND amount = 1000", 1, "%d refund events on the timeline, want 1")

	// The provider's refund.updated of the same refund: another event id.
	inv0 := uuid.MustParse(inv["id"].(string))
	var checkout string
	if err := h.db.Pool.QueryRow(ctx, `SELECT paid_by FROM invoices WHERE id = $1`, inv0).Scan(&checkout); err != nil {
		t.Fatal(err)
	}
	again := kudos.PaymentEvent{EventID: "sandbox_refund_updated_" + refundID, Provider: "sandbox", AccountID: uuid.MustParse(account),
		CheckoutID: checkout, Outcome: kudos.PaymentPaid, OccurredAt: time.Now().UTC(), LedgerMovement: kudos.LedgerMovement{
			Movement: kudos.MovementRefund, ProviderRefundID: refundID, Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}}}
	if _, err := h.db.RecordPaymentEvent(ctx, again, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	h.srv.Outbox.Kick()
	eventually(t, "the second event applied", func() bool {
		return h.count("payment_events", account, "movement = 'refund' AND applied_at IS NOT NULL") == 2
	})
	h.wantRows("refunds", account, "true", 1, "%d refunds after the same refund's second event, want 1")
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes after the same refund's second event, want 1")

	// The rest, in a second refund (default: all that is left).
	h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": inv["id"]}, ""), 200)
	eventually(t, "the second credit note", func() bool { return len(h.creditNotes(token, account)) == 2 })
	total := 0.0
	for _, c := range h.creditNotes(token, account) {
		total += c["amount"].(float64)
	}
	if got := int64(-total*100 + 0.5); got != paid {
		t.Fatalf("credit notes total %d, want what was paid (%d)", got, paid)
	}
	if r := h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": inv["id"],
		"amount": 0.01}, ""), 422); r.errorCode() == "" {
		t.Fatalf("over-refund: %s", r.Raw)
	}
	h.recordHistory("subscription:"+account, "", "subscription_ledger_dashboard_refund.json")
}
