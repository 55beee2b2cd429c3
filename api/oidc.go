package api

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

// oidcFlowTTL is how long a started Google sign-in may take.
const oidcFlowTTL = 10 * time.Minute

// Scopes of a Google sign-in flow (SPEC §4).
const (
	scopeSignup = "signup"
	scopeSignin = "signin"
	// scopeReauth is a step-up: a signed-in user without a password signs
	// in with Google again before a sensitive change (stepUp).
	scopeReauth = "reauth"
)

type oidcSignupRequest struct {
	OptInMarketing    bool   `json:"opt_in_marketing"`
	OptInTermsOfUse   bool   `json:"opt_in_terms_of_use"`
	PreferredLanguage string `json:"preferred_language"`
	RootDomain        string `json:"root_domain"`
	// InvitationToken, from a team invitation's link, makes a new user
	// join that account (oidcInvitedUser).
	InvitationToken string `json:"invitation_token"`
	// BrowserKey binds the activation link to this browser (signupRequest).
	BrowserKey string `json:"browser_key"`
}

type oidcSigninRequest struct {
	PreferredLanguage string `json:"preferred_language"`
	RootDomain        string `json:"root_domain"`
}

type authURLResponse struct {
	AuthURL string `json:"auth_url"`
}

type callbackResponse struct {
	Scope string `json:"scope"`
	Email string `json:"email"`
	sessionResponse
}

func (s *Server) oidcSignup(c fiber.Ctx) error {
	var req oidcSignupRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	if !req.OptInTermsOfUse {
		fe.Add("opt_in_terms_of_use", kudos.FMustAcceptTerms)
	}
	lang := s.language(fe, req.PreferredLanguage)
	root := s.rootDomain(fe, req.RootDomain)
	var invitation []byte
	if req.InvitationToken != "" {
		if !auth.ValidTokenShape(req.InvitationToken) {
			fe.Add("invitation_token", kudos.FInvalidValue)
		}
		invitation = auth.HashToken(req.InvitationToken)
	}
	browser := browserHash(fe, req.BrowserKey)
	if err := fe.Err(); err != nil {
		return err
	}
	return s.startOIDC(c, store.OIDCFlow{Scope: scopeSignup, OptInMarketing: req.OptInMarketing, OptInTermsOfUse: true,
		PreferredLanguage: lang, InvitationHash: invitation, BrowserHash: browser}, root)
}

func (s *Server) oidcSignin(c fiber.Ctx) error {
	var req oidcSigninRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	lang := s.language(fe, req.PreferredLanguage)
	root := s.rootDomain(fe, req.RootDomain)
	if err := fe.Err(); err != nil {
		return err
	}
	return s.startOIDC(c, store.OIDCFlow{Scope: scopeSignin, PreferredLanguage: lang}, root)
}

// startOIDC stores a new flow (state hashed, nonce, PKCE verifier) and answers
// with the provider URL to send the browser to.
func (s *Server) startOIDC(c fiber.Ctx, f store.OIDCFlow, root string) error {
	if err := allow(c, s.limits.publicIP, s.clientKey(c)); err != nil {
		return err
	}
	state, nonce, verifier := randomString(), randomString(), randomString()
	f.StateHash, f.Nonce, f.Verifier = auth.HashToken(state), nonce, verifier
	f.RedirectURL = root + "/auth/callback"
	f.ExpiresAt = s.DB.Now().Add(oidcFlowTTL)
	if err := s.DB.CreateOIDCFlow(ctx(c), f); err != nil {
		return err
	}
	var maxAge time.Duration
	if f.Scope == scopeReauth {
		maxAge = stepUpMaxAge
	}
	u, err := s.OIDC.AuthURL(ctx(c), f.RedirectURL, state, nonce, verifier, maxAge)
	if err != nil {
		s.Log.Error("google sign-in unavailable", "err", err)
		return kudos.Errorf(kudos.EUnavailable, "Google sign-in is unavailable right now, please try again later")
	}
	return c.Status(fiber.StatusCreated).JSON(authURLResponse{AuthURL: u})
}

