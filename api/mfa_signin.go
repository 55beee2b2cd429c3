package api

import (
	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/auth"
	"kudos/store"
)

// challengeResponse is the 202 answer of a sign-in whose first factor was
// met by a user with a second factor: no session yet, a challenge token
// (5 minutes, a few tries, once) and the methods that meet it.
type challengeResponse struct {
	MFARequired bool     `json:"mfa_required"`
	Challenge   string   `json:"challenge"`
	Methods     []string `json:"methods"`
}

// callbackChallenge is the Google callback's answer when a second factor
// is due.
type callbackChallenge struct {
	Scope string `json:"scope"`
	Email string `json:"email"`
	challengeResponse
}

// challenge stores a sign-in challenge for in's user (only the hash of its
// token) and returns its answer.
func (s *Server) challenge(c fiber.Ctx, in *store.SignedIn) (challengeResponse, error) {
	token := randomString()
	if err := s.DB.CreateMFAChallenge(ctx(c), auth.HashToken(token), in.UserID, in.FirstFactor); err != nil {
		return challengeResponse{}, err
	}
	return challengeResponse{MFARequired: true, Challenge: token, Methods: in.MFA.Methods()}, nil
}

// signinMFARequest meets a sign-in challenge with a code or a recovery
// code.
type signinMFARequest struct {
	Challenge string `json:"challenge"`
	factorRequest
}

// signinMFA meets a sign-in challenge (POST /v1/auth/signin/mfa): 201 with
// a session exactly as a sign-in, recording the first factor and the
// second. An unknown, expired, used or exhausted challenge and a wrong code
// are all 401 with the same message; each try counts against the
// challenge (kudos.MFAChallengeTries), the client's sign-in limit and the
// user's limit of second factors tried (one who has the password cannot
// open challenge after challenge to guess codes; a browser that signed in
// as the user before is exempt, so they keep getting in).
func (s *Server) signinMFA(c fiber.Ctx) error {
	if err := allow(c, s.limits.signinIP, s.clientKey(c)); err != nil {
		return err
	}
	var req signinMFARequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	if req.Challenge == "" {
		fe.Add("challenge", kudos.FRequired)
	}
	req.validate(fe, true)
	if err := fe.Err(); err != nil {
		return err
	}
	refused := kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	if !auth.ValidTokenShape(req.Challenge) {
		return refused
	}
	ch, err := s.DB.TryMFAChallenge(ctx(c), auth.HashToken(req.Challenge))
	if err != nil {
		return err
	}
	if !s.knownDevice(c, ch.UserID) {
		if err := allow(c, s.limits.secondFactor, ch.UserID.String()); err != nil {
			return err
		}
	}
	u, err := s.DB.UserByID(ctx(c), ch.UserID)
	if err != nil {
		return err
	}
	p, ok, err := s.secondFactorProof(c, u, req.factorRequest, kudos.CeremonySecondFactor)
	if err != nil {
		return err
	}
	if !ok {
		return refused
	}
	in, err := s.DB.CompleteMFAChallenge(ctx(c), ch, p, s.Config.SessionTTL)
	if err != nil {
		return err
	}
	if len(p.Mails) > 0 {
		s.Outbox.Kick()
	}
	return s.signedIn(c, in)
}
