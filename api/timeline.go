package api

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// Timeline page sizes (ARCHITECTURE §4: limit 1–100).
const (
	timelineDefaultLimit = 50
	timelineMaxLimit     = 100
)

// timelineEvent is one billing event as the timeline answers it.
type timelineEvent struct {
	ID        uuid.UUID              `json:"id"`
	At        string                 `json:"at"`
	Type      kudos.BillingEventType `json:"type"`
	Plan      *kudos.Plan            `json:"plan"`
	Amount    *float64               `json:"amount"`
	Currency  *string                `json:"currency"`
	InvoiceID *uuid.UUID             `json:"invoice_id"`
	// MemberEmail, Role and ActorEmail are a membership event's (null
	// for the others; actor_email null when the member acted).
	MemberEmail *string     `json:"member_email"`
	Role        *kudos.Role `json:"role"`
	ActorEmail  *string     `json:"actor_email"`
	// Factor is a second factor's event's: totp or passkey (null for the
	// others).
	Factor *string `json:"factor"`
}

type timelineResponse struct {
	Events     []timelineEvent `json:"events"`
	NextBefore *string         `json:"next_before"`
}

// billingTimeline answers the account's billing events, newest first, a
// page of limit before the opaque cursor before; next_before continues
// after the last one (null on the last page). The membership events only
// with scope=team, and always for an admin: the money is the owner's.
func (s *Server) billingTimeline(c fiber.Ctx) error {
	args := c.Request().URI().QueryArgs()
	limit, before, err := timelinePage(args.Has("limit"), c.Query("limit"), args.Has("before"), c.Query("before"))
	if err != nil {
		return err
	}
	var types []kudos.BillingEventType
	switch scope := c.Query("scope"); {
	case args.Has("scope") && scope != "team":
		return kudos.FieldErrors{"scope": kudos.FInvalidValue}.Err()
	case scope == "team" || callerRole(c) != kudos.RoleOwner:
		types = kudos.TeamEventTypes
	}
	events, err := s.DB.BillingTimeline(ctx(c), accountID(c), limit+1, before, types...)
	if err != nil {
		return err
	}
	out := timelineResponse{Events: []timelineEvent{}}
	if len(events) > limit {
		next := kudos.CursorAfter(events[limit-1]).String()
		out.NextBefore, events = &next, events[:limit]
	}
	for _, e := range events {
		v := timelineEvent{ID: e.ID, At: e.At.UTC().Format(time.RFC3339Nano), Type: e.Type, InvoiceID: e.InvoiceID}
		if e.Plan != "" {
			v.Plan = &e.Plan
		}
		if e.Amount != nil {
			amount, currency := float64(*e.Amount)/100, e.Currency
			v.Amount, v.Currency = &amount, &currency
		}
		if e.MemberEmail != "" {
			v.MemberEmail = &e.MemberEmail
		}
		if e.Role != "" {
			v.Role = &e.Role
		}
		if e.ActorEmail != "" {
			v.ActorEmail = &e.ActorEmail
		}
		if e.Factor != "" {
			v.Factor = &e.Factor
		}
		out.Events = append(out.Events, v)
	}
	return c.JSON(out)
}

// timelinePage reads the query: limit (digits, 1–100, default 50 when not
// given) and the cursor; anything else (an empty value too) is 422 naming
// the parameter.
func timelinePage(hasLimit bool, limitQ string, hasBefore bool, beforeQ string) (int, *kudos.TimelineCursor, error) {
	limit := timelineDefaultLimit
	if hasLimit {
		n, err := strconv.Atoi(limitQ)
		if err != nil || len(limitQ) > 3 || limitQ == "" || limitQ[0] < '0' || limitQ[0] > '9' || n < 1 || n > timelineMaxLimit {
			return 0, nil, kudos.FieldErrors{"limit": kudos.FInvalidValue}.Err()
		}
		limit = n
	}
	if !hasBefore {
		return limit, nil, nil
	}
	cur, err := kudos.ParseTimelineCursor(beforeQ)
	if err != nil {
		return 0, nil, err
	}
	return limit, &cur, nil
}
