package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"kudos/workflows"
)

// EnsureReconcileSchedule makes sure the Temporal Schedule that runs
// workflows.Reconcile every interval on taskQueue exists, and sets its
// interval when it exists with another (KUDOS_RECONCILE_INTERVAL changed).
// Runs that would overlap are skipped: a sweep (a chain of runs continued
// as new, page after page) never runs beside another; a Schedule created
// before the paged sweep (issue 39) starts Reconcile with no input, which
// it reads as a sweep from the first account.
func EnsureReconcileSchedule(ctx context.Context, c client.Client, taskQueue string, interval time.Duration) error {
	return ensureSchedule(ctx, c, workflows.ReconcileScheduleID(taskQueue), interval, &client.ScheduleWorkflowAction{
		ID: "reconcile:" + taskQueue, Workflow: workflows.Reconcile, Args: []any{workflows.ReconcileProgress{}}, TaskQueue: taskQueue,
		WorkflowRunTimeout: time.Hour,
	}, "Kudos: restart missing subscription workflows from the read model (KUDOS_RECONCILE_INTERVAL)")
}

// EnsureProviderReconcileSchedule makes sure the Temporal Schedule that
// runs workflows.ReconcileProvider every interval (a day by default:
// KUDOS_PROVIDER_RECONCILE_INTERVAL) on taskQueue exists, as
// EnsureReconcileSchedule does. A run still working when the next is due
// makes it skipped: two never overlap.
func EnsureProviderReconcileSchedule(ctx context.Context, c client.Client, taskQueue string, interval time.Duration) error {
	return ensureSchedule(ctx, c, workflows.ProviderReconcileScheduleID(taskQueue), interval, &client.ScheduleWorkflowAction{
		ID: "reconcile-provider:" + taskQueue, Workflow: workflows.ReconcileProvider, TaskQueue: taskQueue,
		WorkflowRunTimeout: 12 * time.Hour,
	}, "Kudos: compare the ledger with the payment provider's lists, record the events never delivered (KUDOS_PROVIDER_RECONCILE_INTERVAL)")
}

// ensureSchedule creates Schedule id running action every interval, with
// overlapping runs skipped, or sets the interval of the existing one.
func ensureSchedule(ctx context.Context, c client.Client, id string, interval time.Duration, action *client.ScheduleWorkflowAction, note string) error {
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: interval}}}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:      id,
		Spec:    spec,
		Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		Action:  action,
		Note:    note,
	})
	if err == nil {
		return nil
	}
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return fmt.Errorf("create schedule %s: %w", id, err)
	}
	err = c.ScheduleClient().GetHandle(ctx, id).Update(ctx, client.ScheduleUpdateOptions{
		DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
			s := in.Description.Schedule
			if s.Spec != nil && len(s.Spec.Intervals) == 1 && s.Spec.Intervals[0].Every == interval {
				return nil, temporal.ErrSkipScheduleUpdate
			}
			s.Spec = &spec
			return &client.ScheduleUpdate{Schedule: &s}, nil
		},
	})
	if err != nil {
		return fmt.Errorf("update schedule %s: %w", id, err)
	}
	return nil
}
