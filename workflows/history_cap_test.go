package workflows_test

import (
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// TestARunContinuesAsNewAtTheHistoryCap (issue 39 item 3): a run whose
// history reaches workflows.HistoryCap events continues as new at its next
// turn even though the server has not suggested it (a server configured
// with a late suggestion, or none), its state handed on whole.
func TestARunContinuesAsNewAtTheHistoryCap(t *testing.T) {
	e := newSubEnv(t)
	st := paidState(kudos.PlanPro, 200*day)
	e.at(time.Hour, func() {
		e.SetCurrentHistoryLength(workflows.HistoryCap)
		e.sendEvent("ev-unknown", "co_unknown", kudos.PaymentFailed) // a turn of the loop
	})
	e.at(2*time.Hour, func() {
		t.Errorf("the run at %d events still runs", workflows.HistoryCap)
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if next.Plan != kudos.PlanPro || next.RenewalAt == nil || !next.RenewalAt.Equal(*st.RenewalAt) {
		t.Fatalf("the next run's state %+v, want the Pro plan renewing on %v", next, st.RenewalAt)
	}
}
