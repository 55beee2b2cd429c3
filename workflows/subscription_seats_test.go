package workflows_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// seatsOutcome holds the outcome of a change-seats update.
type seatsOutcome struct {
	rejected, failed error
	result           workflows.SeatsResponse
}

// seats sends the change-seats update for n seats in all.
func (e *subEnv) seats(n int) *seatsOutcome {
	out := &seatsOutcome{}
	e.UpdateWorkflow(workflows.UpdateChangeSeats, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { out.rejected = err },
		OnComplete: func(res any, err error) {
			out.failed = err
			if r, ok := res.(workflows.SeatsResponse); ok {
				out.result = r
			}
		},
	}, workflows.SeatsRequest{Seats: n})
	return out
}

// More seats on Team go through a checkout of the rest of the period and
// count once paid; fewer are scheduled and take effect at the renewal,
// which bills the seats kept on their own line (issue 38 item 2).
func TestMoreSeatsAtOnceFewerAtTheRenewal(t *testing.T) {
	e := newSubEnv(t)
	st := paidState(kudos.PlanTeam, 100*day)
	var nine, more, fewer *seatsOutcome
	e.at(day, func() {
		nine = e.seats(9)
		more = e.seats(13)
	})
	e.at(day+time.Hour, func() {
		if nine.rejected == nil {
			t.Error("9 seats on Team: accepted")
		}
		if more.rejected != nil || more.failed != nil || more.result.Checkout.CheckoutHref == "" || len(e.acts.opened) != 1 {
			t.Fatalf("13 seats: %+v, %d checkouts", more, len(e.acts.opened))
		}
		in := e.acts.opened[0]
		if in.Purpose != kudos.CheckoutSeats || in.ExtraSeats != 3 || in.FromExtraSeats != 0 || in.Plan != kudos.PlanTeam ||
			in.Remaining != 99*day || in.Period != period {
			t.Errorf("the seats checkout %+v", in)
		}
		if s := e.state(); s.ExtraSeats != 0 {
			t.Errorf("seats counted before they are paid: %d", s.ExtraSeats)
		}
		e.sendEvent("ev-seats", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(2*day, func() {
		if s := e.state(); s.ExtraSeats != 3 || s.Plan != kudos.PlanTeam || s.Checkout != nil {
			t.Errorf("after the seats were paid: %d extra, %s", s.ExtraSeats, s.Plan)
		}
		if w := e.acts.lastWrite(); w.ExtraSeats != 3 {
			t.Errorf("read model %+v", w)
		}
		fewer = e.seats(11)
	})
	e.at(3*day, func() {
		if fewer.rejected != nil || fewer.failed != nil || fewer.result.Scheduled.ExtraSeats == nil || *fewer.result.Scheduled.ExtraSeats != 1 ||
			fewer.result.Scheduled.At == nil || !fewer.result.Scheduled.At.Equal(*st.RenewalAt) || len(e.acts.opened) != 1 {
			t.Errorf("11 seats: %+v", fewer)
		}
		if w := e.acts.lastWrite(); w.ExtraSeats != 3 || w.ScheduledExtraSeats == nil || *w.ScheduledExtraSeats != 1 || w.ScheduledAt == nil {
			t.Errorf("read model %+v", w)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanTeam || e.acts.renewals[0].ExtraSeats != 1 {
		t.Fatalf("renewals %+v, want Team with 1 extra seat", e.acts.renewals)
	}
	if next.ExtraSeats != 1 || next.ScheduledExtraSeats != nil {
		t.Fatalf("the next period: %d extra, scheduled %v", next.ExtraSeats, next.ScheduledExtraSeats)
	}
}

// Only Team has extra seats, and a lower plan scheduled drops them at the
// renewal.
func TestSeatsOnlyOnTeamAndALowerPlanDropsThem(t *testing.T) {
	e := newSubEnv(t)
	st := paidState(kudos.PlanTeam, 10*day)
	st.ExtraSeats = 2
	var onPro *seatsOutcome
	e.at(day, func() { e.schedule(workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*day, func() { onPro = e.seats(12) })
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if onPro == nil || onPro.rejected == nil {
		t.Error("seats with a lower plan scheduled: accepted")
	}
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanPro || e.acts.renewals[0].ExtraSeats != 0 || next.ExtraSeats != 0 {
		t.Fatalf("renewals %+v, next %d extra", e.acts.renewals, next.ExtraSeats)
	}
}
