package worker_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"kudos/activities"
	"kudos/internal/testenv"
	"kudos/worker"
	"kudos/workflows"
)

type countingReconciler struct{ runs atomic.Int32 }

func (c *countingReconciler) Reconcile(context.Context) (workflows.ReconcileReport, error) {
	c.runs.Add(1)
	return workflows.ReconcileReport{Checked: 1}, nil
}

// Housekeep counts the sweeps (each starts with it).
func (c *countingReconciler) Housekeep(context.Context, time.Time) (workflows.ReconcileReport, error) {
	c.runs.Add(1)
	return workflows.ReconcileReport{}, nil
}

func (c *countingReconciler) Walk(_ context.Context, p workflows.ReconcileProgress, _ func(workflows.ReconcileProgress)) (
	workflows.ReconcileProgress, error) {
	p.Report.Checked, p.Done = 1, true
	return p, nil
}

// TestReconcileScheduleRuns: the worker's Schedule runs the reconciliation
// on its beat, and a changed interval updates the existing Schedule.
func TestReconcileScheduleRuns(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx := context.Background()
	queue := "test-" + uuid.NewString()
	rec := &countingReconciler{}
	w := worker.New(tc, queue, &activities.Activities{Reconciler: rec})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := worker.EnsureReconcileSchedule(ctx, tc, queue, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	handle := tc.ScheduleClient().GetHandle(ctx, workflows.ReconcileScheduleID(queue))
	t.Cleanup(func() { _ = handle.Delete(context.Background()) })
	deadline := time.Now().Add(30 * time.Second)
	for rec.runs.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d reconciliations in 30 s with a 2 s interval", rec.runs.Load())
		}
		time.Sleep(200 * time.Millisecond)
	}
	res, err := tc.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowType = 'Reconcile' AND TaskQueue = '%s' AND ExecutionStatus = 'Completed'", queue)})
	if err == nil && len(res.Executions) > 0 {
		ex := res.Executions[0].Execution
		testenv.RecordHistory(t, tc, ex.WorkflowId, ex.RunId, "reconcile.json")
	}
	if err := worker.EnsureReconcileSchedule(ctx, tc, queue, time.Hour); err != nil {
		t.Fatal(err)
	}
	d, err := handle.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if iv := d.Schedule.Spec.Intervals; len(iv) != 1 || iv[0].Every != time.Hour {
		t.Fatalf("intervals after the update: %+v", iv)
	}
}

type countingProviderReconciler struct{ runs atomic.Int32 }

func (c *countingProviderReconciler) Reconcile(_ context.Context, progress func(string, int)) (workflows.ProviderReconcileReport, error) {
	c.runs.Add(1)
	progress("events", 0)
	return workflows.ProviderReconcileReport{Provider: "sandbox"}, nil
}

// TestProviderReconcileScheduleRuns: the worker's provider reconciliation
// Schedule runs the workflow on its beat, never two at once (overlap
// policy skip), and a changed interval updates the existing Schedule.
func TestProviderReconcileScheduleRuns(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx := context.Background()
	queue := "test-" + uuid.NewString()
	rec := &countingProviderReconciler{}
	w := worker.New(tc, queue, &activities.Activities{ProviderReconciler: rec})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := worker.EnsureProviderReconcileSchedule(ctx, tc, queue, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	handle := tc.ScheduleClient().GetHandle(ctx, workflows.ProviderReconcileScheduleID(queue))
	t.Cleanup(func() { _ = handle.Delete(context.Background()) })
	deadline := time.Now().Add(30 * time.Second)
	for rec.runs.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d provider reconciliations in 30 s with a 2 s interval", rec.runs.Load())
		}
		time.Sleep(200 * time.Millisecond)
	}
	d, err := handle.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP {
		t.Fatalf("overlap policy %v, want skip", d.Schedule.Policy.Overlap)
	}
	if err := worker.EnsureProviderReconcileSchedule(ctx, tc, queue, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if d, err = handle.Describe(ctx); err != nil {
		t.Fatal(err)
	}
	if iv := d.Schedule.Spec.Intervals; len(iv) != 1 || iv[0].Every != 24*time.Hour {
		t.Fatalf("intervals after the update: %+v", iv)
	}
}
