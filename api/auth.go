package api

import (
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

// registerAuthRoutes adds every /v1/auth route of SPEC §7.
func (s *Server) registerAuthRoutes(r fiber.Router) {
	r.Use(s.withClient)
	r.Post("/signup", s.signup)
	r.Post("/signin", s.signin)
	r.Post("/signin/mfa", s.signinMFA)
	r.Post("/signout", s.requireSession, s.signout)
	r.Put("/activate-user", s.activateUser)
	r.Post("/activation-token", s.resendActivation)
	r.Post("/password-reset-token", s.requestPasswordReset)
	r.Post("/reset-password", s.resetPassword)
	r.Post("/oidc-signup", s.oidcSignup)
	r.Post("/oidc-signin", s.oidcSignin)
	r.Post("/oidc-reauth", s.requireSession, s.oidcReauth)
	r.Put("/callback", s.oidcCallback)
	r.Post("/passkey/options", s.passkeySigninOptions)
	r.Post("/passkey", s.passkeySignin)
}

type signupRequest struct {
	Firstname         string `json:"firstname"`
	Lastname          string `json:"lastname"`
	Email             string `json:"email"`
	Password          string `json:"password"`
	OptInMarketing    bool   `json:"opt_in_marketing"`
	OptInTermsOfUse   bool   `json:"opt_in_terms_of_use"`
	PreferredLanguage string `json:"preferred_language"`
	RootDomain        string `json:"root_domain"`
	// InvitationToken, from an invitation's link, makes the sign-up join
	// that account (invitedSignup).
	InvitationToken string `json:"invitation_token"`
	// BrowserKey is a random key the signing-up browser keeps: the
	// activation link signs in only a browser that sends it again.
	BrowserKey string `json:"browser_key"`
}

type emailResponse struct {
	Email string `json:"email"`
}

// sessionResponse is the answer of every call that signs the user in.
type sessionResponse struct {
	Token       string `json:"token"`
	TokenExpiry string `json:"token_expiry"`
	// AccountID is the account to open; "" for a user being deleted who
	// belongs to none (issue 35).
	AccountID string `json:"account_id"`
}

func (s *Server) signup(c fiber.Ctx) error {
	if err := allow(c, s.limits.publicIP, s.clientKey(c)); err != nil {
		return err
	}
	var req signupRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Email = kudos.NormalizeEmail(req.Email)
	req.Firstname, req.Lastname = strings.TrimSpace(req.Firstname), strings.TrimSpace(req.Lastname)
	fe := kudos.FieldErrors{}
	addIf(fe, "firstname", kudos.ValidateName(req.Firstname))
	addIf(fe, "lastname", kudos.ValidateName(req.Lastname))
	addIf(fe, "email", kudos.ValidateEmail(req.Email))
	addIf(fe, "password", kudos.ValidatePassword(req.Password))
	if !req.OptInTermsOfUse {
		fe.Add("opt_in_terms_of_use", kudos.FMustAcceptTerms)
	}
	lang := s.language(fe, req.PreferredLanguage)
	s.rootDomain(fe, req.RootDomain) // checked for the contract; mail links use KUDOS_PUBLIC_URL
	browser := browserHash(fe, req.BrowserKey)
	if err := fe.Err(); err != nil {
		return err
	}
	// Hash before looking at the address, so that a taken address answers
	// in the same time as a new one.
	hash, err := s.Hasher.Hash(ctx(c), req.Password)
	if err != nil {
		return err
	}
	u := kudos.User{Email: req.Email, Firstname: req.Firstname, Lastname: req.Lastname, PasswordHash: hash,
		PreferredLanguage: lang, OptInMarketing: req.OptInMarketing, OptInTermsOfUse: true}
	if req.InvitationToken != "" {
		return s.invitedSignup(c, u, req.InvitationToken)
	}
	token := s.activationToken(auth.NewKey(), req.Email, lang, req.Firstname, "")
	token.BrowserHash = browser
	_, _, err = s.DB.CreateUser(ctx(c), store.NewUser{
		User:              u,
		AccountName:       accountName(req.Firstname, req.Lastname),
		Trial:             s.newTrial(),
		Token:             token,
		StartSubscription: dispatch.SubscriptionStart,
	})
	if kudos.ErrorCode(err) == kudos.EConflict {
		err = s.noticeExistingUser(c, req.Email)
	}
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.Status(fiber.StatusCreated).JSON(emailResponse{Email: req.Email})
}

// noticeExistingUser tells the owner of an address that someone tried to sign
// up with it. The caller gets the same answer as a new sign-up.
func (s *Server) noticeExistingUser(c fiber.Ctx, email string) error {
	u, err := s.DB.UserByEmail(ctx(c), email)
	if err != nil {
		return err
	}
	m := dispatch.Mail(kudos.MailRequest{Key: auth.NewKey(), Purpose: kudos.MailSignupExisting, To: u.Email,
		Language: u.PreferredLanguage, Name: u.Firstname})
	if ok, err := s.mailAllowed(ctx(c), m); !ok || err != nil {
		return err
	}
	return s.DB.Enqueue(ctx(c), m)
}

// newTrial is the subscription of a new account (the subscription workflow
// takes it over from there).
func (s *Server) newTrial() kudos.Subscription {
	expires := s.DB.Now().Add(s.Config.TrialDuration).UTC().Truncate(time.Second)
	return kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusActive, ShowOnboarding: true,
		TrialsLeft: s.Config.TrialRecordings, TrialExpiresAt: &expires}
}

