package api_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/ops"
	"kudos/store"
	"kudos/workflows"
)

// paidInvoiceID returns the id of the account's one paid invoice.
func (h *harness) paidInvoiceID(account string) string {
	h.t.Helper()
	var id string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT id FROM invoices WHERE account_id = $1 AND status = 'PAID'
		AND kind <> 'CREDIT_NOTE' ORDER BY created_at DESC LIMIT 1`, account).Scan(&id); err != nil {
		h.t.Fatal(err)
	}
	return id
}

// dispute has the sandbox play a dispute of the invoice's payment.
func (h *harness) dispute(account, invoice, status string) response {
	return h.do("POST", "/dev/sandbox/dispute", map[string]any{"account_id": account, "invoice_id": invoice, "status": status}, "")
}

// timelineOf returns the account's timeline types, newest first.
func (h *harness) timelineOf(token, account string) []string {
	return timelineTypes(h.expect(h.do("GET", "/v1/accounts/"+account+"/billing/timeline", nil, token), 200))
}

// disputeOpenAttribute reads the DisputeOpen search attribute of the
// account's workflow ("" : not set).
func (h *harness) disputeOpenAttribute(account string) string {
	h.t.Helper()
	d, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), "subscription:"+account, "")
	if err != nil {
		h.t.Fatal(err)
	}
	p := d.WorkflowExecutionInfo.GetSearchAttributes().GetIndexedFields()[workflows.SearchDisputeOpen]
	if p == nil {
		return ""
	}
	return string(p.GetData())
}

// TestADisputeOpenedThenWon (issue 36 item 3): the sandbox plays Stripe's
// charge.dispute.created for the plan's payment: the timeline shows
// dispute_opened with the amount, the disputes row is open, and the
// workflow's DisputeOpen search attribute is true. Closed as won:
// dispute_won, nothing else changes (plan active, no credit note), and a
// repeat of the close books nothing twice.
func TestADisputeOpenedThenWon(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.paidWith("disputed-won@example.com", "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	h.expect(h.dispute(account, invoice, "open"), 200)
	eventually(t, "the dispute opened", func() bool {
		return slices.Contains(h.timelineOf(token, account), "dispute_opened") && h.disputeOpenAttribute(account) == "true"
	})
	if n := h.count("disputes", account, "status = 'open' AND invoice_id = '"+invoice+"' AND amount = 21780"); n != 1 {
		t.Fatalf("%d open disputes of the invoice", n)
	}
	h.expect(h.dispute(account, invoice, "won"), 200)
	h.expect(h.dispute(account, invoice, "won"), 200) // Stripe delivers twice; a second close books nothing
	eventually(t, "the dispute won", func() bool {
		return slices.Contains(h.timelineOf(token, account), "dispute_won") && h.disputeOpenAttribute(account) == "false"
	})
	eventually(t, "every event applied", func() bool { return h.count("payment_events", account, "applied_at IS NULL") == 0 })
	got := h.timelineOf(token, account)
	if got[0] != "dispute_won" || got[1] != "dispute_opened" {
		t.Fatalf("timeline %v", got)
	}
	if sub := h.subscription(token, account); sub["show_status"] != "active" || sub["plan"] != "STARTER" {
		t.Fatalf("after a won dispute: %v", sub)
	}
	if n := h.invoiceCount(account, "kind = 'CREDIT_NOTE'"); n != 0 {
		t.Fatalf("%d credit notes after a won dispute", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_dispute_won.json")
}

// TestADisputeLost (issue 36 item 3): a dispute closed as lost books the
// amount as lost (dispute_lost), reverses the sale by a credit note (kind
// credit_note, corrects the invoice, the negative amount, CREDITED), and
// leaves the period unpaid: the plan expires with a new DUE_PAYMENT
// invoice of its plan ('continue with plan' pays it), the customer is
// mailed plan_expired.
func TestADisputeLost(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const email = "disputed-lost@example.com"
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	invoice := h.paidInvoiceID(account)
	h.expect(h.dispute(account, invoice, "open"), 200)
	h.expect(h.dispute(account, invoice, "lost"), 200)
	eventually(t, "the plan expired by the lost dispute", func() bool {
		return h.subscription(token, account)["show_status"] == "plan_expired"
	})
	if got := h.timelineOf(token, account); !slices.Contains(got, "dispute_lost") || !slices.Contains(got, "credit_note_issued") ||
		!slices.Contains(got, "dispute_opened") {
		t.Fatalf("timeline %v", got)
	}
	list := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any)
	var cn, paid map[string]any
	for _, it := range list {
		m := it.(map[string]any)
		switch {
		case m["kind"] == "credit_note":
			cn = m
		case m["id"] == invoice:
			paid = m
		}
	}
	if cn == nil || paid == nil || cn["status"] != "CREDITED" || cn["corrects"] != invoice || cn["amount"] != -paid["amount"].(float64) ||
		!strings.HasPrefix(cn["invoice_url"].(string), "KUD-CN-") {
		t.Fatalf("credit note %v of invoice %v", cn, paid)
	}
	due := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	if due == "" || due == invoice {
		t.Fatalf("the due invoice %q: want a new one", due)
	}
	if n := h.count("disputes", account, "status = 'lost' AND closed_at IS NOT NULL"); n != 1 || h.disputeOpenAttribute(account) != "false" {
		t.Fatalf("%d lost disputes, DisputeOpen %s", n, h.disputeOpenAttribute(account))
	}
	eventually(t, "the plan_expired mail", func() bool {
		return slices.Contains(h.sent.purposes(email), kudos.MailPlanExpired)
	})
	// `kudos ops account` reads the dispute with its credit note, and the
	// events as what they say.
	oa, err := h.db.OpsAccount(context.Background(), uuid.MustParse(account))
	if err != nil {
		t.Fatal(err)
	}
	if len(oa.Disputes) != 1 || oa.Disputes[0].Status != "lost" || oa.Disputes[0].CreditNoteID == nil ||
		oa.Disputes[0].CreditNoteID.String() != cn["id"] || oa.Disputes[0].InvoiceID == nil || oa.Disputes[0].InvoiceID.String() != invoice {
		t.Fatalf("ops disputes %+v", oa.Disputes)
	}
	if !slices.ContainsFunc(oa.Events, func(e store.OpsPaymentEvent) bool { return strings.HasPrefix(e.Ledger, "dispute lost dp_sandbox_") }) {
		t.Fatalf("ops events %+v", oa.Events)
	}
	h.recordHistory("subscription:"+account, "", "subscription_dispute_lost.json")
}

// TestAReturnedDebitIsAFailedPayment (issue 36 item 3): a debit the bank
// takes back after it succeeded (the sandbox plays the return) makes its
// invoice due again (payment_returned) and starts dunning as for a failed
// renewal: the plan stays active with failed_payment and payment_retry_at,
// the customer is mailed payment_failed, and the retry charges the card
// again: the invoice is paid once more and dunning ends.
func TestAReturnedDebitIsAFailedPayment(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(3*time.Second, time.Minute).withTemporal(time.Hour)
	const email = "returned@example.com"
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	run := h.currentRun("subscription:" + account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	sub := h.inDunning(token, account)
	failed, _ := sub["failed_payment"].(map[string]any)
	if sub["show_status"] != "active" || failed == nil || failed["invoice_id"] != invoice || failed["amount"] != 217.8 {
		t.Fatalf("after the return: %v", sub)
	}
	if !slices.Contains(h.timelineOf(token, account), "payment_returned") {
		t.Fatalf("timeline %v", h.timelineOf(token, account))
	}
	eventually(t, "the retry paid the invoice again", func() bool {
		sub = h.subscription(token, account)
		return sub["payment_retry_at"] == nil && sub["failed_payment"] == nil && h.invoiceCount(account, "id = '"+invoice+"' AND status = 'PAID'") == 1
	})
	if sub["show_status"] != "active" {
		t.Fatalf("after the retry: %v", sub)
	}
	eventually(t, "the payment_failed mail", func() bool { return slices.Contains(h.sent.purposes(email), kudos.MailPaymentFailed) })
	h.recordHistory("subscription:"+account, run, "subscription_payment_returned.json") // the run of the return and the retry
}

// TestSandboxDisputeRoutesRefuseBadInput: the dev routes answer a
// client's mistake in the one error shape, never 500.
func TestSandboxDisputeRoutesRefuseBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	_, account := h.paidWith("dispute-bad@example.com", "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	if r := h.expect(h.dispute(account, invoice, "maybe"), 422); r.field("status") == "" {
		t.Fatalf("a bad status: %v", r.Body)
	}
	h.expect(h.dispute(account, "00000000-0000-0000-0000-000000000001", "open"), 404)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": "nope"}, ""), 400)
	h.expect(h.do("POST", "/dev/sandbox/return", "not json", ""), 400)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	eventually(t, "the invoice due again", func() bool { return h.invoiceCount(account, "id = '"+invoice+"' AND status = 'DUE_PAYMENT'") == 1 })
	// Returned already: not paid, nothing to return or dispute.
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 409)
}

// TestAnOpsRefundOfADisputedPaymentIsRefused: a disputed payment is the
// card network's to decide, and Stripe refunds none (charge_disputed). An
// ops refund while the dispute is open, or after it was lost (its credit
// note already reversed the sale), is refused with the reason and changes
// nothing: no refund at the provider, no refunds row, no second credit note.
func TestAnOpsRefundOfADisputedPaymentIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.paidWith("disputed-refund@example.com", "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	refuse := func(state string) {
		t.Helper()
		_, err := r.Refund(context.Background(), invoice, nil, "goodwill")
		if err == nil || kudos.ErrorCode(err) != kudos.EInvalid || !strings.Contains(err.Error(), "disputed ("+state+")") {
			t.Fatalf("ops refund with the dispute %s: %v", state, err)
		}
		if n := h.count("refunds", account, "true"); n != 0 {
			t.Fatalf("dispute %s: %d refunds rows", state, n)
		}
	}
	h.expect(h.dispute(account, invoice, "open"), 200)
	eventually(t, "the dispute opened", func() bool { return slices.Contains(h.timelineOf(token, account), "dispute_opened") })
	refuse("open")
	h.expect(h.dispute(account, invoice, "lost"), 200)
	eventually(t, "the dispute lost", func() bool { return slices.Contains(h.timelineOf(token, account), "dispute_lost") })
	refuse("lost")
	if n := h.invoiceCount(account, "kind = 'CREDIT_NOTE'"); n != 1 {
		t.Fatalf("%d credit notes: want only the lost dispute's", n)
	}
}

// TestADebitReturnedDuringTheDeletionGraceIsOwed: a debit the bank returns
// while the account waits for its deletion is held as owed, as one that
// no dunning retries: the customer is told it came back, and nothing is
// charged again for an account whose owner asked to delete it (its
// invoices' Pay is refused until the deletion is cancelled) — not retried
// off-session during the grace as a renewal would be.
func TestADebitReturnedDuringTheDeletionGraceIsOwed(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(2*time.Second, time.Minute)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(time.Hour)
	token, account, invoice := h.returnedDuringTheDeletion("returned-while-deleting@example.com")
	time.Sleep(5 * time.Second) // past the first retry a renewal's dunning would make
	if n := h.invoiceCount(account, "id = '"+invoice+"' AND status = 'DUE_PAYMENT'"); n != 1 {
		t.Fatal("the returned invoice was charged again during the deletion's grace")
	}
	if sub := h.subscription(token, account); sub["payment_retry_at"] != nil || sub["failed_payment"] != nil {
		t.Fatalf("a retry is scheduled during the deletion's grace: %v", sub)
	}
	h.recordHistory("subscription:"+account, "", "subscription_returned_while_deleting.json")
}

// TestADisputeLostAfterAFullRefundChangesNothing: a payment refunded in
// full in the provider's dashboard, then disputed and lost, moved no more
// money (Stripe withdraws nothing for a charge refunded in full): the
// refund's credit note is the only one, and the plan, which went on after
// the refund, is neither ended nor billed again.
func TestADisputeLostAfterAFullRefundChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.paidWith("refunded-then-disputed@example.com", "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	var total int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT total_amount FROM invoices WHERE id = $1`, invoice).Scan(&total); err != nil {
		t.Fatal(err)
	}
	h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": invoice,
		"amount": float64(total) / 100}, ""), 200)
	eventually(t, "the refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	h.expect(h.dispute(account, invoice, "open"), 200)
	h.expect(h.dispute(account, invoice, "lost"), 200)
	eventually(t, "the lost dispute booked", func() bool { return h.count("disputes", account, "status = 'lost'") == 1 })
	eventually(t, "the dispute event applied", func() bool {
		return h.count("payment_events", account, "dispute IS NOT NULL AND applied_at IS NULL") == 0
	})
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes, want the refund's only")
	if s := h.subscription(token, account); s["show_status"] != "active" || s["plan"] != "STARTER" {
		t.Fatalf("after a dispute lost on a payment refunded in full: %v", s)
	}
	h.wantRows("invoices", account, "status = 'DUE_PAYMENT'", 0, "%d invoices due after a dispute that took nothing back, want 0")
	h.recordHistory("subscription:"+account, "", "subscription_dispute_lost_after_refund.json")
}
