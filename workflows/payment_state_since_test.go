package workflows_test

import (
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// TestPaymentStateSinceFollowsPaymentState: PaymentStateSince is when
// PaymentState took its value (not the run's start), it stays while the
// value does, and the next run after continue-as-new carries it.
func TestPaymentStateSinceFollowsPaymentState(t *testing.T) {
	e := newSubEnv(t)
	check := func(when string, wantState string, wantSince time.Time) {
		t.Helper()
		s := e.state()
		if s.PaymentState != wantState || s.PaymentStateSince == nil || !s.PaymentStateSince.Equal(wantSince) {
			t.Errorf("%s: PaymentState %q since %v, want %q since %v", when, s.PaymentState, s.PaymentStateSince, wantState, wantSince)
		}
	}
	e.at(time.Hour, func() {
		check("trial", workflows.PaymentNone, start)
		e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
	})
	e.at(3*time.Hour, func() {
		check("checkout open", workflows.PaymentCheckoutOpen, start.Add(time.Hour))
		e.sendEvent("ev1", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(4*time.Hour, func() { check("paid", workflows.PaymentNone, start.Add(3*time.Hour)) })
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	next := e.nextRun()
	// The renewal charged and the state stayed none: the next run starts
	// with the moment the payment ended the checkout.
	if next.PaymentState != workflows.PaymentNone || next.PaymentStateSince == nil || !next.PaymentStateSince.Equal(start.Add(3*time.Hour)) {
		t.Fatalf("continued as new with PaymentState %q since %v", next.PaymentState, next.PaymentStateSince)
	}
}

// TestStampPaymentStateOfARebuiltCheckout: a checkout found open when a
// workflow is rebuilt from the read model has been open since it was opened
// (its expiry less the checkout TTL), not since the rebuild.
func TestStampPaymentStateOfARebuiltCheckout(t *testing.T) {
	now := start
	st := trialState(time.Hour)
	st.Checkout = &kudos.OpenCheckout{ID: "c1", ExpiresAt: now.Add(22 * time.Hour)}
	workflows.StampPaymentState(&st, now)
	if st.PaymentState != workflows.PaymentCheckoutOpen || !st.PaymentStateSince.Equal(now.Add(-2*time.Hour)) {
		t.Fatalf("rebuilt checkout: %q since %v, want checkout_open since two hours ago", st.PaymentState, st.PaymentStateSince)
	}
	workflows.StampPaymentState(&st, now.Add(time.Hour))
	if !st.PaymentStateSince.Equal(now.Add(-2 * time.Hour)) {
		t.Fatalf("unchanged state moved its since to %v", st.PaymentStateSince)
	}
	st.Checkout = nil
	workflows.StampPaymentState(&st, now.Add(time.Hour))
	if st.PaymentState != workflows.PaymentNone || !st.PaymentStateSince.Equal(now.Add(time.Hour)) {
		t.Fatalf("checkout closed: %q since %v", st.PaymentState, st.PaymentStateSince)
	}
}

// TestStampPaymentStateOfARebuiltDunning: a renewal found in dunning when a
// workflow is rebuilt has been retried since its renewal date.
func TestStampPaymentStateOfARebuiltDunning(t *testing.T) {
	st := paidState(kudos.PlanPro, -4*24*time.Hour)
	st.Dunning = &kudos.Dunning{PeriodStart: start.Add(-4 * 24 * time.Hour), RetryAt: start.Add(time.Hour)}
	workflows.StampPaymentState(&st, start)
	if st.PaymentState != workflows.PaymentRetrying || !st.PaymentStateSince.Equal(start.Add(-4*24*time.Hour)) {
		t.Fatalf("rebuilt dunning: %q since %v, want retrying since the renewal date", st.PaymentState, st.PaymentStateSince)
	}
}

// TestStampPaymentStateOfAReturnedDebit: a debit of the running period that
// came back is retried since it came back (the schedule's base), not since
// the period it paid began, months before: the runbook's queries for
// payments retried too long would name it at once.
func TestStampPaymentStateOfAReturnedDebit(t *testing.T) {
	st := paidState(kudos.PlanPro, 200*24*time.Hour)
	returned := start.Add(-time.Hour)
	st.Dunning = &kudos.Dunning{PeriodStart: *st.PeriodStartedAt, RetryBase: &returned, RetryAt: start.Add(time.Hour), Returned: true}
	workflows.StampPaymentState(&st, start)
	if st.PaymentState != workflows.PaymentRetrying || !st.PaymentStateSince.Equal(returned) {
		t.Fatalf("returned debit: %q since %v, want retrying since it came back, %v", st.PaymentState, st.PaymentStateSince, returned)
	}
}
