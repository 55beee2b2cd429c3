package workflows_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

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
	e.at(time.Hour, func() { e.sendEvent("ev-late", "co_old", kudos.PaymentPaid) })
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
	next := e.nextRun()
	if off == nil || !off.done || off.rejected != nil || off.failed != nil {
		t.Fatalf("the update: %+v", off)
	}
	if next.AutoRenew {
		t.Fatalf("auto-renewal off was accepted and lost: the next run renews (%+v)", next)
	}
}

// TestEventsBeyondTheInboxDuringDrain: more payment events arrive (as
// updates) than the inbox holds while the run is about to continue as new;
// every one is applied, in the order it came, before the run ends.
func TestEventsBeyondTheInboxDuringDrain(t *testing.T) {
	e := newSubEnv(t)
	inv := kudos.CheckoutRecord{ID: "co_old", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanStarter, Status: "paid"}
	e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_old": inv}
	want := []string{"ev-late"}
	e.at(time.Hour, func() {
		// The renewal is due now: the run drains these before it ends.
		e.sendEvent("ev-late", "co_old", kudos.PaymentPaid)
		for i := range 40 {
			id := fmt.Sprintf("ev-%02d", i)
			want = append(want, id)
			e.sendEvent(id, "co_unknown", kudos.PaymentFailed)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
	next := e.nextRun()
	if !slices.Equal(next.SeenEvents, want) {
		t.Fatalf("events applied %v, want %v", next.SeenEvents, want)
	}
}
