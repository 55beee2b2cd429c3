package store_test

import (
	"context"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestARefundOfThePaymentThatPaysAgainBookedBeforeItRepaysTheFailedRefund:
// an invoice of 12.10 paid by A, 3.63 refunded and that refund failed (its
// credit note standing, owed), A's debit returned (the failed refund
// settled by the return), checkout B opened to pay the invoice again, and
// 3.63 of B refunded in the dashboard, booked before B's payment was
// applied (its event replayed later). When B settled the invoice,
// creditEarlierRefunds gave B's refund a credit note of its own and then
// the failed refund was owed again from B: 3.63 owed on top of the 3.63
// paid back, the sale credited 7.26. The failed refund is now owed again
// first, so B's refund repays it, as BookRefund would have in the other
// order: one credit note, nothing owed.
func TestARefundOfThePaymentThatPaysAgainBookedBeforeItRepaysTheFailedRefund(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, false)
	first, invoice := paidInvoice(t, db, account, kudos.InvoicePaid)
	part := kudos.Money{Amount: 363, Currency: "EUR"}
	refund := func(event, payment, providerID string) store.BookedRefund {
		t.Helper()
		b, err := db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: event, Provider: "fake", AccountID: account,
			CheckoutID: payment, Outcome: kudos.PaymentPaid,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, ProviderRefundID: providerID, Amount: &part}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	failed := refund("evt_part", first, "re_part")
	if _, err := db.RecordRefundFailure(ctx, account, kudos.PaymentEvent{EventID: "evt_part_failed", Provider: "fake", AccountID: account,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_part"}}); err != nil {
		t.Fatal(err)
	}
	if inv, err := db.ReturnPayment(ctx, account, kudos.ReturnEvent{ID: "py_returned", Payment: first,
		Amount: kudos.Money{Amount: 1210, Currency: "EUR"}}, time.Now(), store.Booking{}); err != nil || inv == nil {
		t.Fatalf("the return: %+v (%v), want the invoice due again", inv, err)
	}
	second := "co_again_" + invoice.String()[:8]
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: second, AccountID: account, Purpose: kudos.CheckoutInvoice,
		Plan: kudos.PlanPro, InvoiceID: &invoice, Provider: "fake", ProviderID: "cs_" + second, URL: "https://pay.example/" + second,
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	early := refund("evt_b_part", second, "re_b_part")
	if err := db.PayInvoice(ctx, invoice, second); err != nil {
		t.Fatal(err)
	}
	var repays *string
	var credited int64
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT repays FROM refunds WHERE id = $2),
		COALESCE((SELECT -sum(total_amount) FROM invoices WHERE corrects = $1 AND kind = 'CREDIT_NOTE'), 0)`,
		invoice, early.ID).Scan(&repays, &credited); err != nil {
		t.Fatal(err)
	}
	if repays == nil || *repays != failed.ID || credited != 363 {
		t.Fatalf("B's refund booked before B paid repays %v and the credit notes credit %d; want it to repay %s and 363 credited (one credit note)",
			repays, credited, failed.ID)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("%d failed refunds owed (%v), want 0: B's refund paid it back", n, err)
	}
}
