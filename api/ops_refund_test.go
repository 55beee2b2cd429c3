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

// TestOpsRefundPartialThenRest (issue 36 item 2): `kudos ops refund` of
// 12.34 of a paid invoice refunds at the provider and the workflow books
// it: a credit note of -12.34 (its VAT in the invoice's proportion, the
// reverse charge kept), the refund_issued mail naming it, the timeline's
// refund event; the command prints the refund and the credit note's
// number. The same command again refunds nothing new; more than is left is
// refused with a clear error; the provider's own event for the refund,
// arriving after, books nothing; the rest refunded gets its own credit
// note, and together they give back exactly what was paid.
func TestOpsRefundPartialThenRest(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	const email = "ops-refund@example.com"
	token, account, href := h.startPlan(email, "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	paid := int64(inv["amount"].(float64)*100 + 0.5)
	var number string
	var total, vat int64
	var reverse bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT number, total_amount, vat_amount, reverse_charge FROM invoices WHERE id = $1`, inv["id"]).
		Scan(&number, &total, &vat, &reverse); err != nil {
		t.Fatal(err)
	}
	r := &ops.Refunder{Store: h.db, Payments: h.srv.Payments, Kick: h.srv.Outbox.Kick, Wait: 20 * time.Second}
	amount := int64(1234)
	res, err := r.Refund(ctx, number, &amount, "goodwill: outage in March")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Booked || res.Already || res.ProviderRefundID == "" || !strings.HasPrefix(res.CreditNoteNumber, "KUD-CN-") || res.Amount.Amount != 1234 {
		t.Fatalf("first refund: %+v", res)
	}
	var out strings.Builder
	if err := ops.WriteRefund(&out, res); err != nil || !strings.Contains(out.String(), res.CreditNoteNumber) ||
		!strings.Contains(out.String(), res.RefundID) {
		t.Fatalf("printed %q (%v)", out.String(), err)
	}
	cns := h.creditNotes(token, account)
	if len(cns) != 1 || cns[0]["amount"] != -12.34 || cns[0]["corrects"] != inv["id"] || cns[0]["status"] != "CREDITED" {
		t.Fatalf("credit notes %v", cns)
	}
	var cnVAT int64
	var cnReverse bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT vat_amount, reverse_charge FROM invoices WHERE number = $1`, res.CreditNoteNumber).
		Scan(&cnVAT, &cnReverse); err != nil {
		t.Fatal(err)
	}
	if want := -(1234*vat*2 + total) / (2 * total); cnVAT != want || cnReverse != reverse {
		t.Fatalf("credit note VAT %d reverse %v, want %d (in proportion) and %v", cnVAT, cnReverse, want, reverse)
	}
	eventually(t, "the refund_issued mail", func() bool {
		m := h.lastMail(email)
		return m.Purpose == kudos.MailRefundIssued && m.Billing != nil && m.Billing.CreditNoteNumber == res.CreditNoteNumber &&
			m.Billing.RefundRequested
	})
	h.wantRows("billing_events", account, "type = 'refund' AND amount = 1234", 1, "%d refund events, want 1")

	again, err := r.Refund(ctx, number, &amount, "goodwill: outage in March")
	if err != nil || !again.Already || again.RefundID != res.RefundID || again.CreditNoteNumber != res.CreditNoteNumber {
		t.Fatalf("the same command again: %+v, %v", again, err)
	}
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "true", 1, "%d refunds at the provider, want 1")
	if over := paid - 1234 + 1; true {
		_, err := r.Refund(ctx, number, &over, "too much")
		if kudos.ErrorCode(err) != kudos.EInvalid || !strings.Contains(err.Error(), "exceed what was paid") {
			t.Fatalf("over-refund: %v", err)
		}
	}

	// The provider's event of the same refund (charge.refunded), naming
	// only the provider's refund id.
	var checkout string
	if err := h.db.Pool.QueryRow(ctx, `SELECT paid_by FROM invoices WHERE id = $1`, inv["id"]).Scan(&checkout); err != nil {
		t.Fatal(err)
	}
	late := kudos.PaymentEvent{EventID: "sandbox_charge_refunded_late", Provider: "sandbox", AccountID: uuid.MustParse(account),
		CheckoutID: checkout, Outcome: kudos.PaymentPaid, OccurredAt: time.Now().UTC(), LedgerMovement: kudos.LedgerMovement{
			Movement: kudos.MovementRefund, ProviderRefundID: res.ProviderRefundID, Amount: &kudos.Money{Amount: 1234, Currency: "EUR"}}}
	if _, err := h.db.RecordPaymentEvent(ctx, late, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	h.srv.Outbox.Kick()
	eventually(t, "the provider's event applied", func() bool {
		return h.count("payment_events", account, "event_id = 'sandbox_charge_refunded_late' AND applied_at IS NOT NULL") == 1
	})
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 1, "%d credit notes after the provider's event of the same refund, want 1")

	rest, err := r.Refund(ctx, inv["id"].(string), nil, "cancelled by the customer")
	if err != nil || !rest.Booked || rest.Amount.Amount != paid-1234 || rest.CreditNoteNumber == res.CreditNoteNumber {
		t.Fatalf("the rest: %+v, %v", rest, err)
	}
	sum := 0.0
	for _, c := range h.creditNotes(token, account) {
		sum += c["amount"].(float64)
	}
	if int64(-sum*100+0.5) != paid {
		t.Fatalf("credit notes total %.2f, want -%d cents", sum, paid)
	}
	if _, err := r.Refund(ctx, number, nil, "once more"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund of an invoice refunded in full: %v", err)
	}
	h.recordHistory("subscription:"+account, "", "subscription_ledger_ops_refund.json")
}
