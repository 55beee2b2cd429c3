package workflows_test

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/workflows"
)

// TestUpdateAcceptedWhileDrainingIsKept: the renewal ends the run
// (continue-as-new) while a payment event is being handled; "auto-renewal
// off", accepted meanwhile, must reach the next run.
func TestUpdateAcceptedWhileDrainingIsKept(t *testing.T) {
	e := newSubEnv(t)
	inv := kudos.CheckoutRecord{ID: "co_old", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanStarter, Status: "paid"}
	e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_old": inv}
	var off *updateOutcome
	e.at(time.Hour-time.Second, func() {
		// A late event (an activity looks its checkout up) is handled
		// while the renewal ends the run, and the update arrives while
		// that activity runs.
		e.acts.onLoad = func() { off = e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: false}) }
	})
	e.at(time.Hour, func() { e.signalEvent("ev-late", "co_old", kudos.PaymentPaid) })
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
	var can *workflow.ContinueAsNewError
	if err := e.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	var next kudos.SubscriptionState
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if off == nil || !off.done || off.rejected != nil || off.failed != nil {
		t.Fatalf("the update: %+v", off)
	}
	if next.AutoRenew {
		t.Fatalf("auto-renewal off was accepted and lost: the next run renews (%+v)", next)
	}
}
