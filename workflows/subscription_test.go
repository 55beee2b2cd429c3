package workflows_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/workflows"
)

func TestTrialExpires(t *testing.T) {
	e := newSubEnv(t)
	e.at(13*24*time.Hour, func() {
		if s := e.state(); s.Status != kudos.StatusActive {
			t.Errorf("day 13: status %s", s.Status)
		}
	})
	e.at(15*24*time.Hour, func() {
		if s := e.state(); s.Status != kudos.StatusTrialExpired {
			t.Errorf("day 15: status %s", s.Status)
		}
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusTrialExpired || w.Plan != kudos.PlanTrial {
			t.Errorf("read model %+v", w)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}

func TestCheckoutPaidThenRenewsAndContinuesAsNew(t *testing.T) {
	e := newSubEnv(t)
	var first, second *updateOutcome
	e.at(time.Hour, func() {
		// Two clicks (two tabs, a retried request) at once: one checkout.
		first = e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
		second = e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
	})
	e.at(2*time.Hour, func() {
		if first.result.CheckoutHref == "" || first.result != second.result || len(e.acts.opened) != 1 {
			t.Errorf("two creates: %+v %+v, %d checkouts opened", first, second, len(e.acts.opened))
		}
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusProcessing {
			t.Errorf("while the checkout is open the read model shows %s", w.ShowStatus)
		}
		e.sendEvent("ev1", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(3*time.Hour, func() {
		s := e.state()
		wantRenewal := start.Add(2 * time.Hour).Add(period)
		if s.Plan != kudos.PlanPro || s.Status != kudos.StatusActive || !s.AutoRenew || s.RenewalAt == nil || !s.RenewalAt.Equal(wantRenewal) {
			t.Errorf("after payment: %+v", s)
		}
		if len(e.acts.closed) != 1 || e.acts.closed[0].Outcome != kudos.PaymentPaid {
			t.Errorf("closed %+v", e.acts.closed)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	// A year later the renewal is charged and the workflow continues as new.
	e.nextRun() // the run continued as new
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanPro {
		t.Fatalf("renewals %+v", e.acts.renewals)
	}
	if len(e.acts.pdfs) != 2 || e.acts.pdfs[1].InvoiceID != e.acts.renewals[0].InvoiceID {
		t.Fatalf("PDFs rendered for %+v, want the first invoice and the renewal's", e.acts.pdfs)
	}
	// A calendar year: 1 March 2027 renews on 1 March 2028, not on the
	// 29 February that 8760 h after it falls on (a leap year).
	if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusActive || !w.PlanRenewalAt.Equal(time.Date(2028, 3, 1, 14, 0, 0, 0, time.UTC)) {
		t.Fatalf("after renewal %+v", w)
	}
}

func TestCheckoutFailedThenExpired(t *testing.T) {
	e := newSubEnv(t)
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-fail", e.openedID(0), kudos.PaymentFailed) })
	e.at(3*time.Hour, func() {
		if s := e.state(); s.Checkout != nil || s.Plan != kudos.PlanTrial || s.Status != kudos.StatusActive {
			t.Errorf("after a failed payment: %+v", s)
		}
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusActive {
			t.Errorf("read model still %s", w.ShowStatus)
		}
		e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter})
	})
	// Nobody pays the second checkout: it expires after 24 h.
	e.at(28*time.Hour, func() {
		if len(e.acts.closed) != 2 || e.acts.closed[1].Outcome != kudos.PaymentExpired || len(e.acts.expired) != 1 {
			t.Errorf("closed %+v", e.acts.closed)
		}
		if s := e.state(); s.Checkout != nil || s.DisplayStatus() != kudos.StatusActive {
			t.Errorf("after expiry: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}

func TestRenewalDeclinedThenPaidByInvoice(t *testing.T) {
	e := newSubEnv(t)
	e.acts.declineRenewal = true
	e.at(2*time.Hour, func() {
		s := e.state()
		if s.Status != kudos.StatusPlanExpired || s.Due == nil || len(e.acts.renewals) != 1 {
			t.Errorf("after a declined renewal: %+v", s)
			return
		}
		// Only the due invoice can be paid.
		wrong := e.update(workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: e.acts.renewals[0].InvoiceID})
		if e.acts.renewals[0].InvoiceID != s.Due.ID {
			t.Errorf("the due invoice %s is not the renewal invoice %s", s.Due.ID, e.acts.renewals[0].InvoiceID)
		}
		_ = wrong
		e.update(workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: s.Due.ID})
	})
	e.at(3*time.Hour, func() {
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusProcessing {
			t.Errorf("paying the due invoice shows %s", w.ShowStatus)
		}
		e.sendEvent("ev-due", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(4*time.Hour, func() {
		s := e.state()
		if s.Status != kudos.StatusActive || s.Due != nil || !s.AutoRenew || !s.RenewalAt.Equal(start.Add(3*time.Hour).Add(period)) {
			t.Errorf("after paying the due invoice: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, time.Hour))
	assertCanceled(t, e)
}

func TestAutoRenewalOffStopsThePlanAndRestartRenews(t *testing.T) {
	t.Run("off", func(t *testing.T) {
		e := newSubEnv(t)
		e.at(time.Minute, func() { e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: false}) })
		e.at(time.Hour, func() {
			if w := e.acts.lastWrite(); w.StartNextPeriod || w.ShowStatus != kudos.StatusActive {
				t.Errorf("after cancel: %+v", w)
			}
		})
		e.at(49*time.Hour, func() {
			s := e.state()
			if s.Status != kudos.StatusPlanExpired || s.Due == nil || len(e.acts.dues) != 1 || len(e.acts.renewals) != 0 {
				t.Errorf("at the stop date: %+v, dues %d, renewals %d", s, len(e.acts.dues), len(e.acts.renewals))
			}
			e.CancelWorkflow()
		})
		e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, 48*time.Hour))
		assertCanceled(t, e)
	})
	t.Run("off then on", func(t *testing.T) {
		e := newSubEnv(t)
		e.at(time.Minute, func() { e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: false}) })
		e.at(time.Hour, func() { e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: true}) })
		e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, 48*time.Hour))
		var can *workflow.ContinueAsNewError
		if err := e.GetWorkflowError(); !errors.As(err, &can) || len(e.acts.renewals) != 1 || len(e.acts.dues) != 0 {
			t.Fatalf("err %v renewals %d dues %d", err, len(e.acts.renewals), len(e.acts.dues))
		}
	})
}

func TestUpgrade(t *testing.T) {
	e := newSubEnv(t)
	var down, same, trialCreate *updateOutcome
	e.at(time.Minute, func() {
		down = e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter})
		same = e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
		trialCreate = e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam})
		e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam})
	})
	e.at(time.Hour, func() {
		for name, o := range map[string]*updateOutcome{"down": down, "same": same, "create on a paid plan": trialCreate} {
			if o.rejected == nil {
				t.Errorf("%s was not rejected", name)
			}
		}
		if len(e.acts.opened) != 1 {
			t.Fatalf("%d checkouts", len(e.acts.opened))
		}
		in := e.acts.opened[0]
		if in.Purpose != kudos.CheckoutUpgrade || in.FromPlan != kudos.PlanPro || in.Plan != kudos.PlanTeam ||
			in.Remaining != period/2-time.Minute || in.Period != period {
			t.Errorf("upgrade checkout %+v", in)
		}
		e.sendEvent("ev-up", in.CheckoutID, kudos.PaymentPaid)
	})
	e.at(2*time.Hour, func() {
		s := e.state()
		if s.Plan != kudos.PlanTeam || !s.RenewalAt.Equal(start.Add(period/2)) {
			t.Errorf("after the upgrade: %+v (the period does not move)", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, period/2))
	assertCanceled(t, e)
}

// TestDuplicateAndOutOfOrderEvents: events apply in the order they came,
// a repeat changes nothing, and an event after the payment is ignored,
// whether they come as updates (the relay) or as signals (before it).
func TestDuplicateAndOutOfOrderEvents(t *testing.T) {
	for _, bySignal := range []bool{false, true} {
		t.Run(fmt.Sprintf("bySignal=%v", bySignal), func(t *testing.T) {
			e := newSubEnv(t)
			e.bySignal = bySignal
			e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter}) })
			e.at(2*time.Hour, func() {
				id := e.openedID(0)
				e.sendEvent("ev-unknown", "co_other", kudos.PaymentPaid) // another checkout: ignored
				e.sendEvent("ev-paid", id, kudos.PaymentPaid)
				e.sendEvent("ev-paid", id, kudos.PaymentPaid)   // the same event again
				e.sendEvent("ev-late", id, kudos.PaymentFailed) // arrives after the payment
			})
			e.at(3*time.Hour, func() {
				s := e.state()
				if s.Plan != kudos.PlanStarter || s.Status != kudos.StatusActive || len(e.acts.closed) != 1 {
					t.Errorf("state %+v, closed %d", s, len(e.acts.closed))
				}
				e.CancelWorkflow()
			})
			e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
			assertCanceled(t, e)
		})
	}
}

