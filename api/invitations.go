package api

import (
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

// registerInvitationRoutes adds the invitations of an account (in acc, for
// owners and admins) and the two routes of the accept page: the public
// look-up by token and the acceptance by the signed-in invitee.
func (s *Server) registerInvitationRoutes(v1, acc fiber.Router) {
	acc.Get("/invitations", s.listInvitations)
	acc.Post("/invitations", s.invite)
	acc.Post("/invitations/:invitationId/resend", s.resendInvitation)
	acc.Delete("/invitations/:invitationId", s.revokeInvitation)
	v1.Get("/invitations/:token", s.invitationPreview)
	v1.Post("/invitations/:token/accept", s.requireSession, s.requireActivated, s.acceptInvitation)
}

// team is the outbox of team changes (mails, invitation workflows).
func (s *Server) team() store.TeamOutbox { return dispatch.Team(s.Config.Invitation) }

// invitationView is an invitation as the api answers it.
type invitationView struct {
	ID        uuid.UUID  `json:"id"`
	Email     string     `json:"email"`
	Role      kudos.Role `json:"role"`
	ExpiresAt string     `json:"expires_at"`
	CreatedAt string     `json:"created_at"`
	InvitedBy string     `json:"invited_by"`
}

func viewInvitation(inv *kudos.Invitation) invitationView {
	return invitationView{ID: inv.ID, Email: inv.Email, Role: inv.Role, ExpiresAt: inv.ExpiresAt.UTC().Format(time.RFC3339),
		CreatedAt: inv.CreatedAt.UTC().Format(time.RFC3339), InvitedBy: inv.InvitedBy}
}

func (s *Server) listInvitations(c fiber.Ctx) error {
	invs, err := s.DB.PendingInvitations(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	out := make([]invitationView, 0, len(invs))
	for i := range invs {
		out = append(out, viewInvitation(&invs[i]))
	}
	return c.JSON(fiber.Map{"invitations": out})
}

type inviteRequest struct {
	Email string     `json:"email"`
	Role  kudos.Role `json:"role"`
}

// invitationToken is a new token: its key (which only the outbox and the
// workflow carry), its hash (which Postgres keeps) and its expiry.
func (s *Server) invitationToken() (key string, hash []byte, expiresAt time.Time) {
	key = auth.NewKey()
	return key, auth.HashToken(s.Tokens.Token(kudos.TokenInvitation, key)),
		s.DB.Now().Add(s.Config.Invitation.TTL).UTC().Truncate(time.Second)
}

// invite invites an address to the account with a role (admin or member)
// when a seat is free (409 seat_limit otherwise). The answer is the same
// whether the address belongs to a user or not, and whether its mail goes
// (invitationMailed).
func (s *Server) invite(c fiber.Ctx) error {
	var req inviteRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Email = kudos.NormalizeEmail(req.Email)
	fe := kudos.FieldErrors{}
	addIf(fe, "email", kudos.ValidateEmail(req.Email))
	if !req.Role.Invitable() {
		fe.Add("role", kudos.FInvalidValue)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if err := allow(c, s.limits.invitations, accountID(c).String()); err != nil {
		return err
	}
	key, hash, expires := s.invitationToken()
	mailed, err := s.invitationMailed(c, req.Email)
	if err != nil {
		return err
	}
	if !mailed {
		// The link stored is one whose key nobody holds: the workflow finds
		// that its key is not the invitation's and mails nothing.
		_, hash, _ = s.invitationToken()
	}
	inv, err := s.DB.CreateInvitation(ctx(c), store.NewInvitation{
		Invitation: kudos.Invitation{AccountID: accountID(c), Email: req.Email, Role: req.Role, ExpiresAt: expires},
		InvitedBy:  session(c).UserID, TokenHash: hash, Key: key, Outbox: s.team(),
	})
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	v := viewInvitation(inv)
	return c.Status(fiber.StatusCreated).JSON(v)
}

// resendInvitation mails a pending invitation again with a new link (the
// old one stops working) and a new expiry, while the account still has
// the seat it holds (409 seat_limit otherwise). Beyond the address's
// invitation mails (invitationMailed) the answer is the same, but nothing
// is mailed and the old link keeps working until the new expiry.
func (s *Server) resendInvitation(c fiber.Ctx) error {
	id, err := pathUUID(c, "invitationId")
	if err != nil {
		return err
	}
	if err := allow(c, s.limits.invitations, accountID(c).String()); err != nil {
		return err
	}
	key, hash, expires := s.invitationToken()
	pending, err := s.DB.PendingInvitations(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	for _, p := range pending {
		if p.ID == id {
			mailed, err := s.invitationMailed(c, p.Email)
			if err != nil {
				return err
			}
			if !mailed {
				hash = nil // the old link stays; the new key's mail finds it is not the link
			}
			break
		}
	}
	inv, err := s.DB.ResendInvitation(ctx(c), accountID(c), id, hash, key, expires, s.team())
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(viewInvitation(inv))
}

// revokeInvitation ends a pending invitation: its link stops working. A
// revoke takes one from the account's invitation budget when one is left,
// so that inviting and revoking in a loop mails half as often; it is never
// refused (a wrong invitation must always be revocable).
func (s *Server) revokeInvitation(c fiber.Ctx) error {
	id, err := pathUUID(c, "invitationId")
	if err != nil {
		return err
	}
	if err := s.DB.RevokeInvitation(ctx(c), accountID(c), id, session(c).UserID, s.team()); err != nil {
		return err
	}
	if _, _, err := s.limits.invitations.Allow(ctx(c), accountID(c).String()); err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.SendStatus(fiber.StatusNoContent)
}

// invitationMailed takes one from the invitation mails of the address, from
// every account (recipientAllowed: 5 an hour), and reports whether the
// invitation may be mailed: beyond, its mail is dropped silently, and the
// inviter is answered as for any other address (whether or not it belongs
// to a user). Inviting and revoking in a loop from several accounts
// cannot flood one mailbox.
func (s *Server) invitationMailed(c fiber.Ctx, email string) (bool, error) {
	return s.recipientAllowed(ctx(c), kudos.MailTeamInvitation, email)
}

// invitationHash is the hash of the path's token; a token of the wrong
// shape is not found, like a wrong one.
func invitationHash(c fiber.Ctx) ([]byte, error) {
	token := c.Params("token")
	if !auth.ValidTokenShape(token) {
		return nil, kudos.Errorf(kudos.ENotFound, "this invitation is invalid or has expired")
	}
	return auth.HashToken(token), nil
}

// invitationPreview answers what the accept page shows (public: the token
// is the credential): the account, the inviter, the address and role;
// 404 for a token unknown, expired, revoked or used.
func (s *Server) invitationPreview(c fiber.Ctx) error {
	hash, err := invitationHash(c)
	if err != nil {
		return err
	}
	p, err := s.DB.InvitationByToken(ctx(c), hash)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"account_name": p.AccountName, "inviter": p.Inviter, "email": p.Email, "role": p.Role,
		"expires_at": p.ExpiresAt.UTC().Format(time.RFC3339)})
}

// acceptInvitation adds the signed-in user to the invitation's account
// (they must be its address: 403 invitation_email_mismatch otherwise; have
// proved it: 403 user_not_activated; and a seat must be free: 409
// seat_limit).
func (s *Server) acceptInvitation(c fiber.Ctx) error {
	hash, err := invitationHash(c)
	if err != nil {
		return err
	}
	id, err := s.DB.AcceptInvitation(ctx(c), hash, session(c).UserID, s.team())
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(fiber.Map{"account_id": id})
}

// invitedSignupResponse answers a sign-up from an invitation: the address
// and, since the user is activated and a member at once, a session.
type invitedSignupResponse struct {
	Email string `json:"email"`
	sessionResponse
}

// invitedSignup signs up u from an invitation's link (POST /auth/signup
// with invitation_token): the link proved the address, so the user is
// activated at once, joins the inviting account instead of getting a
// trial of their own, and is signed in (201 with a session). The
// invitation must be addressed to u.Email (403 invitation_email_mismatch)
// and have a free seat (409 seat_limit); an address that has an account
// already is 409 conflict, told only to whoever holds that address's
// invitation: they are to sign in instead.
func (s *Server) invitedSignup(c fiber.Ctx, u kudos.User, token string) error {
	if !auth.ValidTokenShape(token) {
		return kudos.FieldErrors{"invitation_token": kudos.FInvalidValue}.Err()
	}
	in, err := s.DB.CreateInvitedUser(ctx(c), store.InvitedUser{User: u, InvitationHash: auth.HashToken(token),
		SessionTTL: s.Config.SessionTTL, Outbox: s.team()})
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	sr, err := s.sessionAnswer(c, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(invitedSignupResponse{Email: u.Email, sessionResponse: sr})
}
