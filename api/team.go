package api

import (
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/store"
)

// registerTeamRoutes adds the team (issue 26): the caller's accounts, an
// account's members and invitations (in acc, the account group: the role
// each needs is in routeRoles), and the public invitation routes.
func (s *Server) registerTeamRoutes(v1, acc fiber.Router) {
	v1.Get("/accounts", s.requireSession, s.listAccounts)
	acc.Get("/members", s.listMembers)
	acc.Patch("/members/:userId", s.changeRole)
	acc.Delete("/members/:userId", s.removeMember)
	acc.Post("/transfer-ownership", s.transferOwnership)
	s.registerInvitationRoutes(v1, acc)
}

// accountsResponse is the answer of GET /v1/accounts.
type accountsResponse struct {
	Accounts []kudos.Membership `json:"accounts"`
}

// listAccounts answers the accounts the caller belongs to (the account
// switcher), the one they opened last marked.
func (s *Server) listAccounts(c fiber.Ctx) error {
	ms, err := s.DB.Memberships(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	for i := range ms {
		ms[i].LogoURL = s.logoURL(ms[i].ImgURL)
	}
	if ms == nil {
		ms = []kudos.Membership{}
	}
	return c.JSON(accountsResponse{Accounts: ms})
}

// membersResponse is the answer of GET …/members (issue 26's interface).
type membersResponse struct {
	Members []kudos.Member `json:"members"`
	Seats   kudos.Seats    `json:"seats"`
}

func (s *Server) listMembers(c fiber.Ctx) error {
	members, seats, err := s.DB.Members(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	return c.JSON(membersResponse{Members: members, Seats: seats})
}

type roleRequest struct {
	Role kudos.Role `json:"role"`
}

// changeRole makes a member an admin or a member (owners and admins, for
// anyone but the owner and themselves); a demoted admin's invitations are
// revoked.
func (s *Server) changeRole(c fiber.Ctx) error {
	target, err := pathUUID(c, "userId")
	if err != nil {
		return err
	}
	var req roleRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if !req.Role.Invitable() {
		return kudos.FieldErrors{"role": kudos.FInvalidValue}.Err()
	}
	if err := s.DB.ChangeRole(ctx(c), accountID(c), session(c).UserID, target, req.Role, s.team()); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"user_id": target, "role": req.Role})
}

// removeMember removes a member (owners and admins, anyone but the owner)
// or, on oneself, leaves the account (anyone but the owner); the
// invitations they sent are revoked.
func (s *Server) removeMember(c fiber.Ctx) error {
	target, err := pathUUID(c, "userId")
	if err != nil {
		return err
	}
	if err := s.DB.RemoveMember(ctx(c), accountID(c), session(c).UserID, target, s.team()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type transferRequest struct {
	UserID          *string `json:"user_id"`
	CurrentPassword *string `json:"current_password"`
}

// transferOwnership makes another member the owner, the owner an admin,
// once the owner has re-authenticated (reauthenticate); both are mailed.
func (s *Server) transferOwnership(c fiber.Ctx) error {
	var req transferRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.UserID == nil || *req.UserID == "" {
		return kudos.FieldErrors{"user_id": kudos.FRequired}.Err()
	}
	target, err := uuid.Parse(*req.UserID)
	if err != nil {
		return kudos.FieldErrors{"user_id": kudos.FInvalidValue}.Err()
	}
	u, err := s.DB.UserByID(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	if err := s.reauthenticate(c, u, req.CurrentPassword); err != nil {
		return err
	}
	if err := s.DB.TransferOwnership(ctx(c), store.OwnershipTransfer{AccountID: accountID(c), Owner: u.ID, NewOwner: target,
		Outbox: s.team()}); err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(fiber.Map{"owner": target})
}

// planFits refuses (409 seat_limit, "remove N members first") buying plan
// for an account that uses more seats than the plan allows, or (409) for
// an account whose deletion is scheduled, before the subscription workflow
// is asked.
func (s *Server) planFits(c fiber.Ctx, plan kudos.Plan) error {
	if err := s.notBeingDeleted(c); err != nil {
		return err
	}
	return s.teamFits(c, plan, 0)
}

// teamFits refuses plan with extraSeats when the account's team (members
// and pending invitations) would not fit in them (409 seat_limit).
func (s *Server) teamFits(c fiber.Ctx, plan kudos.Plan, extraSeats int) error {
	seats, err := s.DB.Seats(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	return kudos.CheckPlanFits(plan, extraSeats, seats.Used)
}
