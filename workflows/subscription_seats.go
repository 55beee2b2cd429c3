package workflows

import (
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Extra seats on Team (issue 38): more seats are bought at once for the
// rest of the period, through a checkout prorated like an upgrade; fewer
// take effect at the renewal (a scheduled change, see
// subscription_downgrade.go), never below the team's size (the api's
// check, 409 seat_limit).

// UpdateChangeSeats sets the seats of a Team plan (SeatsRequest).
const UpdateChangeSeats = "change_seats"

// ErrTypeInvalidSeats marks a seat count the Team plan cannot have (fewer
// than its own seats): the api answers 422 on the field seats.
const ErrTypeInvalidSeats = "InvalidSeats"

// SeatsRequest is the argument of the change-seats update: the seats the
// account wants in all, the plan's own included.
type SeatsRequest struct {
	Seats int
}

// SeatsResponse is the answer of the change-seats update: the checkout of
// more seats (Checkout), or the change scheduled for the renewal (fewer
// seats; none when the count is the one the account has).
type SeatsResponse struct {
	Checkout  CheckoutResponse
	Scheduled ScheduledChange
}

// validateChangeSeats: an active Team plan with no lower plan scheduled,
// at least the plan's own seats.
func (s *subscription) validateChangeSeats(_ workflow.Context, req SeatsRequest) error {
	if err := s.validateChangeable(); err != nil {
		return err
	}
	if err := s.notDeleting("change the plan"); err != nil {
		return err
	}
	if s.st.Plan != kudos.PlanTeam {
		return invalid(ErrTypeInvalidTransition, "only the Team plan has extra seats")
	}
	if s.st.ScheduledPlan != "" {
		return invalid(ErrTypeInvalidTransition, "a lower plan is scheduled: cancel it first")
	}
	if req.Seats < kudos.PlanSeats(kudos.PlanTeam) {
		return invalid(ErrTypeInvalidSeats, "the Team plan has at least %d seats", kudos.PlanSeats(kudos.PlanTeam))
	}
	return nil
}

// changeSeats opens the checkout of more seats, or schedules fewer for the
// renewal; the count the account has drops a scheduled reduction.
func (s *subscription) changeSeats(ctx workflow.Context, req SeatsRequest) (res SeatsResponse, err error) {
	extra := req.Seats - kudos.PlanSeats(kudos.PlanTeam)
	if extra > s.st.ExtraSeats {
		res.Checkout, err = s.checkoutWith(ctx, kudos.CheckoutSeats, kudos.PlanTeam, "", extra, func() (OpenCheckoutInput, error) {
			if err := s.validateChangeSeats(ctx, req); err != nil { // the state may have moved while we waited
				return OpenCheckoutInput{}, err
			}
			if extra <= s.st.ExtraSeats {
				return OpenCheckoutInput{}, invalid(ErrTypeInvalidTransition, "the account has these seats already")
			}
			return OpenCheckoutInput{Plan: kudos.PlanTeam, InvoiceID: s.updateKey(ctx, "invoice"), ExtraSeats: extra,
				FromExtraSeats: s.st.ExtraSeats, Remaining: s.st.RenewalAt.Sub(workflow.Now(ctx)), Period: s.currentPeriod()}, nil
		})
		return res, err
	}
	s.withLock(ctx, func() {
		if err = s.validateChangeSeats(ctx, req); err != nil {
			return
		}
		var next *int
		if extra < s.st.ExtraSeats {
			next = &extra
		}
		if (next == nil) != (s.st.ScheduledExtraSeats == nil) || (next != nil && *next != *s.st.ScheduledExtraSeats) {
			s.st.ScheduledExtraSeats = next
			s.record(ctx)
		}
		res.Scheduled = s.scheduledChange()
	})
	return res, err
}

// seatsPaid gives the account the seats its paid checkout c bought; a
// reduction scheduled before is replaced.
func (s *subscription) seatsPaid(c *kudos.OpenCheckout) {
	s.st.ExtraSeats = c.ExtraSeats
	s.st.ScheduledExtraSeats = nil
}

// renewedExtraSeats are the extra seats the next renewal bills: those
// scheduled, none on a lower plan scheduled.
func (s *subscription) renewedExtraSeats() int {
	switch {
	case s.st.ScheduledPlan != "" && s.st.ScheduledPlan != kudos.PlanTeam:
		return 0
	case s.st.ScheduledExtraSeats != nil:
		return *s.st.ScheduledExtraSeats
	}
	return s.st.ExtraSeats
}
