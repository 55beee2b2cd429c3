package store_test

import (
	"context"
	"testing"

	"kudos"
	"kudos/internal/testenv"
)

// TestDashboardRefundOfARefusedRefundBooksThatRefund (issue 36): the
// provider refused Kudos's refund of a checkout; an operator refunds it in
// the provider's dashboard, whose event books it as that refund (refunded,
// its provider id recorded), not as a second one: `ops refund-made`
// then finds nothing refused, and the credit note is one.
func TestDashboardRefundOfARefusedRefundBooksThatRefund(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, _ := paidByCheckout(t, db)
	amount := kudos.Money{Amount: 1210, Currency: "EUR"}
	if err := db.RecordRefusedRefund(ctx, account, "refund:co_1", "co_1", "charge_disputed", amount); err != nil {
		t.Fatal(err)
	}
	ev := kudos.PaymentEvent{EventID: "evt_1", Provider: "fake", AccountID: account, CheckoutID: "co_1", Outcome: kudos.PaymentPaid,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, ProviderRefundID: "re_by_hand", Amount: &amount}}
	for range 2 { // charge.refunded, then refund.updated
		b, err := db.BookRefund(ctx, account, ev)
		if err != nil || b.ID != "refund:co_1" || b.CreditNoteNumber == "" {
			t.Fatalf("booked %+v (%v), want the refused refund", b, err)
		}
		ev.EventID = "evt_2"
	}
	if status, err := db.RefundStatus(ctx, "refund:co_1"); err != nil || status != "refunded" {
		t.Fatalf("the refused refund: %q (%v), want refunded", status, err)
	}
	if err := db.MarkRefundMade(ctx, "refund:co_1", "re_by_hand"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("ops refund-made after the dashboard's event: %v, want nothing refused left", err)
	}
	var refunds, notes int
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM refunds WHERE account_id = $1),
		(SELECT count(*) FROM invoices WHERE account_id = $1 AND kind = 'CREDIT_NOTE')`, account).Scan(&refunds, &notes); err != nil {
		t.Fatal(err)
	}
	if refunds != 1 || notes != 1 {
		t.Fatalf("%d refunds, %d credit notes; want 1 of each", refunds, notes)
	}
}
