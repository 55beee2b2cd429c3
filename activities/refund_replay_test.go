package activities_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"kudos"
	"kudos/workflows"
)

// TestARefundThatFailedIsNotMadeAgainByAReplay: a refund made, then failed
// at the provider (its money owed to the customer, for an operator: `kudos
// ops refund`), is not asked of the provider again when its activity runs
// again (a replay, a reset): the provider's key changes with time, so a
// second refund would be a new one there, paid out while the ledger books
// one. The row stays failed, for the operator.
func TestARefundThatFailedIsNotMadeAgainByAReplay(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	late := e.open("co_refund_failed", kudos.CheckoutSubscription, kudos.PlanStarter, uuid.New())
	if _, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false)); err != nil {
		t.Fatal(err)
	}
	refundID := "refund:" + late.CheckoutID
	if _, err := e.db.RecordRefundFailure(ctx, e.account, kudos.PaymentEvent{EventID: "evt_refund_failed", Provider: "fake",
		AccountID: e.account, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, RefundID: refundID,
			ProviderRefundID: "re_" + refundID, Reason: "expired_or_canceled_card"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false)); err != nil {
		t.Fatalf("the refund's activity run again: %v", err)
	}
	if len(e.pay.refunds) != 1 {
		t.Fatalf("refunds asked of the provider %v, want the first only", e.pay.refunds)
	}
	if n := e.count("refunds", "id = '"+refundID+"' AND status = 'failed'"); n != 1 {
		t.Fatalf("%d failed refund rows, want the one left to an operator", n)
	}
}
