package api

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/auth"
	"kudos/store"
)

// registerPasskeyRoutes adds the routes of a user's passkeys (issue 29):
// registering one (after re-authentication), listing, renaming and
// removing them (after re-authentication).
func (s *Server) registerPasskeyRoutes(v1 fiber.Router) {
	me := v1.Group("/users/me/passkeys", s.requireSession)
	me.Post("/options", s.requireActivated, s.passkeyRegistrationOptions)
	me.Post("", s.requireActivated, s.addPasskey)
	me.Get("", s.listPasskeys)
	me.Patch("/:passkeyId", s.renamePasskey)
	me.Delete("/:passkeyId", s.deletePasskey)
}

// addedPasskey answers a registration: the passkey, and the recovery codes
// that came with it when it is the user's first second factor (shown this
// once; omitted otherwise).
type addedPasskey struct {
	passkeyView
	RecoveryCodes []string `json:"recovery_codes,omitempty"`
}

// passkeyView is a passkey as personal details show it.
type passkeyView struct {
	ID         uuid.UUID  `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
}

func viewPasskey(p kudos.Passkey) passkeyView {
	return passkeyView{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, LastUsedAt: p.LastUsedAt}
}

// passkeyRegistrationOptions starts the registration of a passkey: adding
// a way to sign in is sensitive, so the caller re-authenticates first. The
// options require a resident key and user verification and exclude the
// caller's passkeys (an authenticator holds one of theirs at most).
func (s *Server) passkeyRegistrationOptions(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	rp, err := s.relyingParty()
	if err != nil {
		return err
	}
	wu, err := s.loadWebAuthnUser(c, u.ID)
	if err != nil {
		return err
	}
	wu.name, wu.displayName = u.Email, strings.TrimSpace(u.Firstname+" "+u.Lastname)
	creation, sd, err := rp.BeginRegistration(wu, webauthn.WithExclusions(webauthn.Credentials(wu.credentials).CredentialDescriptors()),
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired))
	if err != nil {
		return err
	}
	out, err := s.saveCeremony(c, &u.ID, kudos.CeremonyRegister, sd, creation.Response)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

type passkeyCreateRequest struct {
	CeremonyID string          `json:"ceremony_id"`
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// addPasskey finishes a registration: the caller's ceremony (once, within
// 5 minutes) and the browser's attestation, verified by the library (RP id,
// origin, challenge, user verification). A ceremony or attestation that
// does not verify is 422 on ceremony_id or credential.
func (s *Server) addPasskey(c fiber.Ctx) error {
	var req passkeyCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	fe := kudos.FieldErrors{}
	addIf(fe, "name", kudos.ValidatePasskeyName(req.Name))
	id := passkeyAssertion{CeremonyID: req.CeremonyID, Credential: req.Credential}.check(fe)
	if err := fe.Err(); err != nil {
		return err
	}
	rp, err := s.relyingParty()
	if err != nil {
		return err
	}
	userID := session(c).UserID
	cer, err := s.DB.TakeCeremony(ctx(c), id, kudos.CeremonyRegister)
	if kudos.ErrorCode(err) == kudos.EUnauthorized || (err == nil && (cer.UserID == nil || *cer.UserID != userID)) {
		return kudos.FieldErrors{"ceremony_id": kudos.FInvalidValue}.Err()
	}
	if err != nil {
		return err
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal(cer.SessionData, &sd); err != nil {
		return err
	}
	wu, err := s.loadWebAuthnUser(c, userID)
	if err != nil {
		return err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(req.Credential)
	if err != nil {
		return s.badAttestation(c, err)
	}
	cred, err := rp.CreateCredential(wu, sd, parsed)
	if err != nil {
		return s.badAttestation(c, err)
	}
	record, err := json.Marshal(cred)
	if err != nil {
		return err
	}
	p := kudos.Passkey{UserID: userID, CredentialID: cred.ID, Name: req.Name, Credential: record}
	codes, hashes := newCodes()
	issued, err := s.DB.AddPasskey(ctx(c), &p, session(c).ID, hashes)
	if err != nil {
		return err
	}
	s.setDeviceCookie(c, userID) // the new factor voided the others
	out := addedPasskey{passkeyView: viewPasskey(p)}
	if issued {
		out.RecoveryCodes = codes.RecoveryCodes
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

// badAttestation logs why a registration was refused and answers 422 on
// credential.
func (s *Server) badAttestation(c fiber.Ctx, err error) error {
	_ = s.refused(c, "attestation", err)
	return kudos.FieldErrors{"credential": kudos.FInvalidValue}.Err()
}

type passkeyList struct {
	Items []passkeyView `json:"items"`
}

// listPasskeys answers the caller's passkeys, oldest first.
func (s *Server) listPasskeys(c fiber.Ctx) error {
	keys, err := s.DB.Passkeys(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	out := passkeyList{Items: make([]passkeyView, 0, len(keys))}
	for _, k := range keys {
		out.Items = append(out.Items, viewPasskey(k))
	}
	return c.JSON(out)
}

type passkeyRenameRequest struct {
	Name string `json:"name"`
}

// renamePasskey renames one of the caller's passkeys (404 for another's).
func (s *Server) renamePasskey(c fiber.Ctx) error {
	id, err := pathUUID(c, "passkeyId")
	if err != nil {
		return err
	}
	var req passkeyRenameRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	fe := kudos.FieldErrors{}
	addIf(fe, "name", kudos.ValidatePasskeyName(req.Name))
	if err := fe.Err(); err != nil {
		return err
	}
	p, err := s.DB.RenamePasskey(ctx(c), session(c).UserID, id, req.Name)
	if err != nil {
		return err
	}
	return c.JSON(viewPasskey(*p))
}

// deletePasskey removes one of the caller's passkeys after
// re-authentication (404 for another's, before asking for anything).
func (s *Server) deletePasskey(c fiber.Ctx) error {
	id, err := pathUUID(c, "passkeyId")
	if err != nil {
		return err
	}
	keys, err := s.DB.Passkeys(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(keys, func(k kudos.Passkey) bool { return k.ID == id }) {
		return kudos.Errorf(kudos.ENotFound, "Not found")
	}
	if _, err := s.reauthenticatedCaller(c); err != nil {
		return err
	}
	if err := s.DB.DeletePasskey(ctx(c), session(c).UserID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// passkeyOptionsRequest optionally names the sign-in challenge a passkey
// is to meet as the second factor.
type passkeyOptionsRequest struct {
	Challenge string `json:"challenge"`
}

// passkeySigninOptions starts a passwordless sign-in: options for any
// discoverable passkey of this site. With a body {challenge} (a sign-in
// waiting for its second factor), the options are for a passkey of that
// challenge's user, to be given to POST /v1/auth/signin/mfa as webauthn; a
// challenge that cannot be met is the one 401. Rate limited per client
// like passwords.
func (s *Server) passkeySigninOptions(c fiber.Ctx) error {
	if err := allow(c, s.limits.signinIP, s.clientKey(c)); err != nil {
		return err
	}
	if len(bytes.TrimSpace(c.Body())) > 0 {
		var req passkeyOptionsRequest
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
		if req.Challenge != "" {
			return s.challengePasskeyOptions(c, req.Challenge)
		}
	}
	out, err := s.beginPasskeyAssertion(c, nil, string(kudos.CeremonySignIn))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// challengePasskeyOptions answers the options of a passkey as the second
// factor of the sign-in challenge token: 401 when it cannot be met (as
// POST /v1/auth/signin/mfa answers), 409 when its user has no passkey.
func (s *Server) challengePasskeyOptions(c fiber.Ctx, token string) error {
	if !auth.ValidTokenShape(token) {
		return errPasskeyRefused()
	}
	userID, err := s.DB.MFAChallengeUser(ctx(c), auth.HashToken(token))
	if err != nil {
		return err
	}
	out, err := s.beginPasskeyAssertion(c, &userID, string(kudos.CeremonySecondFactor))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// stepUpPasskeyOptions answers the options of a passkey of the caller, to
// be given to POST /v1/users/me/mfa/verify as webauthn (a step-up); 409
// when they have none.
func (s *Server) stepUpPasskeyOptions(c fiber.Ctx) error {
	if err := allow(c, s.limits.reauth, session(c).UserID.String()); err != nil {
		return err
	}
	userID := session(c).UserID
	out, err := s.beginPasskeyAssertion(c, &userID, string(kudos.CeremonyStepUp))
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// passkeySignin finishes a passwordless sign-in: 201 with a session as a
// password sign-in answers, whose method and second factor are passkey (a
// user-verified passkey is two factors). Any refusal is the one 401.
func (s *Server) passkeySignin(c fiber.Ctx) error {
	if err := allow(c, s.limits.signinIP, s.clientKey(c)); err != nil {
		return err
	}
	var in passkeyAssertion
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	userID, err := s.finishPasskeyAssertion(c, string(kudos.CeremonySignIn), in)
	if err != nil {
		return err
	}
	return s.startSession(c, userID, store.SignInVia{Method: kudos.SignInPasskey, SecondFactor: kudos.SecondFactorPasskey})
}
