package store_test

import (
	"context"
	"testing"

	"kudos/internal/testenv"
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
	account, invoice, second := returnedAfterAPartialRefund(t, db, true)
	var failedID string
	if err := db.Pool.QueryRow(ctx, `SELECT id FROM refunds WHERE account_id = $1 AND provider_id = 're_part'`, account).Scan(&failedID); err != nil {
		t.Fatal(err)
	}
	early := providerRefund(t, db, account, second, "re_b_part", 363)
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
	if repays == nil || *repays != failedID || credited != 363 {
		t.Fatalf("B's refund booked before B paid repays %v and the credit notes credit %d; want it to repay %s and 363 credited (one credit note)",
			repays, credited, failedID)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("%d failed refunds owed (%v), want 0: B's refund paid it back", n, err)
	}
}
