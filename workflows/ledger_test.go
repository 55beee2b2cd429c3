package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// Issue 36 item 1: money that moved at the provider outside a hosted
// checkout reaches the workflow as an event and is applied at once.

// BookRefund records the refunds booked (the store books each once).
func (f *fakeActivities) BookRefund(_ context.Context, in workflows.BookRefundInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.booked = append(f.booked, in)
	return nil
}

// sendMovement delivers a movement's event as the relay does (an update).
func (e *subEnv) sendMovement(ev kudos.PaymentEvent) {
	e.UpdateWorkflow(workflows.UpdatePaymentEvent, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { e.t.Errorf("payment event %s rejected: %v", ev.EventID, err) },
		OnComplete: func(_ any, err error) {
			if err != nil {
				e.t.Errorf("payment event %s failed: %v", ev.EventID, err)
			}
		},
	}, ev)
}

// TestSettledRenewalChargeIsAppliedOnItsEvent: a renewal charge left
// processing (a SEPA debit) is asked about daily; its provider event
// (payment_intent.succeeded) makes the workflow ask at once, under the
// charge's own key: the period starts within the hour, not the next day.
func TestSettledRenewalChargeIsAppliedOnItsEvent(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{{Pending: true}, {Paid: true}}
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	e.at(day+time.Hour, func() {
		s := e.state()
		if s.PendingRenewal == nil {
			t.Fatalf("the renewal charge is not processing: %+v", s)
		}
		e.sendMovement(kudos.PaymentEvent{EventID: "evt_other", Outcome: kudos.PaymentPaid,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: "renewal:someone-else"}})
		e.sendMovement(kudos.PaymentEvent{EventID: "evt_pi_succeeded", Outcome: kudos.PaymentPaid,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: s.PendingRenewal.ChargeID, PaymentID: "pi_1"}})
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if len(e.acts.renewals) != 2 || e.acts.renewals[1].ChargeID != e.acts.renewals[0].ChargeID {
		t.Fatalf("charge calls %+v, want the charge and one ask under its key", e.acts.renewals)
	}
	if next.PendingRenewal != nil || next.Dunning != nil || !next.PeriodStartedAt.Equal(renewal) {
		t.Fatalf("after the event: %+v", next)
	}
	if got := e.Now().Sub(start); got > day+2*time.Hour {
		t.Fatalf("applied %v after the start, want within the hour of its event (day+1h)", got)
	}
	if !contains(e.acts.applied, "evt_pi_succeeded") || !contains(e.acts.applied, "evt_other") {
		t.Fatalf("events marked applied: %v", e.acts.applied)
	}
}

// TestFailedRenewalChargeEventStartsDunningAtOnce: the processing debit
// fails (payment_intent.payment_failed): dunning starts on its event.
func TestFailedRenewalChargeEventStartsDunningAtOnce(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{{Pending: true}, {FailureReason: "insufficient_funds"}}
	st := paidState(kudos.PlanPro, day)
	e.at(day+time.Hour, func() {
		s := e.state()
		e.sendMovement(kudos.PaymentEvent{EventID: "evt_pi_failed", Outcome: kudos.PaymentFailed,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: s.PendingRenewal.ChargeID}})
	})
	e.at(day+2*time.Hour, func() {
		s := e.state()
		if s.PendingRenewal != nil || s.Dunning == nil {
			t.Errorf("after the failure's event: pending %+v, dunning %+v", s.PendingRenewal, s.Dunning)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// refundEvent is the event of a refund of 10.00 made at the provider.
func refundEvent() kudos.PaymentEvent {
	inv := uuid.New()
	return kudos.PaymentEvent{EventID: "evt_charge_refunded", Outcome: kudos.PaymentPaid, CheckoutID: "co_1",
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, ProviderRefundID: "re_1", InvoiceID: &inv,
			Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}}}
}

// TestRefundEventIsBookedOnce: a refund made at the provider is booked by
// the workflow through its activity; the same event again books nothing.
func TestRefundEventIsBookedOnce(t *testing.T) {
	e := newSubEnv(t)
	ev := refundEvent()
	e.at(time.Hour, func() {
		e.sendMovement(ev)
		e.sendMovement(ev)
	})
	e.at(2*time.Hour, func() {
		if len(e.acts.booked) != 1 || e.acts.booked[0].Event.ProviderRefundID != "re_1" {
			t.Errorf("booked %+v, want the refund once", e.acts.booked)
		}
		if !contains(e.acts.applied, "evt_charge_refunded") {
			t.Errorf("applied %v", e.acts.applied)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, 100*day))
	assertCanceled(t, e)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
