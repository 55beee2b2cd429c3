package workflows_test

import (
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// TestDelayedPaymentKeepsTheCheckoutPastItsDeadline: a checkout complete
// with its payment settling (SEPA) is not expired at its deadline; the
// account stays processing until the payment succeeds.
func TestDelayedPaymentKeepsTheCheckoutPastItsDeadline(t *testing.T) {
	e := newSubEnv(t)
	e.acts.expireOutcome = kudos.PaymentPending // asked meanwhile, the provider says it is settling
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-complete", e.openedID(0), kudos.PaymentPending) })
	e.at(3*24*time.Hour, func() { // far past the 24 h checkout TTL
		s := e.state()
		// Asked about daily (issue 25), it is still settling: kept, not closed.
		if s.Checkout == nil || !s.Checkout.Pending || s.DisplayStatus() != kudos.StatusProcessing || len(e.acts.closed) != 0 ||
			len(e.acts.expired) != 2 {
			t.Errorf("a settling payment after the deadline: %+v, asked %d times, closed %+v", s, len(e.acts.expired), e.acts.closed)
		}
		e.sendEvent("ev-settled", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(3*24*time.Hour+time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanPro || s.Status != kudos.StatusActive || s.Checkout != nil {
			t.Errorf("after the delayed payment settled: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}

// TestExpiryFindsThePaymentAtTheProvider: at the deadline the provider says
// the checkout was paid (its event is late): the plan starts.
func TestExpiryFindsThePaymentAtTheProvider(t *testing.T) {
	e := newSubEnv(t)
	e.acts.expireOutcome = kudos.PaymentPaid
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam}) })
	e.at(26*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanTeam || s.Status != kudos.StatusActive || len(e.acts.closed) != 1 ||
			e.acts.closed[0].Outcome != kudos.PaymentPaid {
			t.Errorf("a checkout paid at its deadline: %+v, closed %+v", s, e.acts.closed)
		}
		// Its late event afterwards is a duplicate: nothing refunded.
		e.sendEvent("ev-late", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(27*time.Hour, func() {
		if len(e.acts.refunds) != 0 || len(e.acts.closed) != 1 {
			t.Errorf("a duplicate late event: refunds %+v closed %+v", e.acts.refunds, e.acts.closed)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}
