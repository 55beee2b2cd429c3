package api

import (
	"context"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

type activateRequest struct {
	Token string `json:"token"`
	// BrowserKey is the key the signing-up browser kept (signupRequest).
	BrowserKey string `json:"browser_key"`
}

type emailRequest struct {
	Email string `json:"email"`
}

type resetPasswordRequest struct {
	Password string `json:"password"`
	Token    string `json:"token"`
}

// activateUser consumes an activation token: the address is confirmed
// wherever the link is opened, but the user is signed in (201) only in the
// browser that signed up, which sends its browser key again; anywhere else
// the answer is 200 without a session, and the user signs in (issue 27).
func (s *Server) activateUser(c fiber.Ctx) error {
	var req activateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	if req.Token == "" {
		fe.Add("token", kudos.FRequired)
	}
	browser := browserHash(fe, req.BrowserKey)
	if err := fe.Err(); err != nil {
		return err
	}
	if !auth.ValidTokenShape(req.Token) {
		return kudos.Errorf(kudos.ENotFound, "this link is invalid or has expired")
	}
	in, err := s.DB.Activate(ctx(c), auth.HashToken(req.Token), browser, s.Config.SessionTTL)
	if err != nil {
		return err
	}
	if in.Session == nil {
		return c.JSON(fiber.Map{})
	}
	return s.signedIn(c, in)
}

// resendActivation queues a fresh activation link for the address and
// answers 202. Like a reset request (queueLinkRequest), the request does the
// same work for an unknown, an activated and an unactivated address; the
// relay does the rest (issueActivation).
func (s *Server) resendActivation(c fiber.Ctx) error {
	return s.queueLinkRequest(c, dispatch.ActivationRequest)
}

// issueActivation does a queued activation request: an unactivated user
// gets a fresh activation link (within its mail limit), sent to the new
// address while an e-mail change awaits confirmation (whichever of the two
// addresses was typed); an unknown or activated address gets nothing.
func (s *Server) issueActivation(ctx context.Context, req dispatch.ResetRequest) error {
	u, err := s.DB.UserByEmail(ctx, req.Email)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		u, err = s.DB.UserByPendingEmail(ctx, req.Email)
	}
	if kudos.ErrorCode(err) == kudos.ENotFound || (err == nil && u.Activated) {
		return nil
	} else if err != nil {
		return err
	}
	pending, err := s.DB.PendingEmail(ctx, u.ID)
	if err != nil {
		return err
	}
	to := u.Email
	if pending != "" {
		to = pending
	}
	t := s.activationToken(req.Key, to, u.PreferredLanguage, u.Firstname, pending)
	if pending == "" {
		// Opened in the browser that signed up, the new link signs it in.
		if t.BrowserHash, err = s.DB.SignupBrowserHash(ctx, u.ID); err != nil {
			return err
		}
	} else {
		// A pending address that belongs to someone else gets the notice,
		// never a link (the change was answered as if it were free).
		taken, err := s.DB.PendingEmailTaken(ctx, u.ID, pending)
		if err != nil {
			return err
		}
		if taken {
			owner, err := s.DB.UserByEmail(ctx, pending)
			if err != nil {
				return err
			}
			t.Mail = dispatch.Mail(kudos.MailRequest{Key: req.Key, Purpose: kudos.MailSignupExisting, To: owner.Email,
				Language: owner.PreferredLanguage, Name: owner.Firstname})
		}
	}
	return s.issueToken(ctx, u, t)
}

// requestPasswordReset queues a reset link for the address and answers
// 202 (queueLinkRequest); the relay does the rest (issuePasswordReset).
func (s *Server) requestPasswordReset(c fiber.Ctx) error {
	return s.queueLinkRequest(c, dispatch.PasswordResetRequest)
}

