// Package ops is what `kudos ops` shows an operator: one account's read
// model rows, its workflows (state, pending activities with their attempts
// and last failure), its undelivered and dead-lettered outbox entries, its
// recent payment events and its billing timeline, in one report
// (docs/runbook-payments.md explains what to do with it).
package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// Store is the part of the store the report reads (*store.DB).
type Store interface {
	AccountIDsByEmail(ctx context.Context, email string) ([]uuid.UUID, error)
	OpsAccount(ctx context.Context, accountID uuid.UUID) (*store.OpsAccount, error)
}

// TimelineEntry is one event of an account's billing timeline.
type TimelineEntry struct {
	At        time.Time  `json:"at"`
	Type      string     `json:"type"`
	Plan      string     `json:"plan,omitempty"`
	Amount    *int64     `json:"amount,omitempty"`
	Currency  string     `json:"currency,omitempty"`
	InvoiceID *uuid.UUID `json:"invoice_id,omitempty"`
	// Member, Role and Actor are a membership event's: whom it concerns,
	// the role, who acted.
	Member string `json:"member,omitempty"`
	Role   string `json:"role,omitempty"`
	Actor  string `json:"actor,omitempty"`
}

// TimelineHook reads the newest limit events of an account's billing
// timeline (the billing_events table). The wiring sets it once the store
// has that table; while it is nil the report says the timeline is not
// available.
type TimelineHook func(ctx context.Context, accountID uuid.UUID, limit int) ([]TimelineEntry, error)

// Inspector builds reports from the read model and Temporal.
type Inspector struct {
	Store    Store
	Temporal client.Client
	Timeline TimelineHook
	// Wait bounds each call to Temporal (a query needs a worker to answer).
	Wait time.Duration
}

// Report is everything about one account.
type Report struct {
	Account *store.OpsAccount `json:"account"`
	// Subscription is the account's subscription workflow (nil: none ran).
	Subscription *Workflow `json:"subscription_workflow"`
	// Workflows are every workflow carrying the account's AccountId
	// (subscription runs, mails, logos), newest first.
	Workflows []*Workflow `json:"workflows"`
	// State is the subscription workflow's state, as its query answers.
	State    *kudos.SubscriptionState `json:"subscription_state"`
	Timeline []TimelineEntry          `json:"timeline"`
	// Unavailable names the parts that could not be read (Temporal away, no
	// worker to answer the query, no timeline yet): the rest still shows.
	Unavailable []string `json:"unavailable"`
}

// Workflow is one workflow execution of the account.
type Workflow struct {
	ID        string     `json:"id"`
	RunID     string     `json:"run_id"`
	Type      string     `json:"type"`
	Status    string     `json:"status"`
	TaskQueue string     `json:"task_queue"`
	Start     time.Time  `json:"start"`
	Close     *time.Time `json:"close,omitempty"`
	// PaymentState and PaymentStateSince are the search attributes of a
	// subscription workflow.
	PaymentState      string     `json:"payment_state,omitempty"`
	PaymentStateSince *time.Time `json:"payment_state_since,omitempty"`
	// DisputeOpen is the DisputeOpen search attribute (nil: never set:
	// the account never had a dispute open in this run).
	DisputeOpen *bool `json:"dispute_open,omitempty"`
	// WorkflowTaskAttempt above 1 is a workflow task failing over and over.
	WorkflowTaskAttempt int32             `json:"workflow_task_attempt,omitempty"`
	PendingActivities   []PendingActivity `json:"pending_activities,omitempty"`
}

// PendingActivity is an activity a running workflow waits for.
type PendingActivity struct {
	Type        string     `json:"type"`
	State       string     `json:"state"`
	Attempt     int32      `json:"attempt"`
	LastFailure string     `json:"last_failure,omitempty"`
	LastAttempt *time.Time `json:"last_attempt_completed,omitempty"`
	NextAttempt *time.Time `json:"next_attempt,omitempty"`
}

// maxWorkflows bounds the workflows listed (and described) per account.
const maxWorkflows = 20

// Resolve turns an account id or a user's e-mail into account ids (a user
// may belong to several accounts, owned first). Unknown: kudos.NotFound.
func (in *Inspector) Resolve(ctx context.Context, idOrEmail string) ([]uuid.UUID, error) {
	idOrEmail = strings.TrimSpace(idOrEmail)
	if id, err := uuid.Parse(idOrEmail); err == nil {
		return []uuid.UUID{id}, nil
	}
	if !strings.Contains(idOrEmail, "@") {
		return nil, kudos.Errorf(kudos.EInvalid, "%q is neither an account id (uuid) nor an e-mail address", idOrEmail)
	}
	ids, err := in.Store.AccountIDsByEmail(ctx, idOrEmail)
	if err == nil && len(ids) == 0 {
		err = kudos.Errorf(kudos.ENotFound, "no user with the e-mail %s", idOrEmail)
	}
	return ids, err
}

// Account is the report of one account: kudos.NotFound when the read model
// has no such account. Temporal being away fails nothing: the report notes
// what it could not read.
func (in *Inspector) Account(ctx context.Context, accountID uuid.UUID) (*Report, error) {
	acc, err := in.Store.OpsAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	r := &Report{Account: acc, Workflows: []*Workflow{}, Timeline: []TimelineEntry{}, Unavailable: []string{}}
	in.workflows(ctx, r)
	in.timeline(ctx, r)
	return r, nil
}

func (in *Inspector) wait() time.Duration {
	if in.Wait > 0 {
		return in.Wait
	}
	return 5 * time.Second
}

