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
	// Walked counts the accounts the sweep read (every page).
	Walked int `json:",omitempty"`
	// Purged is how many expired rows (rate-limit buckets, Google sign-in
	// flows, sessions, mailed tokens) were deleted.
	Purged int64 `json:",omitempty"`
}

// ReconcileReportMax bounds each list of a ReconcileReport carried from
// page to page (the counts stay whole; the log names every account).
const ReconcileReportMax = 100

// Merge adds what another page or step found to r, each list kept within
// ReconcileReportMax.
func (r *ReconcileReport) Merge(o ReconcileReport) {
	r.Checked += o.Checked
	r.Walked += o.Walked
	r.Purged += o.Purged
	add := func(to *[]string, from []string) {
		for _, id := range from {
			if len(*to) >= ReconcileReportMax {
				return
			}
			*to = append(*to, id)
		}
	}
	add(&r.Started, o.Started)
	add(&r.Disagree, o.Disagree)
	add(&r.Redelivered, o.Redelivered)
	add(&r.Closed, o.Closed)
	add(&r.Refunded, o.Refunded)
}

// ReconcileProgress is where a paged sweep is (issue 39): the input of each
// run of Reconcile (handed on by continue-as-new) and of the
// ReconcileAccounts activity, which heartbeats it after every page so that
// an attempt on another worker resumes at the page the lost one reached.
type ReconcileProgress struct {
	// After is the last account walked ("": the sweep starts).
	After string `json:",omitempty"`
	// Since is when the sweep started: the key of its starts in the outbox
	// (an account started twice in one sweep is started once).
	Since time.Time
	// Pages counts the pages walked so far; Runs the runs before this one.
	Pages, Runs int
	// Done: the last page was walked.
	Done bool `json:",omitempty"`
	// Report is what the sweep found so far.
	Report ReconcileReport
}

// reconcileHeartbeat is how long an attempt of ReconcileAccounts may go
// without heartbeating before Temporal gives it to another worker: far
// longer than one page (one keyset query and one visibility query).
const reconcileHeartbeat = 30 * time.Second

// Reconcile compares the read model with the running subscription workflows
// (and purges expired rows on the way: dispatch.Reconciler):
// every account that should have one running and has none gets it started
// again from Postgres, and rows that disagree with their workflow are
// reported (log, the result shown in the Web UI). A Temporal Schedule runs
// it (overlap skipped: a sweep never runs beside itself); nothing waits for
// a customer to act.
//
// Since issue 39 the sweep is paged: the first run does the bounded
// housekeeping (purges, unapplied events, abandoned checkouts, deferred
// refunds), then each run walks a bounded number of keyset pages of
// accounts in one heartbeating activity and continues as new with its
// progress; the last run returns the whole sweep's report. Runs started
// before (no version marker) keep the one activity reading every account.
func Reconcile(ctx workflow.Context, in ReconcileProgress) (ReconcileReport, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    5 * time.Minute,
		ScheduleToCloseTimeout: 30 * time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 5 * time.Second, MaximumInterval: time.Minute},
	})
	if workflow.GetVersion(ctx, "reconcile-paged", workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		var rep ReconcileReport
		err := workflow.ExecuteActivity(ctx, ActivityReconcileSubscriptions).Get(ctx, &rep)
		if err == nil && (len(rep.Started) > 0 || len(rep.Disagree) > 0) {
			workflow.GetLogger(ctx).Warn("reconciliation", "checked", rep.Checked, "started", rep.Started, "disagree", rep.Disagree)
		}
		return rep, err
	}
	if in.Since.IsZero() {
		in.Since = workflow.Now(ctx)
		var rep ReconcileReport
		if err := workflow.ExecuteActivity(ctx, ActivityReconcileHousekeeping, in.Since).Get(ctx, &rep); err != nil {
			return in.Report, err
		}
		in.Report.Merge(rep)
	}
	walk := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Minute, HeartbeatTimeout: reconcileHeartbeat,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 5 * time.Second, MaximumInterval: time.Minute},
	})
	var next ReconcileProgress
	if err := workflow.ExecuteActivity(walk, ActivityReconcileAccounts, in).Get(ctx, &next); err != nil {
		return in.Report, err
	}
	if !next.Done {
		next.Runs++
		return next.Report, workflow.NewContinueAsNewError(ctx, Reconcile, next)
	}
	rep := next.Report
	workflow.GetLogger(ctx).Info("reconciliation swept", "pages", next.Pages, "runs", next.Runs+1, "walked", rep.Walked, "checked", rep.Checked)
	if len(rep.Started) > 0 || len(rep.Disagree) > 0 {
		workflow.GetLogger(ctx).Warn("reconciliation", "checked", rep.Checked, "started", rep.Started, "disagree", rep.Disagree)
	}
	return rep, nil
}
