package api

import (
	"bytes"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

// registerMFARoutes adds the caller's second factors (issue 29) to the
// /v1/users/me group me (session guard only: a member of an account that
// requires two-factor sign-in enrols here).
func (s *Server) registerMFARoutes(me fiber.Router) {
	me.Get("/mfa", s.mfaStatus)
	me.Post("/mfa/totp", s.requireActivated, s.startTOTP)
	me.Post("/mfa/totp/confirm", s.requireActivated, s.confirmTOTP)
	me.Delete("/mfa/totp", s.disableTOTP)
	me.Post("/mfa/recovery-codes", s.requireActivated, s.newRecoveryCodes)
	me.Post("/mfa/verify", s.verifySecondFactor)
	me.Post("/mfa/verify/options", s.stepUpPasskeyOptions)
}

// requireActivated guards the routes that add a credential (an app,
// recovery codes, a passkey) or a membership (accepting an invitation): a
// user who never proved the address may be a stranger who signed up with
// someone else's, and a factor they set would lock the owner out once the
// owner proves it (issue 35): 403 user_not_activated.
func (s *Server) requireActivated(c fiber.Ctx) error {
	u, err := s.DB.UserByID(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	if !u.Activated {
		return kudos.Errorf(kudos.ENotActivated, "confirm your e-mail address first")
	}
	return c.Next()
}

// mfaStatus answers which second factors the caller has.
func (s *Server) mfaStatus(c fiber.Ctx) error {
	st, err := s.DB.MFAStatus(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

type totpStarted struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
}

// freshSignIn is how long after its sign-in a session may enrol an
// authenticator app without re-authenticating: the person has just given
// their password (or signed in with Google).
const freshSignIn = 10 * time.Minute

// startTOTP gives the caller a new TOTP secret to enrol in an
// authenticator app (201 {secret, otpauth_url}); it replaces one not yet
// confirmed, and is 409 when an app is confirmed already. A second factor
// of a stolen session's choosing would lock the owner out (their next
// sign-in asks for it), so a session older than freshSignIn
// re-authenticates: an optional body {current_password} (422 when missing
// or wrong), or Google's step-up for a user without one.
func (s *Server) startTOTP(c fiber.Ctx) error {
	sess := session(c)
	u, err := s.DB.UserByID(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	if s.DB.Now().Sub(sess.CreatedAt) > freshSignIn {
		var req currentPasswordRequest
		if len(bytes.TrimSpace(c.Body())) > 0 {
			if err := decodeJSON(c, &req); err != nil {
				return err
			}
		}
		if err := s.reauthenticateWith(c, u, req); err != nil {
			return err
		}
	}
	secret := auth.NewTOTPSecret()
	if err := s.DB.StartTOTP(ctx(c), u.ID, s.mfaBox.Seal(u.ID, secret)); err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(totpStarted{Secret: auth.TOTPSecretText(secret), OTPAuthURL: auth.TOTPURL(secret, u.Email)})
}

// factorRequest is a second factor given: a code of the authenticator app,
// a recovery code, or a passkey's assertion (exactly one).
type factorRequest struct {
	Code         string            `json:"code"`
	RecoveryCode string            `json:"recovery_code"`
	WebAuthn     *passkeyAssertion `json:"webauthn"`
}

// given counts the factors given.
func (r *factorRequest) given() int {
	n := 0
	for _, ok := range []bool{r.Code != "", r.RecoveryCode != "", r.WebAuthn != nil} {
		if ok {
			n++
		}
	}
	return n
}

// validate checks the shape: one of the three, of a sane length (422).
// Only a code confirms an authenticator app (anyFactor false).
func (r *factorRequest) validate(fe kudos.FieldErrors, anyFactor bool) {
	switch {
	case r.given() == 0:
		fe.Add("code", kudos.FRequired)
	case r.given() > 1:
		fe.Add("recovery_code", kudos.FInvalidValue)
	case r.RecoveryCode != "" && !anyFactor:
		fe.Add("recovery_code", kudos.FInvalidValue)
	case r.WebAuthn != nil && !anyFactor:
		fe.Add("webauthn", kudos.FInvalidValue)
	case r.WebAuthn != nil:
		if _, err := r.WebAuthn.validate(); err != nil {
			fe.Add("webauthn", kudos.FInvalidValue)
		}
	case len(r.Code) > 16:
		fe.Add("code", kudos.FTooLong)
	case len(r.RecoveryCode) > 64:
		fe.Add("recovery_code", kudos.FTooLong)
	}
}

// factorGiven reads and validates the factor the signed-in caller gives
// (a code only unless anyFactor), counting the check against the caller's
// re-authentication limit.
func (s *Server) factorGiven(c fiber.Ctx, anyFactor bool) (factorRequest, error) {
	var req factorRequest
	if err := decodeJSON(c, &req); err != nil {
		return req, err
	}
	fe := kudos.FieldErrors{}
	req.validate(fe, anyFactor)
	if err := fe.Err(); err != nil {
		return req, err
	}
	return req, allow(c, s.limits.reauth, session(c).UserID.String())
}

type recoveryCodes struct {
	RecoveryCodes []string `json:"recovery_codes"`
}

// newCodes makes a fresh set of recovery codes and their hashes.
func newCodes() (recoveryCodes, [][]byte) {
	out := recoveryCodes{RecoveryCodes: make([]string, auth.RecoveryCodeCount)}
	hashes := make([][]byte, auth.RecoveryCodeCount)
	for i := range out.RecoveryCodes {
		out.RecoveryCodes[i] = auth.NewRecoveryCode()
		hashes[i] = auth.HashRecoveryCode(out.RecoveryCodes[i])
	}
	return out, hashes
}

// confirmTOTP confirms the enrolment with a first code: 200 with the ten
// recovery codes, shown this once (only their hashes are kept). The
// confirming session counts as having met the factor, and its browser is
// given a fresh device cookie (the others are void). A wrong code is 422
// on code (guesses limited per user); nothing to confirm is 409.
func (s *Server) confirmTOTP(c fiber.Ctx) error {
	req, err := s.factorGiven(c, false)
	if err != nil {
		return err
	}
	sess := session(c)
	st, err := s.DB.TOTP(ctx(c), sess.UserID)
	if kudos.ErrorCode(err) == kudos.ENotFound || (err == nil && st.Confirmed) {
		return kudos.Errorf(kudos.EConflict, "no authenticator app waits for confirmation: start the enrolment first")
	}
	if err != nil {
		return err
	}
	step, ok, err := s.matchTOTP(sess.UserID, st, req.Code)
	if err != nil {
		return err
	}
	if !ok {
		return kudos.FieldErrors{"code": kudos.FInvalidValue}.Err()
	}
	codes, hashes := newCodes()
	if err := s.DB.ConfirmTOTP(ctx(c), sess.UserID, sess.ID, step, hashes); err != nil {
		return err
	}
	s.setDeviceCookie(c, sess.UserID) // the new factor voided the others
	return c.JSON(codes)
}

// matchTOTP checks code against the user's sealed secret.
func (s *Server) matchTOTP(userID uuid.UUID, st *store.TOTPState, code string) (int64, bool, error) {
	secret, err := s.mfaBox.Open(userID, st.Sealed)
	if err != nil {
		return 0, false, err
	}
	step, ok := auth.MatchTOTP(secret, code, s.DB.Now(), st.LastStep)
	return step, ok, nil
}

// disableTOTP removes the caller's authenticator app and recovery codes
// after re-authentication (current_password, or Google's step-up): 204;
// 404 when it was off.
func (s *Server) disableTOTP(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	if err := s.DB.DisableTOTP(ctx(c), u.ID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// newRecoveryCodes replaces the caller's recovery codes (the old ones stop
// working) after re-authentication: 200 with the ten new ones.
func (s *Server) newRecoveryCodes(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	codes, hashes := newCodes()
	if err := s.DB.ReplaceRecoveryCodes(ctx(c), u.ID, hashes); err != nil {
		return err
	}
	return c.JSON(codes)
}

// verifySecondFactor is the step-up of a session: a code or a recovery
// code lets it make sensitive changes for kudos.StepUpWindow (204). A
// wrong one is 422 on its field; guesses are limited per user.
func (s *Server) verifySecondFactor(c fiber.Ctx) error {
	req, err := s.factorGiven(c, true)
	if err != nil {
		return err
	}
	sess := session(c)
	u, err := s.DB.UserByID(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	p, ok, err := s.secondFactorProof(c, u, req, kudos.CeremonyStepUp)
	if err != nil {
		return err // the check failed (Postgres, the key): not a wrong code
	}
	if ok {
		err = s.DB.VerifySecondFactor(ctx(c), sess.ID, u.ID, p)
	}
	if !ok || kudos.ErrorCode(err) == kudos.EUnauthorized {
		field := "code"
		switch {
		case req.RecoveryCode != "":
			field = "recovery_code"
		case req.WebAuthn != nil:
			field = "webauthn"
		}
		return kudos.FieldErrors{field: kudos.FInvalidValue}.Err()
	}
	if err != nil {
		return err
	}
	if len(p.Mails) > 0 {
		s.Outbox.Kick()
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// secondFactorProof checks the factor given for u: a code of their
// confirmed app (its step, to be spent by the store), or a recovery code
// (its hash, and the mfa_recovery_used mail that goes with spending it).
// A passkey's assertion must answer a ceremony of purpose (a sign-in's
// second factor, or a step-up) begun for u, by one of u's passkeys
// (finishPasskeyAssertion spends the ceremony and moves the sign count).
// ok is false when the factor does not match.
func (s *Server) secondFactorProof(c fiber.Ctx, u *kudos.User, req factorRequest, purpose kudos.CeremonyPurpose) (store.SecondFactorProof, bool, error) {
	if req.WebAuthn != nil {
		owner, err := s.finishPasskeyAssertion(c, string(purpose), *req.WebAuthn)
		switch {
		case kudos.ErrorCode(err) == kudos.EUnauthorized:
			return store.SecondFactorProof{}, false, nil
		case err != nil:
			return store.SecondFactorProof{}, false, err
		}
		return store.SecondFactorProof{Factor: kudos.SecondFactorPasskey}, owner == u.ID, nil
	}
	if req.RecoveryCode != "" {
		return store.SecondFactorProof{Factor: kudos.SecondFactorRecoveryCode, RecoveryHash: auth.HashRecoveryCode(req.RecoveryCode),
			Mails: []store.OutboxEntry{dispatch.Mail(kudos.MailRequest{Key: auth.NewKey(), Purpose: kudos.MailMFARecoveryUsed,
				To: u.Email, Language: u.PreferredLanguage, Name: u.Firstname})}}, true, nil
	}
	st, err := s.DB.TOTP(ctx(c), u.ID)
	if kudos.ErrorCode(err) == kudos.ENotFound || (err == nil && !st.Confirmed) {
		return store.SecondFactorProof{}, false, nil
	}
	if err != nil {
		return store.SecondFactorProof{}, false, err
	}
	step, ok, err := s.matchTOTP(u.ID, st, req.Code)
	return store.SecondFactorProof{Factor: kudos.SecondFactorTOTP, Step: step}, ok, err
}
