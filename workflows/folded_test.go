package workflows_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"

	"kudos"
	"kudos/workflows"
)

// activityKinds records which activities a run started as activities
// (a round trip through the server each) and which as local activities
// (in the workflow task).
type activityKinds struct {
	mu             sync.Mutex
	regular, local []string
}

func (e *subEnv) trackActivityKinds() *activityKinds {
	k := &activityKinds{}
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		k.mu.Lock()
		defer k.mu.Unlock()
		k.regular = append(k.regular, info.ActivityType.Name)
	})
	e.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		k.mu.Lock()
		defer k.mu.Unlock()
		k.local = append(k.local, info.ActivityType.Name)
	})
	return k
}

// wantLocal fails t unless name ran, and only as a local activity.
func (k *activityKinds) wantLocal(t *testing.T, name string) {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if slices.Contains(k.regular, name) || !slices.Contains(k.local, name) {
		t.Errorf("%s: activities %v, local activities %v; want it local only", name, k.regular, k.local)
	}
}

// TestLedgerBookingsRunInTheWorkflowTask (issue 39, round 3): a refund's
// and a dispute's bookings are local activities in new runs, booked once
// as before.
func TestLedgerBookingsRunInTheWorkflowTask(t *testing.T) {
	book = ledgerBook{}
	e := newSubEnv(t)
	kinds := e.trackActivityKinds()
	e.at(time.Hour, func() {
		e.sendMovement(refundEvent())
		e.sendLedgerEvent(disputeEvent("evt_open", "dp_1", kudos.DisputeOpen))
	})
	e.at(2*time.Hour, func() { e.CancelWorkflow() })
	e.ExecuteWorkflow(workflows.Subscription, paidForDisputes())
	if len(e.acts.booked) != 1 || !slices.Equal(book.booked, []string{"open:dp_1"}) {
		t.Fatalf("booked refunds %+v, disputes %v: want each once", e.acts.booked, book.booked)
	}
	kinds.wantLocal(t, workflows.ActivityBookRefund)
	kinds.wantLocal(t, workflows.ActivityRecordDispute)
}
