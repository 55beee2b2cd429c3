package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Scheduled changes (issue 38): a lower plan, or fewer seats, take effect
// at the renewal, as Stripe Billing schedules them. Nothing is charged or
// refunded when they are scheduled; the renewal starts and charges them.
// An upgrade paid meanwhile replaces a scheduled plan.

// Names of the updates of scheduled changes.
const (
	// UpdateScheduleDowngrade schedules a lower plan for the renewal
	// (PlanRequest).
	UpdateScheduleDowngrade = "schedule_downgrade"
	// UpdateCancelScheduledChange drops whatever change is scheduled.
	UpdateCancelScheduledChange = "cancel_scheduled_change"
)

// ScheduledChange is the answer of the updates that schedule or cancel a
// change: what the renewal at At starts (Plan "" and ExtraSeats nil: no
// change; At nil then).
type ScheduledChange struct {
	Plan       kudos.Plan `json:",omitempty"`
	ExtraSeats *int       `json:",omitempty"`
	At         *time.Time `json:",omitempty"`
}

// scheduledChange is the change the state has scheduled.
func (s *subscription) scheduledChange() ScheduledChange {
	r := s.st.Record()
	return ScheduledChange{Plan: s.st.ScheduledPlan, ExtraSeats: s.st.ScheduledExtraSeats, At: r.ScheduledAt}
}

// validateChangeable: only an active paid plan whose renewal is not being
// retried or settling has a renewal to schedule a change for.
func (s *subscription) validateChangeable() error {
	if !s.st.Plan.IsPaid() || s.st.Status != kudos.StatusActive || s.st.RenewalAt == nil {
		return invalid(ErrTypeInvalidTransition, "only an active plan can be changed")
	}
	if s.st.Dunning != nil {
		return invalid(ErrTypeInvalidTransition, "a renewal payment is outstanding")
	}
	if s.st.PendingRenewal != nil {
		return invalid(ErrTypeInvalidTransition, "a renewal payment is being processed")
	}
	return nil
}

// validateDowngrade: a paid plan below the active one. Whether the team
// fits the lower plan is the api's check (409 seat_limit); once scheduled,
// the seats are the lower plan's (kudos.SeatLimit).
func (s *subscription) validateDowngrade(_ workflow.Context, req PlanRequest) error {
	if !req.Plan.IsPaid() {
		return invalid(ErrTypeInvalidPlan, "unknown plan %q", req.Plan)
	}
	if err := s.validateChangeable(); err != nil {
		return err
	}
	if kudos.PlanRank(req.Plan) >= kudos.PlanRank(s.st.Plan) {
		return invalid(ErrTypeInvalidPlan, "%s is not below %s", req.Plan, s.st.Plan)
	}
	return nil
}

// scheduleDowngrade schedules req.Plan for the renewal, replacing any
// change scheduled before (the seats bought for Team go with it).
func (s *subscription) scheduleDowngrade(ctx workflow.Context, req PlanRequest) (res ScheduledChange, err error) {
	s.withLock(ctx, func() {
		if err = s.validateDowngrade(ctx, req); err != nil { // the state may have moved while we waited
			return
		}
		s.st.ScheduledPlan, s.st.ScheduledExtraSeats = req.Plan, nil
		s.record(ctx)
		res = s.scheduledChange()
	})
	return res, err
}

// cancelScheduledChange drops the scheduled change (a lower plan, fewer
// seats): the renewal renews what the account has. Nothing scheduled is
// not an error (a second click).
func (s *subscription) cancelScheduledChange(ctx workflow.Context) (res ScheduledChange, err error) {
	s.withLock(ctx, func() {
		if s.st.ScheduledPlan == "" && s.st.ScheduledExtraSeats == nil {
			return
		}
		s.st.ScheduledPlan, s.st.ScheduledExtraSeats = "", nil
		s.record(ctx)
	})
	return res, err
}

// applyScheduled starts the scheduled change at the renewal, before it is
// charged: the lower plan (without the seats of Team), the fewer seats.
// Versioned: a run that has a change scheduled records the marker (runs
// from before never have one, and replay without it).
func (s *subscription) applyScheduled(ctx workflow.Context) {
	if s.st.ScheduledPlan == "" && s.st.ScheduledExtraSeats == nil {
		return
	}
	if !s.newer(ctx, "scheduled-changes") {
		return
	}
	if p := s.st.ScheduledPlan; p != "" {
		s.log.Info("the scheduled plan starts with the renewal", "from", s.st.Plan, "to", p)
		s.st.Plan = p
	}
	if n := s.st.ScheduledExtraSeats; n != nil {
		s.st.ExtraSeats = *n
	}
	if s.st.Plan != kudos.PlanTeam {
		s.st.ExtraSeats = 0
	}
	s.st.ScheduledPlan, s.st.ScheduledExtraSeats = "", nil
}

// upgraded drops, once an upgrade is paid, the lower plan that was
// scheduled: the upgrade replaces it.
func (s *subscription) upgraded() {
	s.st.ScheduledPlan = ""
}
