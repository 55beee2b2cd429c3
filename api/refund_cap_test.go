package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/ops"
)

// returnedAfterAPartialRefund buys a Starter plan for email, refunds 30 %
// of it in the provider's dashboard (its credit note of 30 %), has the
// bank return the whole debit (the invoice due again for its total) and
// waits until dunning has collected the invoice again through another
// payment. It returns the invoice, its number, its total and the part
// refunded first.
func (h *harness) returnedAfterAPartialRefund(email string) (account, invoice, number string, total, part int64) {
	h.t.Helper()
	ctx := context.Background()
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	invoice = h.paidInvoiceID(account)
	if err := h.db.Pool.QueryRow(ctx, `SELECT number, total_amount FROM invoices WHERE id = $1`, invoice).Scan(&number, &total); err != nil {
		h.t.Fatal(err)
	}
	part = total * 3 / 10
	h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": invoice,
		"amount": float64(part) / 100}, ""), 200)
	eventually(h.t, "the dashboard refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	h.inDunning(token, account)
	eventually(h.t, "the returned invoice collected again", func() bool {
		s := h.subscription(token, account)
		return s["payment_retry_at"] == nil && s["failed_payment"] == nil &&
			h.invoiceCount(account, "id = '"+invoice+"' AND status = 'PAID'") == 1
	})
	return account, invoice, number, total, part
}