// queueLinkRequest is the shared body of the "mail me a link" routes:
// validate the address, queue the request (entry) and answer 202. The
// request does the same work whether or not the address is registered
// (one outbox entry of the same shape), so neither its answer nor its
// timing tells which addresses exist; the look-up, the token and the mail
// (rate limited silently per purpose and recipient: mailAllowed) come off
// the request.
func (s *Server) queueLinkRequest(c fiber.Ctx, entry func(email, key string) store.OutboxEntry) error {
	email, err := s.mailRequestEmail(c)
	if err != nil {
		return err
	}
	if err := s.DB.Enqueue(ctx(c), entry(email, auth.NewKey())); err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{})
}

// issuePasswordReset does a queued reset request: a registered address gets
// a reset link (within its mail limit); an unknown one nothing.
func (s *Server) issuePasswordReset(ctx context.Context, req dispatch.ResetRequest) error {
	u, err := s.DB.UserByEmail(ctx, req.Email)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	} else if err != nil {
		return err
	}
	token := s.Tokens.Token(kudos.TokenPasswordReset, req.Key)
	return s.issueToken(ctx, u, store.NewToken{
		Hash: auth.HashToken(token), Purpose: kudos.TokenPasswordReset,
		ExpiresAt: s.DB.Now().Add(kudos.TokenTTL[kudos.TokenPasswordReset]),
		Mail: dispatch.Mail(kudos.MailRequest{Key: req.Key, Purpose: kudos.MailPasswordReset, To: u.Email,
			Language: u.PreferredLanguage, Name: u.Firstname}),
	})
}

// issueToken stores a token for u with its mail, unless the mail's limit
// (mailAllowed) drops it silently.
func (s *Server) issueToken(ctx context.Context, u *kudos.User, t store.NewToken) error {
	if ok, err := s.mailAllowed(ctx, t.Mail); err != nil || !ok {
		return err
	}
	if err := s.DB.CreateToken(ctx, u.ID, t); err != nil {
		return err
	}
	s.Outbox.Kick()
	return nil
}

// mailRequestEmail limits a "mail me a link" request per client and reads
// its valid, normalised address.
func (s *Server) mailRequestEmail(c fiber.Ctx) (string, error) {
	if err := allow(c, s.limits.publicIP, s.clientKey(c)); err != nil {
		return "", err
	}
	var req emailRequest
	if err := decodeJSON(c, &req); err != nil {
		return "", err
	}
	email := kudos.NormalizeEmail(req.Email)
	if code := kudos.ValidateEmail(email); code != "" {
		return "", kudos.FieldErrors{"email": code}.Err()
	}
	return email, nil
}

// resetPassword sets a new password with a reset token and ends every
// session; the browser is given a fresh device cookie (the others are void). It is limited per client, and the token is looked up before the
// new password is hashed, so that junk tokens cost no argon2id time.
func (s *Server) resetPassword(c fiber.Ctx) error {
	if err := allow(c, s.limits.resetIP, s.clientKey(c)); err != nil {
		return err
	}
	var req resetPasswordRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	addIf(fe, "password", kudos.ValidatePassword(req.Password))
	if req.Token == "" {
		fe.Add("token", kudos.FRequired)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if !auth.ValidTokenShape(req.Token) {
		return kudos.Errorf(kudos.ENotFound, "this link is invalid or has expired")
	}
	if err := s.DB.CheckToken(ctx(c), kudos.TokenPasswordReset, auth.HashToken(req.Token)); err != nil {
		return err
	}
	hash, err := s.Hasher.Hash(ctx(c), req.Password)
	if err != nil {
		return err
	}
	userID, err := s.DB.ResetPassword(ctx(c), auth.HashToken(req.Token), hash)
	if err != nil {
		return err
	}
	// The reset voided the user's device cookies; this browser proved the
	// mailbox and keeps its exemption, unless the user has a second
	// factor: a device cookie also lifts the per-user limit on its
	// guesses, and the mailbox alone proves nothing of it (whoever holds
	// the mailbox would guess codes at the per-client rate from every
	// network they have). Such a browser gets one by the next sign-in.
	st, err := s.DB.MFAStatus(ctx(c), userID)
	if err != nil {
		return err
	}
	if !st.Enrolled() {
		s.setDeviceCookie(c, userID)
	}
	return c.JSON(fiber.Map{})
}
