package dispatch

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// ReconcileStore is the part of the store the reconciliation uses.
type ReconcileStore interface {
	SubscriptionStatuses(ctx context.Context) ([]store.SubscriptionStatus, error)
	Enqueue(ctx context.Context, entries ...store.OutboxEntry) error
}

// Reconciler compares the read model with the running subscription
// workflows (the reconcile activity calls it on the Schedule's beat).
type Reconciler struct {
	Temporal client.Client
	DB       ReconcileStore
	Log      *slog.Logger
	// Kick, when set, has the relay deliver the starts at once.
	Kick func()
}

// needsWorkflow reports whether a subscription in status s has timers or a
// checkout that only a running workflow serves (an expired trial or plan
// waits for the customer, whose update starts it).
func needsWorkflow(s kudos.ShowStatus) bool {
	return s == kudos.StatusActive || s == kudos.StatusProcessing
}

// Reconcile starts, through the outbox, the workflow of every account that
// needs one and has none running, and reports the rows whose running
// workflow shows another plan or status (visibility lags a few seconds, so
// a report right after a change is expected now and then).
func (r *Reconciler) Reconcile(ctx context.Context) (workflows.ReconcileReport, error) {
	running, err := r.running(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	rows, err := r.DB.SubscriptionStatuses(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	var rep workflows.ReconcileReport
	var starts []store.OutboxEntry
	now := time.Now()
	for _, row := range rows {
		wf, ok := running[workflows.SubscriptionWorkflowID(row.AccountID)]
		switch {
		case ok && (wf.plan != string(row.Plan) || wf.status != string(row.ShowStatus)):
			rep.Disagree = append(rep.Disagree, row.AccountID.String())
			r.Log.Warn("reconcile: read model and workflow disagree", "account", row.AccountID,
				"row_plan", row.Plan, "row_status", row.ShowStatus, "workflow_plan", wf.plan, "workflow_status", wf.status)
		case !ok && needsWorkflow(row.ShowStatus):
			rep.Started = append(rep.Started, row.AccountID.String())
			starts = append(starts, ReconcileStart(row.AccountID, now))
			r.Log.Warn("reconcile: subscription workflow missing, starting it from the read model", "account", row.AccountID)
		}
		if needsWorkflow(row.ShowStatus) {
			rep.Checked++
		}
	}
	if len(starts) > 0 {
		if err := r.DB.Enqueue(ctx, starts...); err != nil {
			return workflows.ReconcileReport{}, err
		}
		if r.Kick != nil {
			r.Kick()
		}
	}
	return rep, nil
}

// runningWorkflow is what visibility shows of a running subscription
// workflow.
type runningWorkflow struct{ plan, status string }

// running lists the running subscription workflows by ID.
func (r *Reconciler) running(ctx context.Context) (map[string]runningWorkflow, error) {
	out := map[string]runningWorkflow{}
	var token []byte
	for {
		res, err := r.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query:    fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", "Subscription"),
			PageSize: 1000, NextPageToken: token,
		})
		if err != nil {
			return nil, fmt.Errorf("reconcile: list running workflows: %w", err)
		}
		for _, ex := range res.GetExecutions() {
			var wf runningWorkflow
			fields := ex.GetSearchAttributes().GetIndexedFields()
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchPlan], &wf.plan)
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchSubscriptionStatus], &wf.status)
			out[ex.GetExecution().GetWorkflowId()] = wf
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return out, nil
		}
	}
}