// workflows fills the account's workflows, the subscription workflow's
// description and its state.
func (in *Inspector) workflows(ctx context.Context, r *Report) {
	id := r.Account.ID
	wctx, cancel := context.WithTimeout(ctx, in.wait())
	defer cancel()
	list, err := in.Temporal.ListWorkflow(wctx, &workflowservice.ListWorkflowExecutionsRequest{PageSize: maxWorkflows,
		Query: fmt.Sprintf("%s = %q", workflows.SearchAccountID, id.String())})
	if err != nil {
		r.Unavailable = append(r.Unavailable, "workflows: "+err.Error())
		return
	}
	for _, ex := range list.Executions {
		w := &Workflow{ID: ex.Execution.WorkflowId, RunID: ex.Execution.RunId, Type: ex.Type.GetName(),
			Status: statusName(ex.Status.String()), TaskQueue: ex.TaskQueue, Start: ex.StartTime.AsTime()}
		if ex.CloseTime != nil {
			t := ex.CloseTime.AsTime()
			w.Close = &t
		}
		if w.Status == "Running" {
			in.describe(wctx, w, r)
		}
		r.Workflows = append(r.Workflows, w)
		if w.ID == workflows.SubscriptionWorkflowID(id) && r.Subscription == nil && w.Status == "Running" {
			r.Subscription = w
		}
	}
	if r.Subscription == nil {
		// Not listed yet (visibility lags a start) or not running.
		w := &Workflow{ID: workflows.SubscriptionWorkflowID(id)}
		if in.describe(wctx, w, r) {
			r.Subscription = w
		}
	}
	if r.Subscription == nil || r.Subscription.Status != "Running" {
		r.Unavailable = append(r.Unavailable, "subscription state: no subscription workflow runs "+
			"(the next update or payment event starts it from the read model, and so does the reconcile schedule)")
		return
	}
	v, err := in.Temporal.QueryWorkflow(wctx, r.Subscription.ID, "", workflows.QuerySubscription)
	if err == nil {
		var st kudos.SubscriptionState
		if err = v.Get(&st); err == nil {
			r.State = &st
		}
	}
	if err != nil {
		r.Unavailable = append(r.Unavailable, "subscription state (query; needs a running worker): "+err.Error())
	}
}

// describe fills w from DescribeWorkflowExecution: its run, pending
// activities and workflow task. False when there is no such workflow.
func (in *Inspector) describe(ctx context.Context, w *Workflow, r *Report) bool {
	d, err := in.Temporal.DescribeWorkflowExecution(ctx, w.ID, w.RunID)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return false
	}
	if err != nil {
		r.Unavailable = append(r.Unavailable, "describe "+w.ID+": "+err.Error())
		return false
	}
	info := d.WorkflowExecutionInfo
	w.RunID, w.Type, w.Status = info.Execution.RunId, info.Type.GetName(), statusName(info.Status.String())
	w.TaskQueue, w.Start = info.TaskQueue, info.StartTime.AsTime()
	if info.CloseTime != nil {
		t := info.CloseTime.AsTime()
		w.Close = &t
	}
	fields := info.GetSearchAttributes().GetIndexedFields()
	if p := fields[workflows.SearchPaymentState]; p != nil {
		w.PaymentState = strings.Trim(string(p.Data), `"`)
	}
	if p := fields[workflows.SearchDisputeOpen]; p != nil {
		open := string(p.Data) == "true"
		w.DisputeOpen = &open
	}
	if p := fields[workflows.SearchPaymentStateSince]; p != nil {
		if t, err := time.Parse(time.RFC3339Nano, strings.Trim(string(p.Data), `"`)); err == nil {
			w.PaymentStateSince = &t
		}
	}
	if wt := d.PendingWorkflowTask; wt != nil {
		w.WorkflowTaskAttempt = wt.Attempt
	}
	w.PendingActivities = nil
	for _, a := range d.PendingActivities {
		pa := PendingActivity{Type: a.ActivityType.GetName(), State: statusName(a.State.String()), Attempt: a.Attempt}
		if f := a.LastFailure; f != nil {
			pa.LastFailure = f.Message
		}
		if a.LastAttemptCompleteTime != nil {
			t := a.LastAttemptCompleteTime.AsTime()
			pa.LastAttempt = &t
		}
		if a.NextAttemptScheduleTime != nil {
			t := a.NextAttemptScheduleTime.AsTime()
			pa.NextAttempt = &t
		}
		w.PendingActivities = append(w.PendingActivities, pa)
	}
	return true
}

// timelineRows is how many timeline events the report shows.
const timelineRows = 20

func (in *Inspector) timeline(ctx context.Context, r *Report) {
	if in.Timeline == nil {
		r.Unavailable = append(r.Unavailable, "billing timeline: this build's store has no billing_events table yet")
		return
	}
	events, err := in.Timeline(ctx, r.Account.ID, timelineRows)
	if err != nil {
		r.Unavailable = append(r.Unavailable, "billing timeline: "+err.Error())
		return
	}
	r.Timeline = append(r.Timeline, events...)
}

// statusName is Temporal's name of an enum value in the Web UI's form
// (WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW → ContinuedAsNew); the API's
// String already gives that form in recent versions.
func statusName(enum string) string {
	if !strings.Contains(enum, "_") && strings.ToUpper(enum) != enum {
		return enum
	}
	for _, prefix := range []string{"WORKFLOW_EXECUTION_STATUS_", "PENDING_ACTIVITY_STATE_"} {
		enum = strings.TrimPrefix(enum, prefix)
	}
	var b strings.Builder
	for _, word := range strings.Split(strings.ToLower(enum), "_") {
		if word != "" {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	return b.String()
}