// activationToken makes the activation token (stored as a hash) and the mail
// that carries it to to (the mail stores only the key the token derives
// from). newEmail is set for an e-mail change.
func (s *Server) activationToken(key, to, lang, name, newEmail string) store.NewToken {
	token := s.Tokens.Token(kudos.TokenActivation, key)
	return store.NewToken{
		Hash: auth.HashToken(token), Purpose: kudos.TokenActivation, NewEmail: newEmail,
		ExpiresAt: s.DB.Now().Add(kudos.TokenTTL[kudos.TokenActivation]),
		Mail:      dispatch.Mail(kudos.MailRequest{Key: key, Purpose: kudos.MailActivation, To: to, Language: lang, Name: name}),
	}
}

type signinRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (s *Server) signin(c fiber.Ctx) error {
	ip := s.clientKey(c)
	if err := allow(c, s.limits.signinIP, ip); err != nil {
		return err
	}
	var req signinRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	req.Email = kudos.NormalizeEmail(req.Email)
	fe := kudos.FieldErrors{}
	addIf(fe, "email", kudos.ValidateEmail(req.Email))
	if req.Password == "" {
		fe.Add("password", kudos.FRequired)
	} else if len(req.Password) > kudos.PasswordMaxLength {
		fe.Add("password", kudos.FTooLong)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	// Per (e-mail, client) first: a client past its own limit takes nothing
	// from the e-mail's shared ceiling, so it cannot lock the owner out.
	if err := allow(c, s.limits.signinEmailClient, req.Email+"\x00"+ip); err != nil {
		return err
	}
	hash := ""
	u, err := s.DB.UserByEmail(ctx(c), req.Email)
	switch kudos.ErrorCode(err) {
	case "":
		hash = u.PasswordHash
	case kudos.ENotFound: // verify against the dummy hash: same time, same answer
	default:
		return err
	}
	// The shared ceiling of the e-mail, but for a browser that signed in
	// as its owner before: a few networks flooding it cannot lock them out.
	if u == nil || !s.knownDevice(c, u.ID) {
		if err := allow(c, s.limits.signinEmail, req.Email); err != nil {
			return err
		}
	}
	ok, err := s.Hasher.Verify(ctx(c), req.Password, hash)
	if err != nil {
		return err
	}
	if !ok || u == nil {
		return kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	return s.startSession(c, u.ID, store.SignInVia{Method: kudos.SignInPassword})
}

// startSession creates a session for userID and answers 201 with its token.
func (s *Server) startSession(c fiber.Ctx, userID uuid.UUID, via store.SignInVia) error {
	in, err := s.DB.SignIn(ctx(c), userID, s.Config.SessionTTL, via)
	if err != nil {
		return err
	}
	return s.signedIn(c, in)
}

// signedIn answers 201 with the token of a new session, or 202 with a
// sign-in challenge when the user's second factor is due (no session yet).
func (s *Server) signedIn(c fiber.Ctx, in *store.SignedIn) error {
	if in.SecondFactorDue {
		ch, err := s.challenge(c, in)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(ch)
	}
	sr, err := s.sessionAnswer(c, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(sr)
}

// sessionAnswer signs the token of a new session and renews the browser's
// device cookie (setDeviceCookie). A user who belongs to no
// account (they left or were removed from their only team) is given one
// of their own, on a trial, to open; but for a user whose own deletion is
// scheduled (issue 35): account_id is "" and the UI shows their deletion.
func (s *Server) sessionAnswer(c fiber.Ctx, in *store.SignedIn) (sessionResponse, error) {
	if in.AccountID == uuid.Nil {
		id, err := s.ensureAccount(c, in.UserID)
		if err != nil {
			return sessionResponse{}, err
		}
		in.AccountID = id
	}
	token, err := s.Sessions.Issue(in.Session)
	if err == nil {
		s.setDeviceCookie(c, in.UserID)
	}
	account := ""
	if in.AccountID != uuid.Nil {
		account = in.AccountID.String()
	}
	return sessionResponse{Token: token, TokenExpiry: in.Session.ExpiresAt.Format(time.RFC3339), AccountID: account}, err
}

// ensureAccount is the account userID opens (store.EnsureAccount): one of
// their own, on a trial, when they belong to none; uuid.Nil while their
// own deletion is scheduled.
func (s *Server) ensureAccount(c fiber.Ctx, userID uuid.UUID) (uuid.UUID, error) {
	id, err := s.DB.EnsureAccount(ctx(c), userID, store.NewAccount{Name: "My account", Trial: s.newTrial(),
		StartSubscription: dispatch.SubscriptionStart})
	if err == nil {
		s.Outbox.Kick()
	}
	return id, err
}

func (s *Server) signout(c fiber.Ctx) error {
	if err := s.DB.RevokeSession(ctx(c), session(c).ID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// browserHash validates a browser_key (the random key a signing-up browser
// keeps, of a token's shape; empty for none) and returns its hash.
func browserHash(fe kudos.FieldErrors, key string) []byte {
	if key == "" {
		return nil
	}
	if !auth.ValidTokenShape(key) {
		fe.Add("browser_key", kudos.FInvalidValue)
		return nil
	}
	return auth.HashToken(key)
}

// addIf records code for field when it is not empty.
func addIf(fe kudos.FieldErrors, field, code string) {
	if code != "" {
		fe.Add(field, code)
	}
}

// language validates a preferred_language (empty means en).
func (s *Server) language(fe kudos.FieldErrors, lang string) string {
	if lang == "" {
		return kudos.Languages[0]
	}
	if !kudos.ValidLanguage(lang) {
		fe.Add("preferred_language", kudos.FInvalidValue)
	}
	return lang
}

// rootDomain validates a root_domain against the allowed UI origins (the
// Google sign-in returns there). Empty means the first configured origin.
func (s *Server) rootDomain(fe kudos.FieldErrors, root string) string {
	if root == "" {
		return s.Config.UIOrigins[0]
	}
	u, err := url.Parse(root)
	if err != nil || !s.Config.AllowedOrigin(root) || u.Path != "" && u.Path != "/" {
		fe.Add("root_domain", kudos.FInvalidValue)
		return ""
	}
	return strings.TrimRight(root, "/")
}

// accountName is the name of a new account until the owner sets one.
func accountName(first, last string) string {
	name := strings.TrimSpace(first + " " + last)
	if len([]rune(name)) < kudos.AccountNameMinLength || first == "" || first == "Unknown" {
		return "My account"
	}
	return name
}
