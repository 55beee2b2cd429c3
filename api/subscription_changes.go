package api

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/workflows"
)

// Changes scheduled for the renewal and extra seats (issue 38): a lower
// plan and fewer seats take effect at the renewal, never refunded pro rata;
// more seats are bought at once through a checkout prorated like an
// upgrade. The subscription workflow owns all of it; these handlers check
// what the team needs (409 seat_limit) and ask it.

// registerSubscriptionChangeRoutes adds the scheduled change's cancel and
// the seats of a Team plan.
func (s *Server) registerSubscriptionChangeRoutes(acc fiber.Router) {
	acc.Delete("/subscription/scheduled-change", s.cancelScheduledChange)
	acc.Patch("/subscription/seats", s.changeSeats)
}

// scheduledPlanResponse answers a downgrade scheduled for the renewal.
type scheduledPlanResponse struct {
	ScheduledPlan *kudos.Plan `json:"scheduled_plan"`
	ScheduledAt   *time.Time  `json:"scheduled_at"`
}

// scheduledSeatsResponse answers a change of seats scheduled for the
// renewal: the seats in all from then (null when the count is unchanged).
type scheduledSeatsResponse struct {
	ScheduledSeats *int       `json:"scheduled_seats"`
	ScheduledAt    *time.Time `json:"scheduled_at"`
}

// isDowngrade reports whether plan is below the account's active paid plan:
// PATCH /subscription then schedules it instead of upgrading.
func (s *Server) isDowngrade(c fiber.Ctx, plan kudos.Plan) (bool, error) {
	sub, err := s.DB.Subscription(ctx(c), accountID(c))
	if err != nil {
		return false, err
	}
	return sub.Plan.IsPaid() && kudos.PlanRank(plan) < kudos.PlanRank(sub.Plan), nil
}

// scheduleDowngrade schedules plan for the renewal, once the team (members
// and pending invitations) fits it: 409 seat_limit otherwise.
func (s *Server) scheduleDowngrade(c fiber.Ctx, plan kudos.Plan) error {
	if err := s.planFits(c, plan); err != nil {
		return err
	}
	var res workflows.ScheduledChange
	if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateScheduleDowngrade, workflows.PlanRequest{Plan: plan}, &res); err != nil {
		return err
	}
	return c.JSON(scheduledPlanResponse{ScheduledPlan: &res.Plan, ScheduledAt: res.At})
}

// cancelScheduledChange drops the change scheduled for the renewal (a lower
// plan, fewer seats); nothing scheduled answers the same.
func (s *Server) cancelScheduledChange(c fiber.Ctx) error {
	if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateCancelScheduledChange, nil, nil); err != nil {
		return err
	}
	return c.JSON(scheduledPlanResponse{})
}

type seatsRequest struct {
	Seats *int `json:"seats"`
}

// changeSeats sets a Team plan's seats: more open the checkout of the
// rest of the period (201 checkout_href), fewer are scheduled for the
// renewal (200), never below the team's size (409 seat_limit).
func (s *Server) changeSeats(c fiber.Ctx) error {
	var req seatsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Seats == nil {
		return kudos.FieldErrors{"seats": kudos.FRequired}.Err()
	}
	if *req.Seats < kudos.PlanSeats(kudos.PlanTeam) || *req.Seats > kudos.MaxTeamSeats {
		return kudos.FieldErrors{"seats": kudos.FInvalidValue}.Err()
	}
	if err := s.notBeingDeleted(c); err != nil {
		return err
	}
	seats, err := s.DB.Seats(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	if seats.Used > *req.Seats {
		return kudos.SeatLimitError(fmt.Sprintf("remove %d first: %d seats are used (members and pending invitations)",
			seats.Used-*req.Seats, seats.Used))
	}
	var res workflows.SeatsResponse
	if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateChangeSeats, workflows.SeatsRequest{Seats: *req.Seats}, &res); err != nil {
		return err
	}
	switch {
	case res.Checkout.Applied: // under the provider's minimum: the seats are the account's at once
		return c.JSON(fiber.Map{"checkout_href": nil, "applied": true})
	case res.Checkout.CheckoutHref != "":
		return c.Status(fiber.StatusCreated).JSON(checkoutResponse{CheckoutHref: res.Checkout.CheckoutHref})
	}
	out := scheduledSeatsResponse{ScheduledAt: res.Scheduled.At}
	if n := res.Scheduled.ExtraSeats; n != nil {
		total := kudos.PlanSeats(kudos.PlanTeam) + *n
		out.ScheduledSeats = &total
	}
	return c.JSON(out)
}
