package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"

	"kudos/activities"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/worker"
	"kudos/workflows"
)

// TestLogoWorkHasItsOwnTaskQueue: a logo upload is started on the logo
// queue, which the main queue's worker never polls (image work cannot hold
// up billing), and the logo worker of the same process runs it.
func TestLogoWorkHasItsOwnTaskQueue(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	queue := "test-" + uuid.NewString()
	w := worker.New(tc, queue, &activities.Activities{})
	if err := w.Worker.Start(); err != nil { // the main queue only
		t.Fatal(err)
	}
	defer w.Worker.Stop()
	accountID := uuid.New()
	disp := &dispatch.Dispatcher{Temporal: tc, TaskQueue: queue}
	row, err := dispatch.RowOf(dispatch.LogoStart(accountID, "tmp/logos/"+accountID.String()+"/x.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := disp.Deliver(ctx, row); err != nil {
		t.Fatal(err)
	}
	id := workflows.LogoWorkflowID(accountID)
	t.Cleanup(func() { _ = tc.TerminateWorkflow(context.Background(), id, "", "test over") })
	d, err := tc.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.WorkflowExecutionInfo.TaskQueue; got != workflows.LogoTaskQueue(queue) {
		t.Fatalf("logo workflow on task queue %q, want %q", got, workflows.LogoTaskQueue(queue))
	}
	firstTaskDone := func() bool {
		it := tc.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ev.EventType == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				return true
			}
		}
		return false
	}
	time.Sleep(2 * time.Second)
	if firstTaskDone() {
		t.Fatal("the main queue's worker ran logo work")
	}
	if err := w.Logo.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Logo.Stop()
	for !firstTaskDone() {
		if ctx.Err() != nil {
			t.Fatal("the logo worker never ran the logo workflow")
		}
		time.Sleep(200 * time.Millisecond)
	}
}
