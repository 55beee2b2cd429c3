package workflows_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// scheduleOutcome holds the outcome of an update answering a scheduled
// change.
type scheduleOutcome struct {
	rejected, failed error
	result           workflows.ScheduledChange
	done             bool
}

// schedule sends an update that answers a workflows.ScheduledChange.
func (e *subEnv) schedule(name string, arg any) *scheduleOutcome {
	out := &scheduleOutcome{}
	var args []any
	if arg != nil {
		args = append(args, arg)
	}
	e.UpdateWorkflow(name, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { out.rejected, out.done = err, true },
		OnComplete: func(res any, err error) {
			out.failed, out.done = err, true
			if r, ok := res.(workflows.ScheduledChange); ok {
				out.result = r
			}
		},
	}, args...)
	return out
}

// A lower plan is scheduled for the renewal: nothing is charged or
// refunded now, the read model says what and when, the renewal reminder
// names it, and the renewal charges the lower plan and starts it.
func TestDowngradeIsScheduledAndTheRenewalChargesTheLowerPlan(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	st := paidState(kudos.PlanTeam, 40*day)
	var up, same, down *scheduleOutcome
	e.at(day, func() {
		up = e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanTeam})
		same = e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanTrial})
		down = e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanPro})
	})
	e.at(2*day, func() {
		if up.rejected == nil || same.rejected == nil {
			t.Errorf("a plan not below Team, the trial: %v, %v", up.rejected, same.rejected)
		}
		if down.rejected != nil || down.failed != nil || down.result.Plan != kudos.PlanPro || !down.result.At.Equal(*st.RenewalAt) {
			t.Errorf("downgrade to Pro: %+v", down)
		}
		w := e.acts.lastWrite()
		if w.ScheduledPlan == nil || *w.ScheduledPlan != kudos.PlanPro || w.ScheduledAt == nil || !w.ScheduledAt.Equal(*st.RenewalAt) ||
			w.Plan != kudos.PlanTeam {
			t.Errorf("read model %+v", w)
		}
		if len(e.acts.opened) != 0 || len(e.acts.refunds) != 0 {
			t.Errorf("a downgrade opened %d checkouts, refunded %d", len(e.acts.opened), len(e.acts.refunds))
		}
	})
	e.at(10*day+time.Minute, func() {
		if len(e.acts.mails) != 1 || e.acts.mails[0].Billing.NextPlan != kudos.PlanPro {
			t.Errorf("the renewal reminder: %+v", e.acts.mails)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanPro {
		t.Fatalf("renewals %+v, want Pro charged", e.acts.renewals)
	}
	if next.Plan != kudos.PlanPro || next.ScheduledPlan != "" {
		t.Fatalf("the next period: plan %s, scheduled %q", next.Plan, next.ScheduledPlan)
	}
	if w := e.acts.lastWrite(); w.Plan != kudos.PlanPro || w.ScheduledPlan != nil || w.ScheduledAt != nil {
		t.Fatalf("read model after the renewal %+v", w)
	}
}

// Cancelling the scheduled change keeps the plan: the renewal charges it.
func TestCancelledDowngradeRenewsThePlan(t *testing.T) {
	e := newSubEnv(t)
	st := paidState(kudos.PlanPro, 10*day)
	e.at(day, func() { e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanStarter}) })
	var cancel *scheduleOutcome
	e.at(2*day, func() { cancel = e.schedule(workflows.UpdateCancelScheduledChange, nil) })
	e.at(3*day, func() {
		if cancel.rejected != nil || cancel.failed != nil || cancel.result.Plan != "" {
			t.Errorf("cancel: %+v", cancel)
		}
		if w := e.acts.lastWrite(); w.ScheduledPlan != nil || w.ScheduledAt != nil {
			t.Errorf("read model %+v", w)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun()
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanPro {
		t.Fatalf("renewals %+v, want Pro", e.acts.renewals)
	}
}

// An upgrade paid while a downgrade is scheduled replaces it: the renewal
// charges the higher plan.
func TestUpgradeReplacesTheScheduledDowngrade(t *testing.T) {
	e := newSubEnv(t)
	st := paidState(kudos.PlanPro, 10*day)
	e.at(day, func() { e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanStarter}) })
	e.at(2*day, func() { e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam}) })
	e.at(2*day+time.Hour, func() { e.sendEvent("ev-up", e.openedID(0), kudos.PaymentPaid) })
	e.at(3*day, func() {
		if s := e.state(); s.Plan != kudos.PlanTeam || s.ScheduledPlan != "" {
			t.Errorf("after the upgrade: plan %s, scheduled %q", s.Plan, s.ScheduledPlan)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun()
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanTeam {
		t.Fatalf("renewals %+v, want Team", e.acts.renewals)
	}
}