func TestAnotherPlanReplacesTheOpenCheckout(t *testing.T) {
	e := newSubEnv(t)
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanStarter}) })
	e.at(2*time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam}) })
	e.at(3*time.Hour, func() {
		if len(e.acts.opened) != 2 || len(e.acts.closed) != 1 || len(e.acts.expired) != 1 {
			t.Errorf("opened %d closed %+v expired %+v", len(e.acts.opened), e.acts.closed, e.acts.expired)
		}
		// Both were paid (the replaced one in a race with its expiry): the
		// first payment to arrive buys the plan, the other is refunded;
		// neither is dropped.
		e.sendEvent("ev-old", e.openedID(0), kudos.PaymentPaid)
		e.sendEvent("ev-new", e.openedID(1), kudos.PaymentPaid)
	})
	e.at(4*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanStarter || s.Checkout != nil {
			t.Errorf("plan %s, checkout %+v", s.Plan, s.Checkout)
		}
		if len(e.acts.refunds) != 1 || e.acts.refunds[0].CheckoutID != e.openedID(1) {
			t.Errorf("refunds %+v, want the Team checkout's", e.acts.refunds)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}

func assertCanceled(t *testing.T, e *subEnv) {
	t.Helper()
	if !e.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := e.GetWorkflowError(); !temporal.IsCanceledError(err) {
		t.Fatalf("workflow ended with %v", err)
	}
}
