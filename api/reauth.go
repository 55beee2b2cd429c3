package api

import (
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/auth"
	"kudos/store"
)

// reauthenticate is the one re-authentication of a sensitive change
// (ARCHITECTURE §4: a new password or e-mail; issue 26: a transfer of
// ownership): a stolen session alone must not make it. A user with a
// password gives it (current_password: 422 when missing or wrong, guesses
// rate limited); a user without one (Google sign-in only) goes through
// stepUp. A user with a second factor must also have met it lately
// (requireSecondFactor), checked first.
func (s *Server) reauthenticate(c fiber.Ctx, u *kudos.User, currentPassword *string) error {
	if err := s.requireSecondFactor(c, u.ID); err != nil {
		return err
	}
	if u.PasswordHash != "" {
		return s.checkCurrentPassword(c, u, currentPassword)
	}
	return s.stepUp(c, u)
}

// currentPasswordRequest is the body of a change that only
// re-authenticates: a deletion, a passkey added or removed.
type currentPasswordRequest struct {
	CurrentPassword *string `json:"current_password"`
}

// reauthenticatedCaller reads a body of a current_password and
// re-authenticates the caller with it (reauthenticate: a user without a
// password steps up instead). It returns the caller.
func (s *Server) reauthenticatedCaller(c fiber.Ctx) (*kudos.User, error) {
	var req currentPasswordRequest
	if err := decodeJSON(c, &req); err != nil {
		return nil, err
	}
	u, err := s.DB.UserByID(ctx(c), session(c).UserID)
	if err != nil {
		return nil, err
	}
	return u, s.reauthenticateWith(c, u, req)
}

// reauthenticateWith re-authenticates u with the body req read
// (reauthenticate; a current_password past the longest password is 422).
func (s *Server) reauthenticateWith(c fiber.Ctx, u *kudos.User, req currentPasswordRequest) error {
	if req.CurrentPassword != nil && len(*req.CurrentPassword) > kudos.PasswordMaxLength {
		return kudos.FieldErrors{"current_password": kudos.FTooLong}.Err()
	}
	return s.reauthenticate(c, u, req.CurrentPassword)
}

// Step-up timings: the Google sign-in of a step-up must have happened at
// most stepUpMaxAge before the callback (auth_time, asked for with max_age
// and prompt=login), and it allows sensitive changes from that session for
// stepUpWindow.
const (
	stepUpMaxAge = 5 * time.Minute
	stepUpWindow = 5 * time.Minute
)

// stepUp re-authenticates a user who has no password (Google sign-in
// only): their session must have signed in with Google again, freshly,
// within stepUpWindow (POST /v1/auth/oidc-reauth, then the callback);
// otherwise 403 reauthentication_required, which the UI answers by
// starting that flow.
func (s *Server) stepUp(c fiber.Ctx, _ *kudos.User) error {
	at, err := s.DB.ReauthenticatedAt(ctx(c), session(c).ID)
	if err != nil {
		return err
	}
	if at.IsZero() || s.DB.Now().Sub(at) > stepUpWindow {
		return kudos.Errorf(kudos.EReauthRequired, "please confirm it is you: sign in with Google again")
	}
	return nil
}

// requireSecondFactor is the one second-factor step-up of a sensitive
// change (issue 29: password and e-mail change, ownership transfer,
// account deletion, adding a payment method; through reauthenticate, but
// for the payment method): a user with a second factor must have met it
// in this session within kudos.StepUpWindow (at an MFA sign-in, an
// enrolment, or POST /v1/users/me/mfa/verify); otherwise 403
// second_factor_required, which the UI answers with a dialog asking for
// the code, then retries.
func (s *Server) requireSecondFactor(c fiber.Ctx, userID uuid.UUID) error {
	st, err := s.DB.MFAStatus(ctx(c), userID)
	if err != nil || !st.Enrolled() {
		return err
	}
	if !secondFactorFresh(session(c), s.DB.Now()) {
		return kudos.Errorf(kudos.ESecondFactorRequired, "please confirm it is you with your second factor")
	}
	return nil
}

// secondFactorFresh reports whether sess met a second factor within
// kudos.StepUpWindow of now.
func secondFactorFresh(sess *kudos.Session, now time.Time) bool {
	return !sess.SecondFactorAt.IsZero() && now.Sub(sess.SecondFactorAt) <= kudos.StepUpWindow
}

type oidcReauthRequest struct {
	RootDomain string `json:"root_domain"`
}

// oidcReauth starts a step-up for the caller's session: the provider is
// asked to authenticate the person again (prompt=login, max_age).
func (s *Server) oidcReauth(c fiber.Ctx) error {
	var req oidcReauthRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	root := s.rootDomain(fe, req.RootDomain)
	if err := fe.Err(); err != nil {
		return err
	}
	sid := session(c).ID
	return s.startOIDC(c, store.OIDCFlow{Scope: scopeReauth, PreferredLanguage: kudos.Languages[0], SessionID: &sid}, root)
}

type stepUpResponse struct {
	Scope string `json:"scope"`
	Email string `json:"email"`
}

// finishStepUp is the callback of a step-up: the provider must say when
// the person authenticated (auth_time), no longer than stepUpMaxAge ago,
// and the identity must be the user's own Google account (store.StepUp).
// The session that started the flow may then make sensitive changes.
func (s *Server) finishStepUp(c fiber.Ctx, f *store.OIDCFlow, id *auth.Identity, email string) error {
	now := s.DB.Now()
	if f.SessionID == nil || id.AuthTime.IsZero() || now.Sub(id.AuthTime) > stepUpMaxAge || id.AuthTime.Sub(now) > time.Minute {
		return kudos.Errorf(kudos.EReauthRequired, "Google did not confirm a fresh sign-in; please try again")
	}
	if err := s.DB.StepUp(ctx(c), *f.SessionID, id.Issuer, id.Subject, email); err != nil {
		return err
	}
	return c.JSON(stepUpResponse{Scope: scopeReauth, Email: email})
}
