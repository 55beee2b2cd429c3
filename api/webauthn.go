package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/config"
	"kudos/store"
)

// ceremonyTTL is how long a WebAuthn ceremony may take: its options are
// answered once within it, then never again.
const ceremonyTTL = 5 * time.Minute

// newRelyingParty is the WebAuthn relying party of cfg (issue 29): its id is
// the host of KUDOS_PUBLIC_URL and the origins it accepts are the UI
// origins on that host (KUDOS_PUBLIC_URL and, in development, the Vite dev
// server). Browsers refuse an IP address as RP id, so a loopback
// KUDOS_PUBLIC_URL (development, tests) is served as localhost, its twin.
// Resident keys and user verification are required: a passkey alone is
// two factors (something owned, something known or being).
func newRelyingParty(cfg *config.Config) (*webauthn.WebAuthn, error) {
	u, err := url.Parse(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	rpID := u.Hostname()
	if ip := net.ParseIP(rpID); ip != nil && ip.IsLoopback() {
		rpID = "localhost"
	}
	var origins []string
	for _, o := range append([]string{cfg.PublicURL}, cfg.UIOrigins...) {
		ou, err := url.Parse(o)
		if err != nil {
			continue
		}
		h := ou.Hostname()
		if (h == rpID || strings.HasSuffix(h, "."+rpID)) && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	return webauthn.New(&webauthn.Config{
		RPID:          rpID,
		RPDisplayName: "Kudos",
		RPOrigins:     origins,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:        protocol.ResidentKeyRequirementRequired,
			RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification:   protocol.VerificationRequired,
		},
		AttestationPreference: protocol.PreferNoAttestation,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
			Registration: webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
		},
	})
}

// relyingParty returns the server's WebAuthn relying party (built once by
// New from the configuration).
func (s *Server) relyingParty() (*webauthn.WebAuthn, error) {
	if s.rp == nil {
		return nil, errors.New("webauthn: no relying party: " + errString(s.rpErr))
	}
	return s.rp, nil
}

func errString(err error) string {
	if err == nil {
		return "not configured"
	}
	return err.Error()
}

// webauthnUser is a user as the WebAuthn library sees them: a random
// handle (never the user id), names for the authenticator's account
// chooser, and their passkeys' credential records.
type webauthnUser struct {
	handle      []byte
	name        string
	displayName string
	credentials []webauthn.Credential
}

func (u *webauthnUser) WebAuthnID() []byte                         { return u.handle }
func (u *webauthnUser) WebAuthnName() string                       { return u.name }
func (u *webauthnUser) WebAuthnDisplayName() string                { return u.displayName }
func (u *webauthnUser) WebAuthnCredentials() []webauthn.Credential { return u.credentials }

// loadWebAuthnUser reads userID's handle (set at the first call) and the
// credential records of their passkeys.
func (s *Server) loadWebAuthnUser(c fiber.Ctx, userID uuid.UUID) (*webauthnUser, error) {
	handle, err := s.DB.WebAuthnHandle(ctx(c), userID)
	if err != nil {
		return nil, err
	}
	keys, err := s.DB.Passkeys(ctx(c), userID)
	if err != nil {
		return nil, err
	}
	u := &webauthnUser{handle: handle}
	for _, k := range keys {
		var cred webauthn.Credential
		if err := json.Unmarshal(k.Credential, &cred); err != nil {
			return nil, err
		}
		u.credentials = append(u.credentials, cred)
	}
	return u, nil
}

// passkeyOptionsResponse is the answer of every options route: the
// ceremony to give back with the browser's answer, and the options to
// pass to navigator.credentials (the library's
// PublicKeyCredentialCreationOptions or PublicKeyCredentialRequestOptions).
type passkeyOptionsResponse struct {
	CeremonyID uuid.UUID `json:"ceremony_id"`
	PublicKey  any       `json:"public_key"`
}

// passkeyAssertion is the body of a passkey sign-in (or second factor):
// the ceremony of its options and the browser's PublicKeyCredential.
type passkeyAssertion struct {
	CeremonyID string          `json:"ceremony_id"`
	Credential json.RawMessage `json:"credential"`
}

// validate checks that both fields are there (422 otherwise) and returns
// the ceremony id.
func (a passkeyAssertion) validate() (uuid.UUID, error) {
	fe := kudos.FieldErrors{}
	id := a.check(fe)
	return id, fe.Err()
}

// check adds to fe what is missing or malformed and returns the ceremony
// id.
func (a passkeyAssertion) check(fe kudos.FieldErrors) uuid.UUID {
	id := ceremonyID(fe, a.CeremonyID)
	if len(bytes.TrimSpace(a.Credential)) == 0 || string(a.Credential) == "null" {
		fe.Add("credential", kudos.FRequired)
	}
	return id
}

// ceremonyID parses a ceremony_id field.
func ceremonyID(fe kudos.FieldErrors, v string) uuid.UUID {
	if v == "" {
		fe.Add("ceremony_id", kudos.FRequired)
		return uuid.Nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		fe.Add("ceremony_id", kudos.FInvalidValue)
	}
	return id
}

