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
	acc.Patch("", s.renameAccount)
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
	role, activated, err := s.DB.MemberAccess(ctx(c), id, session(c).UserID)
	switch {
	case err != nil:
		return err
	case role == "":
		return kudos.NotFound()
	case !activated:
		return kudos.Errorf(kudos.ENotActivated, "the user must be activated")
	}
	if err := checkRole(c, role); err != nil {
		return err
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
	a.LogoURL = s.logoURL(a.ImgURL)
	return c.JSON(accountResponse{Account: a, User: u})
}

type renameRequest struct {
	Name string `json:"name"`
}

func (s *Server) renameAccount(c fiber.Ctx) error {
	var req renameRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	name := strings.TrimSpace(req.Name)
	if code := kudos.ValidateAccountName(name); code != "" {
		return kudos.FieldErrors{"name": code}.Err()
	}
	if err := s.DB.RenameAccount(ctx(c), accountID(c), name); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"name": name})
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
	saved, err := s.DB.SaveBillingAddress(ctx(c), accountID(c), addr, expect, vatCheckEffects(accountID(c), stored))
	if err != nil {
		return err
	}
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
