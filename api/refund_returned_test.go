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

// failedAndReturned buys a Starter plan for email, refunds 30 % of it in
// the provider's dashboard, has that refund fail at the provider (owed to
// the customer, its credit note standing) and the bank return the whole
// debit, the failure first or the return first (failFirst). It returns the
// account and the failed refund's id once both are booked.
func (h *harness) failedAndReturned(email string, failFirst bool) (account, failedID string) {
	h.t.Helper()
	ctx := context.Background()
	_, account = h.paidWith(email, "STARTER", "4242424242424242")
	invoice := h.paidInvoiceID(account)
	var total int64
	if err := h.db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE id = $1`, invoice).Scan(&total); err != nil {
		h.t.Fatal(err)
	}
	refundID := h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": invoice,
		"amount": float64(total*3/10) / 100}, ""), 200).str("refund_id")
	eventually(h.t, "the dashboard refund booked", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	fail := func() {
		h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": refundID}, ""), 200)
		eventually(h.t, "the refund failed", func() bool { return h.count("refunds", account, "status <> 'refunded'") == 1 })
	}
	if failFirst {
		fail()
		h.wantRows("refunds", account, "status = 'failed'", 1, "%d failed refunds owed before the return, want 1")
	}
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	eventually(h.t, "the return booked", func() bool {
		return h.count("billing_events", account, "type = 'payment_returned'") == 1 &&
			h.count("payment_events", account, "returned IS NOT NULL AND applied_at IS NULL") == 0
	})
	if !failFirst {
		fail()
	}
	if err := h.db.Pool.QueryRow(ctx, `SELECT id FROM refunds WHERE account_id = $1 AND provider_id = $2`, account, refundID).
		Scan(&failedID); err != nil {
		h.t.Fatal(err)
	}
	return account, failedID
}

// TestAFailedRefundOfAReturnedPaymentIsSettledByTheReturn: 30 % of a SEPA
// payment refunded, the refund failed at the provider (owed to the
// customer), and the bank returned the whole debit: the customer has all
// of it back. The failed refund stayed failed, counted by
// kudos_refunds_failed, and `kudos ops refund --failed` refunded it again
// from the returned payment: paid out twice (Stripe would not refund a
// returned charge). It is now settled by the return (settled_by_return,
// naming it), in whichever order the two are booked: no longer counted,
// shown by `kudos ops account`, and `--failed` refuses it saying why,
// asking nothing of the provider.
func TestAFailedRefundOfAReturnedPaymentIsSettledByTheReturn(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	for _, failFirst := range []bool{true, false} {
		email := map[bool]string{true: "failed-then-returned@example.com", false: "returned-then-failed@example.com"}[failFirst]
		account, failedID := h.failedAndReturned(email, failFirst)
		if n, err := h.db.FailedRefunds(ctx); err != nil || n != 0 {
			t.Fatalf("fail first %v: %d failed refunds owed after the return gave the payment back (%v), want 0", failFirst, n, err)
		}
		res, err := r.RefundFailed(ctx, failedID, nil, "the refund bounced")
		if kudos.ErrorCode(err) != kudos.EInvalid || !strings.Contains(err.Error(), "returned by the bank") {
			t.Fatalf("fail first %v: refund again of a failed refund of a returned payment: %+v (%v), want EInvalid saying it was returned",
				failFirst, res, err)
		}
		h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "true", 1,
			"%d refunds at the provider, want only the failed one: nothing paid out twice")
		h.wantRows("refunds", account, "id = '"+failedID+"' AND status = 'settled_by_return' AND settled_by_return IS NOT NULL", 1,
			"%d failed refunds settled by the return, want 1")
		o, err := h.db.OpsAccount(ctx, uuid.MustParse(account))
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		if err := ops.WriteText(&text, &ops.Report{Account: o}); err != nil ||
			!strings.Contains(text.String(), "settled by the return of its payment") {
			t.Fatalf("fail first %v: ops account (%v) does not show the refund settled by the return:\n%s", failFirst, err, text.String())
		}
	}
}
