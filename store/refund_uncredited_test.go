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

// returnedAfterAPartialRefund is an invoice of 12.10 paid by checkout A,
// 3.63 of it refunded in the provider's dashboard (its credit note of
// 3.63; with failed, that refund then failed at the provider, re_part),
// A's debit then returned by the bank (the invoice due again for its
// total), and a second checkout B opened to pay it again. It returns the
// account, the invoice and B.
func returnedAfterAPartialRefund(t *testing.T, db *store.DB, failed bool) (account, invoice uuid.UUID, second string) {
	t.Helper()
	ctx := context.Background()
	account = newAccount(t, db)
	withPaidPlan(t, db, account, false)
	first, invoice := paidInvoice(t, db, account, kudos.InvoicePaid)
	providerRefund(t, db, account, first, "re_part", 363)
	if failed {
		if _, err := db.RecordRefundFailure(ctx, account, kudos.PaymentEvent{EventID: "evt_part_failed", Provider: "fake", AccountID: account,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_part"}}); err != nil {
			t.Fatal(err)
		}
	}
	if inv, err := db.ReturnPayment(ctx, account, kudos.ReturnEvent{ID: "py_returned", Payment: first,
		Amount: kudos.Money{Amount: 1210, Currency: "EUR"}}, time.Now(), store.Booking{}); err != nil || inv == nil {
		t.Fatalf("the return: %+v (%v), want the invoice due again", inv, err)
	}
	second = "co_again_" + invoice.String()[:8]
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: second, AccountID: account, Purpose: kudos.CheckoutInvoice,
		Plan: kudos.PlanPro, InvoiceID: &invoice, Provider: "fake", ProviderID: "cs_" + second, URL: "https://pay.example/" + second,
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return account, invoice, second
}

// providerRefund books a refund of amount made at the provider (its id
// re) of payment, as its event reports it.
func providerRefund(t *testing.T, db *store.DB, account uuid.UUID, payment, re string, amount int64) store.BookedRefund {
	t.Helper()
	b, err := db.BookRefund(context.Background(), account, kudos.PaymentEvent{EventID: "evt_" + re, Provider: "fake", AccountID: account,
		CheckoutID: payment, Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund,
			ProviderRefundID: re, Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantUncredited fails the test unless the invoice's credit notes credit
// its total exactly (never more), and refund refundID records uncredited
// as paid out with no credit note, counted by UncreditedRefunds.
func wantUncredited(t *testing.T, db *store.DB, invoice uuid.UUID, refundID string, uncredited int64) {
	t.Helper()
	ctx := context.Background()
	var credited, got int64
	if err := db.Pool.QueryRow(ctx, `SELECT COALESCE((SELECT -sum(total_amount) FROM invoices WHERE corrects = $1 AND kind = 'CREDIT_NOTE'), 0),
		(SELECT uncredited FROM refunds WHERE id = $2)`, invoice, refundID).Scan(&credited, &got); err != nil {
		t.Fatal(err)
	}
	if credited != 1210 || got != uncredited {
		t.Fatalf("the credit notes credit %d, refund %s records %d uncredited; want 1210 and %d (paid out with no credit note)",
			credited, refundID, got, uncredited)
	}
	if n, err := db.UncreditedRefunds(ctx); err != nil || n < 1 {
		t.Fatalf("%d uncredited refunds counted (%v), want the refund's", n, err)
	}
}

// TestARefundCreditedWhenItsPaymentSettlesRecordsWhatItCouldNotCredit: an
// invoice of 12.10 paid by A, 3.63 refunded (credit note), A returned, the
// invoice paid again by B; B refunded in full in the dashboard (12.10) and
// that refund booked before B's payment was applied (its event replayed
// later): it credited nothing then. When B settles the invoice,
// creditEarlierRefunds gave it its credit note, silently capped at the 8.47
// left: 3.63 paid out with no credit note and nothing said. The rest is
// now recorded on the refund (uncredited), as BookRefund records it.
func TestARefundCreditedWhenItsPaymentSettlesRecordsWhatItCouldNotCredit(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoice, second := returnedAfterAPartialRefund(t, db, false)
	b := providerRefund(t, db, account, second, "re_all", 1210)
	if b.CreditNoteNumber != "" {
		t.Fatalf("the refund of B before B applied: %+v, want booked with no credit note yet", b)
	}
	if err := db.PayInvoice(ctx, invoice, second); err != nil {
		t.Fatal(err)
	}
	wantUncredited(t, db, invoice, b.ID, 363)
}

// TestACheckoutRefundOfASaleRecordsWhatItCouldNotCredit: the same invoice
// (3.63 refunded, returned, paid again by checkout B), and B given back in
// full by RecordRefund (a checkout's automatic refund, or one refused and
// made by hand): its credit note was capped at the 8.47 left with the rest
// unsaid. It is now recorded on the refund as BookRefund records it.
func TestACheckoutRefundOfASaleRecordsWhatItCouldNotCredit(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoice, second := returnedAfterAPartialRefund(t, db, false)
	if err := db.PayInvoice(ctx, invoice, second); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordRefund(ctx, account, "refund:"+second, second, "re_"+second, "paid when nothing was owed",
		kudos.Money{Amount: 1210, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	wantUncredited(t, db, invoice, "refund:"+second, 363)
}

// TestAFailedRefundWithAnUncreditedPartOwesOnlyItsCredit: the same invoice
// (3.63 refunded, returned, paid again by B), B refunded in full (credit
// note 8.47, 3.63 recorded as paid out with no credit note), and that
// refund fails at the provider: no money left. The customer has paid 8.47
// net against an invoice credited in full, so 8.47 is owed, and nothing was
// paid out with no credit note. Before, all 12.10 was owed (a refund
// again would pay 3.63 too much) and the 3.63 still counted as paid out.
func TestAFailedRefundWithAnUncreditedPartOwesOnlyItsCredit(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoice, second := returnedAfterAPartialRefund(t, db, false)
	if err := db.PayInvoice(ctx, invoice, second); err != nil {
		t.Fatal(err)
	}
	b := providerRefund(t, db, account, second, "re_all", 1210)
	wantUncredited(t, db, invoice, b.ID, 363)
	before, err := db.UncreditedRefunds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordRefundFailure(ctx, account, kudos.PaymentEvent{EventID: "evt_all_failed", Provider: "fake", AccountID: account,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_all"}}); err != nil {
		t.Fatal(err)
	}
	if f, err := db.OwedRefundOf(ctx, b.ID); err != nil || f.Owed.Amount != 847 {
		t.Fatalf("owed refund %+v (%v), want 8.47 owed (what its credit note credited)", f, err)
	}
	if after, err := db.UncreditedRefunds(ctx); err != nil || after != before-1 {
		t.Fatalf("%d refunds paid out with no credit note after the failure (%v), want %d: the failed one paid nothing out", after, err, before-1)
	}
}