// oidcCallback finishes a Google sign-in: the flow named by state is taken
// (single use), the code is exchanged with its PKCE verifier, the ID token's
// audience and nonce are verified, and the user is found, linked or created.
func (s *Server) oidcCallback(c fiber.Ctx) error {
	state, code, redirect := c.Query("state"), c.Query("code"), c.Query("redirect_url")
	if state == "" || code == "" {
		return kudos.Errorf(kudos.EInternal, "Authorization code or state is missing from URL")
	}
	if len(state) > 256 || len(code) > 2048 {
		return kudos.Errorf(kudos.EBadRequest, "Bad request response")
	}
	f, err := s.DB.TakeOIDCFlow(ctx(c), auth.HashToken(state))
	if err != nil {
		return err
	}
	// The redirect must be the one the flow was started with (an allowed
	// origin): no open redirect, no code replay from elsewhere.
	if redirect != "" && strings.TrimRight(redirect, "/") != f.RedirectURL {
		return kudos.FieldErrors{"redirect_url": kudos.FInvalidValue}.Err()
	}
	id, err := s.OIDC.Exchange(ctx(c), f.RedirectURL, code, f.Verifier, f.Nonce)
	if err != nil {
		s.Log.Warn("google sign-in failed", "request_id", requestID(c), "err", err)
		return kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	// An address Google has not verified proves nothing: it neither signs
	// anyone in nor creates or links a user, and the answer is the same
	// whether or not it is registered (issue 27).
	if !id.EmailVerified {
		return kudos.Errorf(kudos.EEmailNotVerified, "Google has not verified this e-mail address")
	}
	email := kudos.NormalizeEmail(id.Email)
	if kudos.ValidateEmail(email) != "" {
		return kudos.Errorf(kudos.EUnauthorized, "Google did not share a usable e-mail address")
	}
	if f.Scope == scopeReauth {
		return s.finishStepUp(c, f, id, email)
	}
	u, err := s.DB.UserByOIDC(ctx(c), id.Issuer, id.Subject)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		u, err = s.DB.UserByEmail(ctx(c), email)
		switch {
		case err == nil:
			in, err := s.DB.LinkOIDC(ctx(c), u.ID, id.Issuer, id.Subject, s.Config.SessionTTL)
			if err != nil {
				return err
			}
			return s.callbackAnswer(c, scopeSignin, u.Email, in)
		case kudos.ErrorCode(err) == kudos.ENotFound && f.Scope == scopeSignup:
			return s.oidcCreateUser(c, f, id, email)
		case kudos.ErrorCode(err) == kudos.ENotFound:
			return kudos.Errorf(kudos.ENotFound, "no account uses this Google account yet; please sign up first")
		}
	}
	if err != nil {
		return err
	}
	in, err := s.DB.SignIn(ctx(c), u.ID, s.Config.SessionTTL, store.SignInVia{Method: kudos.SignInGoogle})
	if err != nil {
		return err
	}
	return s.callbackAnswer(c, scopeSignin, u.Email, in)
}

// oidcCreateUser signs up a new user from a Google identity. As for every
// sign-up (SPEC §4) the address is confirmed by mail before the dashboard
// opens.
func (s *Server) oidcCreateUser(c fiber.Ctx, f *store.OIDCFlow, id *auth.Identity, email string) error {
	first, last := oidcName(id)
	if f.InvitationHash != nil {
		return s.oidcInvitedUser(c, f, id, kudos.User{Email: email, Firstname: first, Lastname: last,
			PreferredLanguage: f.PreferredLanguage, OptInMarketing: f.OptInMarketing, OptInTermsOfUse: true, SocialLogin: true})
	}
	// The activation link signs in the browser that started the sign-up.
	token := s.activationToken(auth.NewKey(), email, f.PreferredLanguage, first, "")
	token.BrowserHash = f.BrowserHash
	userID, _, err := s.DB.CreateUser(ctx(c), store.NewUser{
		User: kudos.User{Email: email, Firstname: first, Lastname: last, PreferredLanguage: f.PreferredLanguage,
			OptInMarketing: f.OptInMarketing, OptInTermsOfUse: true, SocialLogin: true},
		AccountName: accountName(first, last), Trial: s.newTrial(),
		OIDCIssuer: id.Issuer, OIDCSubject: id.Subject,
		Token:             token,
		StartSubscription: dispatch.SubscriptionStart,
	})
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	in, err := s.DB.SignIn(ctx(c), userID, s.Config.SessionTTL, store.SignInVia{Method: kudos.SignInGoogle})
	if err != nil {
		return err
	}
	return s.callbackAnswer(c, scopeSignup, email, in)
}

// oidcName is the name a Google identity gives. A name Google does not
// give (or gives unusable) is stored empty, not as a made-up "Unknown":
// mails greet with a plain "Hello," and onboarding asks for it (SPEC's
// display rule shows the e-mail meanwhile).
func oidcName(id *auth.Identity) (first, last string) {
	first, last = strings.TrimSpace(id.GivenName), strings.TrimSpace(id.FamilyName)
	if kudos.ValidateName(first) != "" {
		first = ""
	}
	if kudos.ValidateName(last) != "" {
		last = ""
	}
	return first, last
}

// oidcInvitedUser signs up u from a Google sign-up started on an
// invitation's accept page: it joins the inviting account like a sign-up
// from the link (invitedSignup); oidcCallback has refused an address Google
// did not verify.
func (s *Server) oidcInvitedUser(c fiber.Ctx, f *store.OIDCFlow, id *auth.Identity, u kudos.User) error {
	in, err := s.DB.CreateInvitedUser(ctx(c), store.InvitedUser{User: u, OIDCIssuer: id.Issuer, OIDCSubject: id.Subject,
		InvitationHash: f.InvitationHash, SessionTTL: s.Config.SessionTTL, Outbox: s.team()})
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return s.callbackAnswer(c, scopeSignup, u.Email, in)
}

func (s *Server) callbackAnswer(c fiber.Ctx, scope, email string, in *store.SignedIn) error {
	if in.SecondFactorDue {
		ch, err := s.challenge(c, in)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(callbackChallenge{Scope: scope, Email: email, challengeResponse: ch})
	}
	sr, err := s.sessionAnswer(c, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(callbackResponse{Scope: scope, Email: email, sessionResponse: sr})
}

// randomString returns 256 random bits, base64url.
func randomString() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
