package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos/workflows"
)

// errNoReconciler is the refusal of the reconcile activities on a worker
// configured without a reconciler.
func errNoReconciler() error {
	return temporal.NewNonRetryableApplicationError("no reconciler configured", "NoReconciler", nil)
}

// ReconcileHousekeeping is the bounded work a sweep does once, at its
// start: purges, unapplied payment events, abandoned checkouts, deferred
// refunds (dispatch.Reconciler.Housekeep).
func (a *Activities) ReconcileHousekeeping(ctx context.Context, since time.Time) (workflows.ReconcileReport, error) {
	if a.Reconciler == nil {
		return workflows.ReconcileReport{}, errNoReconciler()
	}
	return a.Reconciler.Housekeep(ctx, since)
}

// ReconcileAccounts walks a bounded number of pages of accounts from
// in.After (dispatch.Reconciler.Walk), heartbeating the progress after
// every page. An attempt after a lost one (its worker killed, its
// heartbeat timed out) resumes from the last progress heartbeated, not
// from in: the pages already walked are not read again.
func (a *Activities) ReconcileAccounts(ctx context.Context, in workflows.ReconcileProgress) (workflows.ReconcileProgress, error) {
	if a.Reconciler == nil {
		return in, errNoReconciler()
	}
	if activity.HasHeartbeatDetails(ctx) {
		var last workflows.ReconcileProgress
		if err := activity.GetHeartbeatDetails(ctx, &last); err == nil && last.Pages >= in.Pages {
			activity.GetLogger(ctx).Info("reconcile: resuming the sweep where the last attempt was", "after", last.After, "pages", last.Pages)
			in = last
		}
	}
	return a.Reconciler.Walk(ctx, in, func(p workflows.ReconcileProgress) { activity.RecordHeartbeat(ctx, p) })
}
