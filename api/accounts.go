package api

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// accountResponse is the answer of GET /v1/accounts/{id} (ARCHITECTURE §4).
type accountResponse struct {
	Account *kudos.Account `json:"account"`
	User    *kudos.User    `json:"user"`
}

const localAccountID = "account_id"

// registerAccountRoutes adds the account's own routes to acc, the
// /v1/accounts/:accountId group, whose guards require a session and
// membership of the account (404 otherwise) and an activated user (403
// user_not_activated otherwise).
func (s *Server) registerAccountRoutes(acc fiber.Router) {
	acc.Patch("", s.updateAccount)
	acc.Patch("/billing-address", s.saveBillingAddress)
	acc.Patch("/user", s.updateUser)
	acc.Post("/feature-request", s.addFeatureRequest)
}

// requireMember admits a signed-in, activated member of the path's account
// whose role allows the route (routeRoles: 403 otherwise). The membership
// is read from Postgres on every request, so a member removed loses access
// at once.
func (s *Server) requireMember(c fiber.Ctx) error {
	id, err := pathUUID(c, "accountId")
	if err != nil {
		return err
	}
	m, err := s.DB.MemberAccess(ctx(c), id, session(c).UserID)
	switch {
	case err != nil:
		return err
	case m.Role == "":
		return kudos.NotFound()
	case !m.Activated:
		return kudos.Errorf(kudos.ENotActivated, "the user must be activated")
	}
	if err := checkRole(c, m.Role); err != nil {
		return err
	}
	if m.RequireMFA && !mfaPolicyExempt(c.Path()) {
		if err := s.mfaPolicy(c, session(c)); err != nil {
			return err
		}
	}
	c.Locals(localAccountID, id)
	return c.Next()
}

// accountID returns the account admitted by requireMember.
func accountID(c fiber.Ctx) uuid.UUID {
	id, _ := c.Locals(localAccountID).(uuid.UUID)
	return id
}

// getAccount answers the account with its subscription and the caller. It
// is the hot read path: the session check and the read are one query, and
// only when that finds nothing does a second one tell a dead session (401)
// from an account the caller may not see (404). Unactivated: 403.
func (s *Server) getAccount(c fiber.Ctx) error {
	sid, uid, err := s.bearer(c)
	if err != nil {
		return err
	}
	var a *kudos.Account
	var u *kudos.User
	id, err := pathUUID(c, "accountId")
	if err == nil {
		a, u, err = s.DB.SessionAccountView(ctx(c), id, sid, uid)
	}
	if kudos.ErrorCode(err) == kudos.ENotFound {
		if _, serr := s.liveSession(c, sid, uid); serr != nil {
			return serr
		}
		return err
	}
	if err != nil {
		return err
	}
	if !u.Activated {
		return kudos.Errorf(kudos.ENotActivated, "the user must be activated")
	}
	if a.RequireMFA {
		sess, err := s.liveSession(c, sid, uid)
		if err != nil {
			return err
		}
		if err := s.mfaPolicy(c, sess); err != nil {
			return err
		}
	}
	a.LogoURL = s.logoURL(a.ImgURL)
	return c.JSON(accountResponse{Account: a, User: u})
}

// accountUpdateRequest holds the account's settings; absent ones stay.
type accountUpdateRequest struct {
	Name       *string `json:"name"`
	RequireMFA *bool   `json:"require_mfa"`
	// CurrentPassword re-authenticates turning the policy off (issue 35).
	CurrentPassword *string `json:"current_password"`
}

// updateAccount renames the account (admins and the owner) and sets the
// owner's two-factor policy (require_mfa: the owner only, 403 otherwise;
// turning it on needs the owner's own second factor, 409 otherwise;
// turning it off re-authenticates the owner like removing a factor).
func (s *Server) updateAccount(c fiber.Ctx) error {
	var req accountUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	var name string
	if req.Name != nil || req.RequireMFA == nil {
		if req.Name != nil {
			name = strings.TrimSpace(*req.Name)
		}
		if code := kudos.ValidateAccountName(name); code != "" {
			return kudos.FieldErrors{"name": code}.Err()
		}
	}
	out := fiber.Map{}
	if req.RequireMFA != nil {
		if err := s.setMFAPolicy(c, *req.RequireMFA, currentPasswordRequest{CurrentPassword: req.CurrentPassword}); err != nil {
			return err
		}
		out["require_mfa"] = *req.RequireMFA
	}
	if req.Name != nil {
		if err := s.DB.RenameAccount(ctx(c), accountID(c), name); err != nil {
			return err
		}
		out["name"] = name
	}
	return c.JSON(out)
}

// billingAddressRequest is the address with optional fields left out
// (SPEC §5: empty values are not sent) and an optional version.
type billingAddressRequest struct {
	kudos.BillingAddress
	Version *int `json:"version"`
}

// saveBillingAddress replaces the billing address. A stale version (in the
// body or an If-Match header) is a 409 edit conflict.
func (s *Server) saveBillingAddress(c fiber.Ctx) error {
	var req billingAddressRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	addr := req.BillingAddress
	addr.Normalize()
	if err := addr.Validate(); err != nil {
		return err
	}
	expect := 0
	if req.Version != nil {
		if *req.Version < 0 {
			return kudos.FieldErrors{"version": kudos.FInvalidValue}.Err()
		}
		expect = *req.Version
	} else if m := strings.Trim(c.Get(fiber.HeaderIfMatch), `" `); m != "" {
		v, err := strconv.Atoi(m)
		if err != nil || v < 1 {
			return kudos.Errorf(kudos.EBadRequest, "If-Match must be the address version")
		}
		expect = v
	}
	stored, err := s.DB.BillingAddress(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	if expect > 0 && (stored == nil || stored.Version != expect) {
		return kudos.Errorf(kudos.EConflict, "Edit conflict") // before asking VIES; the store checks again
	}
	if addr.VATIDStatus, err = s.vatIDStatus(c, stored, addr); err != nil {
		return err
	}
	saved, err := s.DB.SaveBillingAddress(ctx(c), accountID(c), addr, expect, vatCheckEffects(accountID(c), stored),
		quoteEffects(accountID(c), stored))
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	c.Set(fiber.HeaderETag, `"`+strconv.Itoa(saved.Version)+`"`)
	return c.JSON(saved)
}

func (s *Server) addFeatureRequest(c fiber.Ctx) error {
	var req kudos.FeatureRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Description = strings.TrimSpace(req.Description)
	if err := req.Validate(); err != nil {
		return err
	}
	if err := s.DB.AddFeatureRequest(ctx(c), accountID(c), session(c).UserID, req); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
