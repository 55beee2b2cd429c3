package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
	"kudos/ops"
)

// TestFailedRefundIsReversedAndOpsRefundsAgain (issue 36, a refund that
// fails after it was booked): an operator's full refund is booked with
// its credit note; the provider then reports it failed (Stripe's
// refund.updated, status failed: the money never reached the customer).
// The ledger says so: the refund row is failed, the timeline has
// refund_failed, `kudos ops account` shows it; the credit note stands (a
// tax document that already reduced the sale: the customer is owed the
// money). `kudos ops refund` may then refund again — what was paid minus
// the refunds that did not fail — and that refund pays out against the
// existing credit note: no second credit note.
func TestFailedRefundIsReversedAndOpsRefundsAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	token, account, href := h.startPlan("refund-failed@example.com", "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	var number string
	var total int64
	if err := h.db.Pool.QueryRow(ctx, `SELECT number, total_amount FROM invoices WHERE id = $1`, inv["id"]).Scan(&number, &total); err != nil {
		t.Fatal(err)
	}
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	first, err := r.Refund(ctx, number, nil, "cancelled in the first week")
	if err != nil || !first.Booked || first.CreditNoteNumber == "" {
		t.Fatalf("first refund %+v (%v)", first, err)
	}
	var checkout string
	if err := h.db.Pool.QueryRow(ctx, `SELECT paid_by FROM invoices WHERE id = $1`, inv["id"]).Scan(&checkout); err != nil {
		t.Fatal(err)
	}
	failed := kudos.PaymentEvent{EventID: "evt_refund_failed_" + uuid.NewString(), Provider: "sandbox", AccountID: uuid.MustParse(account),
		CheckoutID: checkout, Outcome: kudos.PaymentPaid, OccurredAt: time.Now().UTC(), LedgerMovement: kudos.LedgerMovement{
			Movement: kudos.Movement("refund_failed"), RefundID: first.RefundID, ProviderRefundID: first.ProviderRefundID,
			Amount: &kudos.Money{Amount: total, Currency: "EUR"}, Reason: "expired_or_canceled_card"}}
	for range 2 { // delivered twice: booked once
		if _, err := h.db.RecordPaymentEvent(ctx, failed, dispatch.PaymentEvent); err != nil {
			t.Fatal(err)
		}
		h.srv.Outbox.Kick()
		failed.EventID += "_again"
	}
	eventually(t, "the failed refund's events applied", func() bool {
		return h.count("payment_events", account, "movement = 'refund_failed' AND applied_at IS NOT NULL") == 2
	})
	h.wantRows("refunds", account, "id = '"+first.RefundID+"' AND status = 'failed'", 1, "%d failed refunds, want the operator's")
	h.wantRows("billing_events", account, "type = 'refund_failed' AND amount = "+itoa(total), 1, "%d refund_failed events, want 1")
	o, err := h.db.OpsAccount(ctx, uuid.MustParse(account))
	if err != nil || len(o.Refunds) != 1 || o.Refunds[0].Status != "failed" || o.Refunds[0].FailedAt == nil ||
		o.Refunds[0].FailureReason != "expired_or_canceled_card" {
		t.Fatalf("ops account refunds %+v (%v)", o.Refunds, err)
	}
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes after the failure, want the first (it stands)")

	again, err := r.Refund(ctx, number, nil, "cancelled in the first week")
	if err != nil || again.Already || !again.Booked || again.RefundID == first.RefundID || again.Amount.Amount != total {
		t.Fatalf("refund again after the failure: %+v (%v)", again, err)
	}
	if again.CreditNoteNumber != first.CreditNoteNumber {
		t.Fatalf("the new refund's credit note %q, want the first's %q (it pays out against it)", again.CreditNoteNumber, first.CreditNoteNumber)
	}
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes after the refund again, want 1")
	h.wantRows("refunds", account, "status = 'refunded' AND amount = "+itoa(total), 1, "%d refunds made again, want 1")
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "true", 2, "%d refunds at the provider, want 2")
	one := int64(1)
	if _, err := r.Refund(ctx, number, &one, "one cent more"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund beyond what was paid after the retry: %v, want EInvalid", err)
	}
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("%d failed refunds still owed after the refund again (%v), want 0", n, err)
	}
	h.recordHistory("subscription:"+account, "", "subscription_refund_failed.json")
}

// TestSandboxRefundFailed: the sandbox plays a dashboard refund that fails
// after it was made (POST /dev/sandbox/refund-failed emits refund.updated,
// status failed): Kudos records it once (failed, refund_failed, the credit
// note standing, the gauge counting what is owed), the provider's list of
// refunds leaves it out (the daily reconciliation finds no difference),
// and the same failure again is 409; another account's refund is 404.
func TestSandboxRefundFailed(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	token, account, href := h.startPlan("sandbox-refund-failed@example.com", "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	refundID := h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": inv["id"],
		"amount": 10.00}, ""), 200).str("refund_id")
	eventually(t, "the dashboard refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": uuid.NewString(), "refund_id": refundID}, ""), 404)
	h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": refundID}, ""), 200)
	eventually(t, "the refund failed", func() bool { return h.count("refunds", account, "status = 'failed'") == 1 })
	h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": refundID}, ""), 409)
	h.wantRows("billing_events", account, "type = 'refund_failed' AND amount = 1000", 1, "%d refund_failed events, want 1")
	h.wantRows("refunds", account, "status = 'failed' AND failure_reason = 'expired_or_canceled_card'", 1, "%d failures with their reason")
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes, want the refund's (it stands)")
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 1 {
		t.Fatalf("%d failed refunds owed (%v), want 1", n, err)
	}
	var listed int
	if err := h.srv.Payments.(kudos.ProviderLedger).ListRefunds(ctx, time.Now().Add(-time.Hour), time.Now().Add(time.Hour),
		func(r kudos.ProviderRefund) error {
			if r.ID == refundID {
				listed++
			}
			return nil
		}); err != nil || listed != 0 {
		t.Fatalf("the provider lists the failed refund %d times (%v), want 0", listed, err)
	}
}

