package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestRefundFailureThenRefundAgain (issue 36): a refund booked with its
// credit note fails at the provider. It is recorded once as failed (the
// timeline's refund_failed; the same failure again changes nothing), it no
// longer counts as refunded (what is left to refund grows by it), its
// credit note stands, and the gauge counts it. A refund made again pays
// out against that credit note (no second one) up to what is owed; beyond
// that, a refund gets its own credit note, and never more than was paid.
func TestRefundFailureThenRefundAgain(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoiceID := paidByCheckout(t, db)
	refund := func(id, providerID string, amount int64) (store.BookedRefund, error) {
		return db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_" + id, Provider: "fake", AccountID: account, CheckoutID: "co_1",
			Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, RefundID: id, ProviderRefundID: providerID,
				Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}})
	}
	first, err := refund("ops-refund:a", "re_a", 1000)
	if err != nil || first.CreditNoteNumber == "" {
		t.Fatalf("first refund %+v (%v)", first, err)
	}
	failure := kudos.PaymentEvent{EventID: "evt_fail", Provider: "fake", AccountID: account, CheckoutID: "co_1", Outcome: kudos.PaymentPaid,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_a", Reason: "expired_or_canceled_card",
			Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}}}
	for i, want := range []bool{true, false} {
		if changed, err := db.RecordRefundFailure(ctx, account, failure); err != nil || changed != want {
			t.Fatalf("failure %d: changed %v (%v), want %v", i, changed, err, want)
		}
	}
	if status, _ := db.RefundStatus(ctx, "ops-refund:a"); status != "failed" {
		t.Fatalf("refund %q, want failed", status)
	}
	if again, err := refund("ops-refund:a", "re_a", 1000); err != nil || again.New {
		t.Fatalf("the failed refund's event again: %+v (%v), want nothing booked", again, err)
	}
	pay, err := db.RefundablePaymentOf(ctx, invoiceID.String())
	if err != nil || pay.Refunded != 0 || pay.Left() != 1210 {
		t.Fatalf("refundable %+v (%v), want all 12.10 left", pay, err)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 1 {
		t.Fatalf("failed refunds owed %d (%v), want 1", n, err)
	}
	count := func(q string) (n int) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, q, account).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'refund_failed' AND amount = 1000`); n != 1 {
		t.Fatalf("%d refund_failed events, want 1", n)
	}
	// Refunded again, 6.00 of the 10.00 owed: against the first credit note.
	part, err := refund("ops-refund:a:2", "re_b", 600)
	if err != nil || part.CreditNoteNumber != first.CreditNoteNumber {
		t.Fatalf("refund again %+v (%v), want it paid out against %s", part, err, first.CreditNoteNumber)
	}
	if n := count(`SELECT count(*) FROM invoices WHERE account_id = $1 AND kind = 'CREDIT_NOTE'`); n != 1 {
		t.Fatalf("%d credit notes after the refund again, want 1", n)
	}
	// 6.00 more: 4.00 still owed against the first, 2.00 a new credit.
	rest, err := refund("ops-refund:c", "re_c", 600)
	if err != nil || rest.CreditNoteNumber == "" || rest.CreditNoteNumber == first.CreditNoteNumber {
		t.Fatalf("refund beyond what was owed %+v (%v), want a credit note of its own", rest, err)
	}
	var cnTotal int64
	if err := db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE number = $1`, rest.CreditNoteNumber).Scan(&cnTotal); err != nil || cnTotal != -200 {
		t.Fatalf("the new credit note %d (%v), want -2.00 (what was not owed already)", cnTotal, err)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("failed refunds owed %d (%v), want 0", n, err)
	}
	if _, err := refund("ops-refund:d", "re_d", 11); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund beyond what was paid: %v, want EInvalid", err)
	}
}

// paidByCheckout is a new account whose invoice of 12.10 (10.00 + 21 %
// VAT) was paid by its checkout co_1.
func paidByCheckout(t *testing.T, db *store.DB) (account, invoiceID uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	account = newAccount(t, db)
	invoiceID = proInvoice(t, db, account, kudos.InvoicePaymentDue, kudos.InvoiceDue)
	withPaidPlan(t, db, account, false)
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_1", AccountID: account, Purpose: kudos.CheckoutInvoice, Plan: kudos.PlanPro,
		InvoiceID: &invoiceID, Provider: "fake", ProviderID: "cs_1", URL: "https://pay.example/1", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SettlePaidCheckout(ctx, account, "co_1", invoiceID, store.Settlement{}, kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive}); err != nil {
		t.Fatal(err)
	}
	return account, invoiceID
}