// proPaidAfterGivingUp signs up email, opens a Pro checkout and gives up
// on it (cancelled), then pays Pro through a second one, and returns the
// first checkout: a "paid" event of it is a second payment of the plan.
func (h *harness) proPaidAfterGivingUp(email string) (token, account, first string) {
	h.t.Helper()
	token, account, href := h.startPlan(email, "PRO")
	first = h.checkoutOf(account)
	h.expect(h.do("POST", strings.TrimPrefix(href, "http://127.0.0.1:8080")+"/cancel", nil, ""), 303)
	eventually(h.t, "the cancel", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	co := h.expect(h.do("POST", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	eventually(h.t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	return token, account, first
}

// credited is what the invoice's credit notes credit (positive minor
// units).
func (h *harness) credited(invoice string) int64 {
	h.t.Helper()
	var credited int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT COALESCE(-sum(total_amount), 0) FROM invoices
		WHERE corrects = $1 AND kind = 'CREDIT_NOTE'`, invoice).Scan(&credited); err != nil {
		h.t.Fatal(err)
	}
	return credited
}

// refundedTotal is what the account's refunds gave back (status refunded).
func (h *harness) refundedTotal(account string) int64 {
	h.t.Helper()
	var sum int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT COALESCE(sum(amount), 0) FROM refunds WHERE account_id = $1
		AND status = 'refunded'`, account).Scan(&sum); err != nil {
		h.t.Fatal(err)
	}
	return sum
}

// TestAnOpsRefundAfterAReturnedDebitIsCappedByTheCreditNotes: an invoice
// of 100 paid by payment A, 30 refunded (credit note of 30), A's debit
// returned by the bank (the customer got 30 + 100 back) and the invoice
// collected again for 100 by payment B: the customer has 70 net paid for
// an invoice with 70 left to credit. `kudos ops refund` of the invoice
// offered B's 100 (the cap was per payment), while the credit note was
// capped at 70: 30 paid out with no credit note. The ops refund is now
// capped at the invoice's total less all its credit notes: it refunds 70,
// the credit notes add up to the invoice, and nothing is left.
func TestAnOpsRefundAfterAReturnedDebitIsCappedByTheCreditNotes(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(3*time.Second, time.Minute).withTemporal(time.Hour)
	ctx := context.Background()
	account, invoice, number, total, part := h.returnedAfterAPartialRefund("returned-then-refunded@example.com")
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	res, err := r.Refund(ctx, number, nil, "cancelled after the return")
	if err != nil || !res.Booked || res.Amount.Amount != total-part || res.CreditNoteNumber == "" {
		t.Fatalf("the ops refund after the return: %+v (%v), want %d refunded with its credit note", res, err, total-part)
	}
	if got := h.credited(invoice); got != total {
		t.Fatalf("the credit notes credit %d, want the invoice's total %d", got, total)
	}
	if got := h.refundedTotal(account); got != total {
		t.Fatalf("refunds gave back %d, want %d: no refund beyond what is creditable", got, total)
	}
	one := int64(1)
	if _, err := r.Refund(ctx, number, &one, "one cent more"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund of an invoice credited in full: %v, want EInvalid", err)
	}
}

// TestADashboardRefundBeyondWhatIsCreditableIsBookedAndCounted: the same
// invoice (30 refunded, returned, collected again) refunded in full in the
// provider's dashboard: the provider refunds B's 100, Kudos cannot refuse
// it. It was booked with its credit note silently capped at 70: 30 out
// with no credit note and nothing said. It is booked as it happened (100),
// the credit note credits the 70 left, and the 30 beyond is recorded on
// the refund (uncredited), counted by kudos_refunds_uncredited and shown
// by `kudos ops account`.
func TestADashboardRefundBeyondWhatIsCreditableIsBookedAndCounted(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(3*time.Second, time.Minute).withTemporal(time.Hour)
	ctx := context.Background()
	account, invoice, _, total, part := h.returnedAfterAPartialRefund("returned-then-dashboard@example.com")
	h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	eventually(t, "the dashboard refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 2 })
	h.wantRows("refunds", account, "status = 'refunded' AND amount = "+itoa(total), 1, "%d refunds of the whole payment, want 1 (as made)")
	if got := h.credited(invoice); got != total {
		t.Fatalf("the credit notes credit %d, want the invoice's total %d", got, total)
	}
	o, err := h.db.OpsAccount(ctx, uuid.MustParse(account))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := ops.WriteText(&text, &ops.Report{Account: o}); err != nil || !strings.Contains(text.String(), "paid out without a credit note") {
		t.Fatalf("ops account (%v) does not show the uncredited part:\n%s", err, text.String())
	}
	h.wantRows("refunds", account, "amount = "+itoa(total)+" AND uncredited = "+itoa(part), 1,
		"%d refunds recording the part paid out with no credit note, want 1")
	if n, err := h.db.UncreditedRefunds(ctx); err != nil || n != 1 {
		t.Fatalf("%d uncredited refunds counted (%v), want 1", n, err)
	}
}

// TestAFailedRefundOfADuplicateIsRefundedAgainFromItsOwnPayment: a plan
// paid twice (a checkout given up on, then paid late, after another paid
// it): the late payment is refunded with no credit note (it paid no
// invoice), and that refund fails at the provider. The alert said "refund
// again (kudos ops refund)", and the only invoice an operator can name is
// the one the other payment settled: refunding it refunded the real sale,
// with a credit note (VAT under-declared, the plan still paid), and the
// failed refund stayed owed. An ops refund of that invoice is now refused
// while the account has a failed refund of another payment, naming the
// way: `kudos ops refund --failed <refund id>`, which refunds the failed
// refund's own payment, with no credit note, and settles it.
func TestAFailedRefundOfADuplicateIsRefundedAgainFromItsOwnPayment(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	_, account, first := h.proPaidAfterGivingUp("duplicate-refund-failed@example.com")
	h.latePaidEvent(account, first)
	eventually(t, "the late payment refunded", func() bool {
		return h.count("refunds", account, "checkout_id = '"+first+"' AND status = 'refunded'") == 1
	})
	var failedID, providerID string
	var amount int64
	if err := h.db.Pool.QueryRow(ctx, `SELECT id, provider_id, amount FROM refunds WHERE account_id = $1 AND checkout_id = $2`,
		account, first).Scan(&failedID, &providerID, &amount); err != nil {
		t.Fatal(err)
	}
	h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": providerID}, ""), 200)
	eventually(t, "the refund failed", func() bool { return h.count("refunds", account, "status = 'failed'") == 1 })
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 1 {
		t.Fatalf("%d failed refunds owed (%v), want 1", n, err)
	}
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 0, "%d credit notes after the duplicate's refund failed, want none")
	var number string
	if err := h.db.Pool.QueryRow(ctx, `SELECT number FROM invoices WHERE account_id = $1 AND status = 'PAID'`, account).Scan(&number); err != nil {
		t.Fatal(err)
	}
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	if res, err := r.Refund(ctx, number, nil, "refund again"); kudos.ErrorCode(err) != kudos.EInvalid ||
		!strings.Contains(err.Error(), "--failed "+failedID) {
		t.Fatalf("an ops refund of the sale while the duplicate's refund is owed: %+v (%v), want EInvalid naming --failed %s", res, err, failedID)
	}
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 0, "%d credit notes after the refused refund, want none")
	h.wantRows("refunds", account, "status = 'refunded'", 0, "%d refunds made by the refused refund, want none")

	again, err := r.RefundFailed(ctx, failedID, nil, "the first refund bounced")
	if err != nil || !again.Booked || again.Already || again.Amount.Amount != amount || again.CreditNoteNumber != "" || again.Repays != failedID {
		t.Fatalf("refund again of the failed refund: %+v (%v), want %d from its own payment, no credit note", again, err, amount)
	}
	h.wantRows("refunds", account, "status = 'refunded' AND checkout_id = '"+first+"' AND repays = '"+failedID+"'", 1,
		"%d refunds of the late payment repaying the failed one, want 1")
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 0, "%d credit notes after the refund again, want none: the sale stands")
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("%d failed refunds still owed after the refund again (%v), want 0", n, err)
	}
	var out strings.Builder
	if err := ops.WriteRefund(&out, again); err != nil || !strings.Contains(out.String(), "failed refund "+failedID+" refunded again") {
		t.Fatalf("printed %q (%v)", out.String(), err)
	}
	if same, err := r.RefundFailed(ctx, failedID, nil, "the first refund bounced"); err != nil || !same.Already {
		t.Fatalf("the same command again: %+v (%v), want nothing new", same, err)
	}
	if _, err := r.RefundFailed(ctx, failedID, nil, "once more"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund again of a failed refund repaid already: %v, want EInvalid", err)
	}
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "true", 2,
		"%d refunds at the provider, want the failed one and the one made again")
	// Nothing owed elsewhere any more: the sale can be refunded as usual.
	one := int64(100)
	if res, err := r.Refund(ctx, number, &one, "goodwill"); err != nil || !res.Booked || res.CreditNoteNumber == "" {
		t.Fatalf("a refund of the sale after the failed refund was repaid: %+v (%v)", res, err)
	}
}