// failedThenLost has the sandbox refund part of the account's paid invoice
// in the provider's dashboard (amount, minor units), that refund fail at
// the provider, then the payment disputed and lost, and returns the
// invoice, its total and the failed refund's id at the provider once the
// lost dispute's event is applied.
func (h *harness) failedThenLost(account string, amount func(total int64) int64) (invoice string, total int64, refundID string) {
	h.t.Helper()
	ctx := context.Background()
	invoice = h.paidInvoiceID(account)
	if err := h.db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE id = $1`, invoice).Scan(&total); err != nil {
		h.t.Fatal(err)
	}
	refundID = h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": invoice,
		"amount": float64(amount(total)) / 100}, ""), 200).str("refund_id")
	eventually(h.t, "the dashboard refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": refundID}, ""), 200)
	eventually(h.t, "the refund failed", func() bool { return h.count("refunds", account, "status <> 'refunded'") == 1 })
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 1 {
		h.t.Fatalf("%d failed refunds owed before the dispute (%v), want 1", n, err)
	}
	h.expect(h.dispute(account, invoice, "open"), 200)
	h.expect(h.dispute(account, invoice, "lost"), 200)
	eventually(h.t, "the lost dispute booked", func() bool { return h.count("disputes", account, "status = 'lost'") == 1 })
	eventually(h.t, "the dispute events applied", func() bool {
		return h.count("payment_events", account, "dispute IS NOT NULL AND applied_at IS NULL") == 0
	})
	return invoice, total, refundID
}

// wantSettledByDispute fails the test unless the account's failed refund
// (refundID at the provider) is settled by the lost dispute of invoice
// (the card network gave the customer the money back: nothing is owed any
// more), the gauge no longer counts it, `kudos ops account` says so, and
// the invoice's credit notes add up to its total exactly (never more: no
// double credit).
func (h *harness) wantSettledByDispute(account, invoice, refundID string, total int64) {
	h.t.Helper()
	ctx := context.Background()
	dispute := "dp_sandbox_" + invoice
	if n, err := h.db.FailedRefunds(ctx); err != nil || n != 0 {
		h.t.Fatalf("%d failed refunds still owed after the lost dispute gave the money back (%v), want 0", n, err)
	}
	var credited int64
	if err := h.db.Pool.QueryRow(ctx, `SELECT COALESCE(-sum(total_amount), 0) FROM invoices WHERE corrects = $1 AND kind = 'CREDIT_NOTE'`,
		invoice).Scan(&credited); err != nil || credited != total {
		h.t.Fatalf("the invoice's credit notes credit %d (%v), want its total %d", credited, err, total)
	}
	h.wantRows("refunds", account, "provider_id = '"+refundID+"' AND status = 'settled_by_dispute' AND settled_by = '"+dispute+"'", 1,
		"%d failed refunds settled by the lost dispute, want 1")
	o, err := h.db.OpsAccount(ctx, uuid.MustParse(account))
	if err != nil || len(o.Refunds) != 1 || o.Refunds[0].Status != "settled_by_dispute" || o.Refunds[0].SettledBy == nil ||
		*o.Refunds[0].SettledBy != dispute {
		h.t.Fatalf("ops account refunds %+v (%v)", o.Refunds, err)
	}
	var text strings.Builder
	if err := ops.WriteText(&text, &ops.Report{Account: o}); err != nil || !strings.Contains(text.String(),
		"settled by lost dispute "+dispute+" (the card network gave the customer the money back): nothing owed") {
		h.t.Fatalf("ops account (%v):\n%s", err, text.String())
	}
}

// TestALostDisputeSettlesAPartlyFailedRefund: 30 % of a payment refunded in
// the dashboard, the refund failed at the provider (owed to the customer,
// its credit note standing), then the whole payment disputed and lost: the
// card network gave the customer all of it back, so the failed refund is
// settled by the dispute (status settled_by_dispute, naming it), no longer
// owed nor counted by kudos_refunds_failed (the alert clears), and the
// dispute's credit note credits only the rest of the invoice (the refund's
// 30 % and the dispute's 70 % add up to the invoice).
func TestALostDisputeSettlesAPartlyFailedRefund(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	_, account := h.paidWith("failed-then-disputed@example.com", "STARTER", "4242424242424242")
	invoice, total, refundID := h.failedThenLost(account, func(total int64) int64 { return total * 3 / 10 })
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 2, "%d credit notes, want the refund's and the dispute's")
	h.wantSettledByDispute(account, invoice, refundID, total)
}

// TestALostDisputeSettlesAFailedFullRefund: a full refund that failed at the
// provider, then the payment disputed and lost: the refund's credit note
// already reversed the whole sale (the dispute's makes none), and the
// failed refund is settled by the dispute, no longer owed nor counted.
func TestALostDisputeSettlesAFailedFullRefund(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	_, account := h.paidWith("failed-full-then-disputed@example.com", "STARTER", "4242424242424242")
	invoice, total, refundID := h.failedThenLost(account, func(total int64) int64 { return total })
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes, want the refund's only")
	h.wantSettledByDispute(account, invoice, refundID, total)
}