// saveCeremony stores the library's session data of a ceremony that
// expires in ceremonyTTL and answers its options.
func (s *Server) saveCeremony(c fiber.Ctx, userID *uuid.UUID, purpose kudos.CeremonyPurpose, sd *webauthn.SessionData, options any) (passkeyOptionsResponse, error) {
	data, err := json.Marshal(sd)
	if err != nil {
		return passkeyOptionsResponse{}, err
	}
	cer := store.Ceremony{UserID: userID, Purpose: purpose, SessionData: data, ExpiresAt: s.DB.Now().Add(ceremonyTTL)}
	if err := s.DB.CreateCeremony(ctx(c), &cer); err != nil {
		return passkeyOptionsResponse{}, err
	}
	return passkeyOptionsResponse{CeremonyID: cer.ID, PublicKey: options}, nil
}

// beginPasskeyAssertion starts an assertion ceremony for purpose (signin,
// second_factor or step_up): userID nil asks for any discoverable passkey
// of this site (a passwordless sign-in: no allowCredentials), else for one
// of that user's passkeys (EConflict when they have none). User
// verification is required.
func (s *Server) beginPasskeyAssertion(c fiber.Ctx, userID *uuid.UUID, purpose string) (passkeyOptionsResponse, error) {
	p := kudos.CeremonyPurpose(purpose)
	if !kudos.ValidAssertionPurpose(p) || (userID == nil && p != kudos.CeremonySignIn) {
		return passkeyOptionsResponse{}, errors.New("webauthn: no assertion of purpose " + purpose + " without a user")
	}
	rp, err := s.relyingParty()
	if err != nil {
		return passkeyOptionsResponse{}, err
	}
	uv := webauthn.WithUserVerification(protocol.VerificationRequired)
	var (
		assertion *protocol.CredentialAssertion
		sd        *webauthn.SessionData
	)
	if userID == nil {
		assertion, sd, err = rp.BeginDiscoverableLogin(uv)
	} else {
		var u *webauthnUser
		if u, err = s.loadWebAuthnUser(c, *userID); err != nil {
			return passkeyOptionsResponse{}, err
		}
		if len(u.credentials) == 0 {
			return passkeyOptionsResponse{}, kudos.Errorf(kudos.EConflict, "you have no passkey")
		}
		assertion, sd, err = rp.BeginLogin(u, uv)
	}
	if err != nil {
		return passkeyOptionsResponse{}, err
	}
	return s.saveCeremony(c, userID, p, sd, assertion.Response)
}

// errPasskeyRefused is the one answer to an assertion that does not sign
// in, whatever the reason (unknown passkey, wrong signature, reused or
// expired ceremony, counter gone backwards): it tells an attacker nothing.
func errPasskeyRefused() error { return kudos.Errorf(kudos.EUnauthorized, "Unauthorized") }

// finishPasskeyAssertion checks the assertion in of a ceremony begun by
// beginPasskeyAssertion with the same purpose and returns the user whose
// passkey made it. The ceremony is used once (whatever the outcome) within
// ceremonyTTL; for a ceremony of a user (second_factor, step_up) the
// passkey must be theirs. The library verifies the assertion (RP id,
// origin, challenge, signature, user verification); the passkey's sign
// count must move forward (a cloned authenticator's goes back) and is
// stored with last_used_at. Every refusal is errPasskeyRefused.
func (s *Server) finishPasskeyAssertion(c fiber.Ctx, purpose string, in passkeyAssertion) (userID uuid.UUID, err error) {
	id, err := in.validate()
	if err != nil {
		return uuid.Nil, err
	}
	rp, err := s.relyingParty()
	if err != nil {
		return uuid.Nil, err
	}
	cer, err := s.DB.TakeCeremony(ctx(c), id, kudos.CeremonyPurpose(purpose))
	if err != nil {
		return uuid.Nil, err
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal(cer.SessionData, &sd); err != nil {
		return uuid.Nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(in.Credential)
	if err != nil {
		return uuid.Nil, s.refused(c, "parse", err)
	}
	key, err := s.DB.PasskeyByCredentialID(ctx(c), parsed.RawID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return uuid.Nil, errPasskeyRefused()
	}
	if err != nil {
		return uuid.Nil, err
	}
	if cer.UserID != nil && *cer.UserID != key.UserID {
		return uuid.Nil, errPasskeyRefused()
	}
	u, err := s.loadWebAuthnUser(c, key.UserID)
	if err != nil {
		return uuid.Nil, err
	}
	var cred *webauthn.Credential
	if cer.UserID == nil {
		_, cred, err = rp.ValidatePasskeyLogin(func(_, userHandle []byte) (webauthn.User, error) {
			if !bytes.Equal(userHandle, u.handle) {
				return nil, errors.New("the user handle is not the passkey owner's")
			}
			return u, nil
		}, sd, parsed)
	} else {
		cred, err = rp.ValidateLogin(u, sd, parsed)
	}
	if err != nil {
		return uuid.Nil, s.refused(c, "verify", err)
	}
	if cred.Authenticator.CloneWarning {
		return uuid.Nil, s.refused(c, "counter", errors.New("the sign count did not move forward"))
	}
	record, err := json.Marshal(cred)
	if err != nil {
		return uuid.Nil, err
	}
	if err := s.DB.PasskeyUsed(ctx(c), key.ID, record, cred.Authenticator.SignCount); err != nil {
		return uuid.Nil, err
	}
	return key.UserID, nil
}

// refused logs why an assertion was refused (for the operator) and
// answers errPasskeyRefused.
func (s *Server) refused(c fiber.Ctx, step string, err error) error {
	var perr *protocol.Error
	detail := err.Error()
	if errors.As(err, &perr) {
		detail = perr.Details + " " + perr.DevInfo
	}
	s.Log.InfoContext(ctx(c), "passkey refused", "step", step, "detail", detail)
	return errPasskeyRefused()
}
