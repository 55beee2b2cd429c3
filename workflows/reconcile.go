package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ReconcileScheduleID is the ID of the Temporal Schedule that runs Reconcile
// every KUDOS_RECONCILE_INTERVAL for the workers of taskQueue.
func ReconcileScheduleID(taskQueue string) string { return "reconcile-subscriptions:" + taskQueue }

// ReconcileReport is what one reconciliation found and did.
type ReconcileReport struct {
	// Checked accounts need a running subscription workflow (their
	// subscription is active or processing).
	Checked int
	// Started lists the accounts whose workflow was missing and is started
	// again from the read model (through the outbox).
	Started []string
	// Disagree lists the accounts whose running workflow shows another plan
	// or status than their read-model row (reported, not changed).
	Disagree []string
	// Redelivered lists the accounts with payment events a lost run never
	// applied: delivered again (or applied by the run started anew).
	Redelivered []string `json:",omitempty"`
	// Closed lists the abandoned payment-method checkouts closed.
	Closed []string `json:",omitempty"`
	// Refunded lists the checkouts whose deferred refund, of an account
	// without a running workflow, was made.
	Refunded []string `json:",omitempty"`
	// Purged is how many expired rows (rate-limit buckets, Google sign-in
	// flows, sessions, mailed tokens) were deleted.
	Purged int64 `json:",omitempty"`
}

// Reconcile compares the read model with the running subscription workflows
// (and purges expired rows on the way: dispatch.Reconciler):
// every account that should have one running and has none gets it started
// again from Postgres, and rows that disagree with their workflow are
// reported (log, the result shown in the Web UI). A Temporal Schedule runs
// it; nothing waits for a customer to act.
func Reconcile(ctx workflow.Context) (ReconcileReport, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    5 * time.Minute,
		ScheduleToCloseTimeout: 30 * time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 5 * time.Second, MaximumInterval: time.Minute},
	})
	var rep ReconcileReport
	err := workflow.ExecuteActivity(ctx, ActivityReconcileSubscriptions).Get(ctx, &rep)
	if err == nil && (len(rep.Started) > 0 || len(rep.Disagree) > 0) {
		workflow.GetLogger(ctx).Warn("reconciliation", "checked", rep.Checked, "started", rep.Started, "disagree", rep.Disagree)
	}
	return rep, err
}
