package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"kudos"
)

// mfaPolicy is the owner's two-factor policy for one request of an
// account that requires it: a member without a second factor is 403
// mfa_enrolment_required (the UI opens the enrolment), one whose session
// has not met theirs is 403 second_factor_required (the UI asks for it).
func (s *Server) mfaPolicy(c fiber.Ctx, sess *kudos.Session) error {
	if !sess.SecondFactorAt.IsZero() {
		return nil // the common case, answered without a query
	}
	st, err := s.DB.MFAStatus(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	if !st.Enrolled() {
		return kudos.Errorf(kudos.EMFAEnrolmentRequired, "this account requires two-factor authentication: set it up first")
	}
	return kudos.Errorf(kudos.ESecondFactorRequired, "this account requires two-factor authentication: confirm it is you")
}

// mfaPolicyExempt tells the account routes a member needs while enrolling,
// open whatever the policy: the signed-in devices (the enrolment itself is
// under /v1/users/me, outside the account).
func mfaPolicyExempt(path string) bool {
	_, rest, _ := strings.Cut(strings.TrimPrefix(path, "/v1/accounts/"), "/")
	return rest == "sessions" || strings.HasPrefix(rest, "sessions/")
}

// setMFAPolicy turns the account's policy on or off: the owner only (403),
// and only an owner with a second factor turns it on (409), so that the
// owner is never locked out of their own account. Turning it off lowers
// every member's protection: it takes the same re-authentication as
// removing a factor (the password or a Google step-up, and the second
// factor met within kudos.StepUpWindow), so that a stolen session alone
// cannot (issue 35).
func (s *Server) setMFAPolicy(c fiber.Ctx, on bool, reauth currentPasswordRequest) error {
	if callerRole(c) != kudos.RoleOwner {
		return kudos.Errorf(kudos.EForbidden, "only the owner sets the two-factor policy")
	}
	sess := session(c)
	if !on {
		u, err := s.DB.UserByID(ctx(c), sess.UserID)
		if err != nil {
			return err
		}
		if err := s.reauthenticateWith(c, u, reauth); err != nil {
			return err
		}
	}
	if on {
		st, err := s.DB.MFAStatus(ctx(c), sess.UserID)
		if err != nil {
			return err
		}
		if !st.Enrolled() {
			return kudos.Errorf(kudos.EConflict, "set up two-factor authentication for yourself before requiring it")
		}
	}
	return s.DB.SetRequireMFA(ctx(c), accountID(c), sess.UserID, on)
}
