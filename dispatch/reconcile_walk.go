package dispatch

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"kudos/store"
	"kudos/workflows"
)

// ReconcilePageSize is how many accounts one page of the sweep reads (one
// keyset query, one visibility query); ReconcilePagesPerRun how many pages
// one run of the Reconcile workflow walks before it continues as new.
const (
	ReconcilePageSize    = 500
	ReconcilePagesPerRun = 20
)

// Walk walks the pages of accounts after p.After, at most PagesPerRun of
// them (ReconcilePagesPerRun when 0), and returns the progress made (Done
// after the last page). For each account of a page it starts, through the
// outbox, the workflow of an account that needs one and has none running,
// and reports the rows whose running workflow shows another plan or status
// (visibility lags a few seconds, so a report right after a change is
// expected now and then). heartbeat, when set, is told the progress after
// every page: the activity records it, and its next attempt resumes there.
// Memory and time per call are bounded by the page size, whatever the
// number of accounts.
func (r *Reconciler) Walk(ctx context.Context, p workflows.ReconcileProgress, heartbeat func(workflows.ReconcileProgress)) (
	workflows.ReconcileProgress, error) {
	size, pages := r.PageSize, r.PagesPerRun
	if size <= 0 {
		size = ReconcilePageSize
	}
	if pages <= 0 {
		pages = ReconcilePagesPerRun
	}
	after := uuid.Nil
	if p.After != "" {
		var err error
		if after, err = uuid.Parse(p.After); err != nil {
			return p, fmt.Errorf("reconcile: resume after %q: %w", p.After, err)
		}
	}
	for range pages {
		rows, err := r.DB.SubscriptionStatusPage(ctx, after, size)
		if err != nil {
			return p, err
		}
		if len(rows) == 0 {
			return r.finished(ctx, p)
		}
		rep, err := r.page(ctx, rows, p)
		if err != nil {
			return p, err
		}
		after = rows[len(rows)-1].AccountID
		p.After, p.Pages = after.String(), p.Pages+1
		p.Report.Merge(rep)
		if heartbeat != nil {
			heartbeat(p)
		}
		if len(rows) < size {
			return r.finished(ctx, p)
		}
	}
	return p, nil
}

// finished marks sweep p done, having walked its last page, and records
// when (store.SweepSubscriptions): the gauge of the sweep's age reads it.
func (r *Reconciler) finished(ctx context.Context, p workflows.ReconcileProgress) (workflows.ReconcileProgress, error) {
	p.Done = true
	return p, r.DB.FinishSweep(ctx, store.SweepSubscriptions, time.Now())
}

// page reconciles one page of accounts (in account order) with their
// running workflows, asked of visibility by the page's range of workflow
// IDs: a bounded query, paged too.
func (r *Reconciler) page(ctx context.Context, rows []store.SubscriptionStatus, p workflows.ReconcileProgress) (
	workflows.ReconcileReport, error) {
	running := map[string]runningWorkflow{}
	filter := fmt.Sprintf("WorkflowId BETWEEN '%s' AND '%s'", workflows.SubscriptionWorkflowID(rows[0].AccountID),
		workflows.SubscriptionWorkflowID(rows[len(rows)-1].AccountID))
	if err := r.listRunning(ctx, filter, running); err != nil {
		return workflows.ReconcileReport{}, err
	}
	rep := workflows.ReconcileReport{Walked: len(rows)}
	var starts []store.OutboxEntry
	for _, row := range rows {
		id := row.AccountID.String()
		wf, ok := running[workflows.SubscriptionWorkflowID(row.AccountID)]
		switch {
		case ok && (wf.plan != string(row.Plan) || wf.status != string(row.ShowStatus)):
			rep.Disagree = append(rep.Disagree, id)
			r.Log.Warn("reconcile: read model and workflow disagree", "account", row.AccountID,
				"row_plan", row.Plan, "row_status", row.ShowStatus, "workflow_plan", wf.plan, "workflow_status", wf.status)
		case !ok && needsWorkflow(row.ShowStatus) && !slices.Contains(p.Report.Started, id):
			rep.Started = append(rep.Started, id)
			starts = append(starts, ReconcileStart(row.AccountID, p.Since))
			r.Log.Warn("reconcile: subscription workflow missing, starting it from the read model", "account", row.AccountID)
		}
		if needsWorkflow(row.ShowStatus) {
			rep.Checked++
		}
	}
	if len(starts) > 0 {
		if err := r.DB.Enqueue(ctx, starts...); err != nil {
			return rep, err
		}
		if r.Kick != nil {
			r.Kick()
		}
	}
	return rep, nil
}
