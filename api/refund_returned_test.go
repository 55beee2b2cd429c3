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
// debit, the failure first or the return first (failFirst; then
// beforeFailure, when not nil, runs between the two). It returns the
// account and the failed refund's id once both are booked.
func (h *harness) failedAndReturned(email string, failFirst bool, beforeFailure func(account, invoice string)) (account, failedID string) {
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
		if beforeFailure != nil {
			beforeFailure(account, invoice)
		}
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
		account, failedID := h.failedAndReturned(email, failFirst, nil)
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

// TestAFailedRefundOfAReturnedPaymentIsOwedAgainOnceTheInvoiceIsPaidAgain:
// 30 % of payment A refunded, the refund failed (its credit note of 30 %
// standing), A's debit returned, and dunning collected the invoice again
// for its whole total through payment B. The return had settled the failed
// refund (the customer then had all of A back), and it stayed settled:
// the customer paid the total again against an invoice with 70 % left to
// credit, 30 % too much, and nothing counted it. Once the invoice is paid
// again, the refund is owed again, from B: counted by
// kudos_refunds_failed, and `kudos ops refund --failed` pays it out of B
// against its credit note (no second one): the customer has paid 70 % net,
// what the invoice less its credit notes says. In both orders: the failure
// booked before the return, and after the invoice was paid again.
func TestAFailedRefundOfAReturnedPaymentIsOwedAgainOnceTheInvoiceIsPaidAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(3*time.Second, time.Minute).withTemporal(time.Hour)
	ctx := context.Background()
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	paidAgain := func(account, invoice string) string {
		var by string
		eventually(t, "the returned invoice collected again", func() bool {
			return h.db.Pool.QueryRow(ctx, `SELECT paid_by FROM invoices WHERE id = $1 AND status = 'PAID'`, invoice).Scan(&by) == nil
		})
		return by
	}
	// The failure first last: its account goes on (B returned, C), and
	// FailedRefunds counts every account's.
	for _, failFirst := range []bool{false, true} {
		email := map[bool]string{true: "failed-returned-paid@example.com", false: "returned-paid-failed@example.com"}[failFirst]
		account, failedID := h.failedAndReturned(email, failFirst, func(account, invoice string) { paidAgain(account, invoice) })
		var invoice string // the one the failed refund's credit note corrects
		if err := h.db.Pool.QueryRow(ctx, `SELECT corrects FROM invoices WHERE refund_id = $1`, failedID).Scan(&invoice); err != nil {
			t.Fatal(err)
		}
		b := paidAgain(account, invoice)
		var total int64
		if err := h.db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE id = $1`, invoice).Scan(&total); err != nil {
			t.Fatal(err)
		}
		part := total * 3 / 10
		// Owed again in the transaction that paid the invoice again (or
		// booked the failure, when it came after): nothing to wait for.
		if n, err := h.db.FailedRefunds(ctx); err != nil || n != 1 {
			t.Fatalf("fail first %v: %d failed refunds owed after the invoice was paid again (%v), want 1", failFirst, n, err)
		}
		h.wantRows("refunds", account, "id = '"+failedID+"' AND status = 'failed' AND owed_from = '"+b+"'", 1,
			"%d failed refunds owed again from the payment that paid the invoice again, want 1")
		o, err := h.db.OpsAccount(ctx, uuid.MustParse(account))
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		if err := ops.WriteText(&text, &ops.Report{Account: o}); err != nil || !strings.Contains(text.String(), "invoice paid again by "+b) {
			t.Fatalf("fail first %v: ops account (%v) does not show the refund owed again from %s:\n%s", failFirst, err, b, text.String())
		}
		res, err := r.RefundFailed(ctx, failedID, nil, "paid again after the return")
		if err != nil || !res.Booked || res.Amount.Amount != part || res.Repays != failedID || res.CreditNoteNumber == "" {
			t.Fatalf("fail first %v: refund again after the invoice was paid again: %+v (%v), want %d from %s repaying %s against its credit note",
				failFirst, res, err, part, b, failedID)
		}
		h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "charge_id = '"+b+"'", 1,
			"%d refunds of the payment that paid the invoice again, want 1")
		if got := h.credited(invoice); got != part {
			t.Fatalf("fail first %v: the credit notes credit %d, want %d: no second credit note", failFirst, got, part)
		}
		if n, err := h.db.FailedRefunds(ctx); err != nil || n != 0 {
			t.Fatalf("fail first %v: %d failed refunds owed after the refund made again (%v), want 0", failFirst, n, err)
		}
		// What the customer paid net: A, its return, B, the refund made
		// again (the first failed): the invoice less its credit notes.
		var paid, refunded int64
		if err := h.db.Pool.QueryRow(ctx, `SELECT COALESCE(sum(amount) FILTER (WHERE paid), 0) FROM sandbox_charges WHERE account_id = $1 AND amount > 1`,
			account).Scan(&paid); err != nil {
			t.Fatal(err)
		}
		refunded = h.refundedTotal(account)
		if net := paid - total - refunded; net != total-part {
			t.Fatalf("fail first %v: the customer paid %d net (charged %d, %d returned, %d refunded), want %d", failFirst, net, paid, total, refunded, total-part)
		}
		if !failFirst {
			continue
		}
		// Then B is returned in its turn, the invoice paid again by C, and
		// the refund made again from B fails: what the first refund owed
		// is owed again, from C. It stayed settled by B's return: the
		// customer had paid the total once more (C) against an invoice
		// with 70 % left to credit, and nothing counted it.
		h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
		eventually(t, "B's return booked", func() bool {
			return h.count("billing_events", account, "type = 'payment_returned'") == 2 &&
				h.count("payment_events", account, "returned IS NOT NULL AND applied_at IS NULL") == 0
		})
		c := paidAgain(account, invoice)
		if c == b {
			t.Fatalf("the invoice is still paid by %s after its return", b)
		}
		h.expect(h.do("POST", "/dev/sandbox/refund-failed", map[string]any{"account_id": account, "refund_id": res.ProviderRefundID}, ""), 200)
		eventually(t, "the refund made again failed", func() bool {
			return h.count("refunds", account, "provider_id = '"+res.ProviderRefundID+"' AND status = 'failed'") == 1
		})
		h.wantRows("refunds", account, "id = '"+failedID+"' AND status = 'failed' AND owed_from = '"+c+"'", 1,
			"%d failed refunds owed again from C after the refund made again from B (returned since) failed, want 1")
		if n, err := h.db.FailedRefunds(ctx); err != nil || n != 1 {
			t.Fatalf("%d failed refunds owed after the refund made again from the returned B failed and C paid (%v), want 1", n, err)
		}
	}
}
