package store

import (
	"context"
	"crypto/subtle"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// NewUser is what sign-up creates: the user, their account with its trial
// subscription, and the activation token with its mail.
type NewUser struct {
	User        kudos.User
	AccountName string
	Trial       kudos.Subscription
	// OIDCIssuer and OIDCSubject identify a Google sign-up (empty otherwise).
	OIDCIssuer, OIDCSubject string
	Token                   NewToken
	// StartSubscription is the outbox entry that starts the new account's
	// subscription workflow (dispatch.SubscriptionStart).
	StartSubscription func(accountID uuid.UUID) OutboxEntry
}

// NewToken is a single-use token to store (as a hash) with the mail that
// carries it.
type NewToken struct {
	Hash      []byte
	Purpose   kudos.TokenPurpose
	ExpiresAt time.Time
	// NewEmail is the address an e-mail-change token confirms.
	NewEmail string
	// BrowserHash is the hash of the key the signing-up browser sent: an
	// activation token with it signs in only that browser (nil: none).
	BrowserHash []byte
	Mail        OutboxEntry
}

// CreateUser stores a new user with an account they own and its trial
// subscription, plus the activation token and mail, in one transaction. It
// returns EConflict when the e-mail is already registered.
func (db *DB) CreateUser(ctx context.Context, in NewUser) (userID, accountID uuid.UUID, err error) {
	userID, accountID = uuid.New(), uuid.New()
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if err := insertUser(ctx, tx, userID, in.User, false, in.OIDCIssuer, in.OIDCSubject); err != nil {
			return err
		}
		if err := createAccount(ctx, tx, accountID, userID, NewAccount{Name: in.AccountName, Trial: in.Trial,
			StartSubscription: in.StartSubscription}, db.Now()); err != nil {
			return err
		}
		return insertToken(ctx, tx, userID, in.Token)
	})
	return userID, accountID, err
}

// NewAccount is an account to create for its owner, on its trial.
type NewAccount struct {
	Name  string
	Trial kudos.Subscription
	// StartSubscription is the outbox entry that starts the account's
	// subscription workflow (dispatch.SubscriptionStart).
	StartSubscription func(accountID uuid.UUID) OutboxEntry
}

// createAccount stores account id, owned by userID, with its trial
// subscription, its first timeline event and the start of its workflow.
func createAccount(ctx context.Context, tx pgx.Tx, id, userID uuid.UUID, a NewAccount, now time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, $2)`, id, a.Name); err != nil {
		return wrapErr(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'owner')`, id, userID); err != nil {
		return wrapErr(err)
	}
	s := a.Trial
	if _, err := tx.Exec(ctx, `INSERT INTO subscriptions (account_id, plan, show_status, show_onboarding, trials_left, trial_expires_at, start_next_period)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, s.Plan, s.ShowStatus, s.ShowOnboarding, s.TrialsLeft, s.TrialExpiresAt, s.StartNextPeriod); err != nil {
		return wrapErr(err)
	}
	if _, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: id, At: now, Type: kudos.EventTrialStarted,
		Plan: s.Plan, Key: string(kudos.EventTrialStarted)}); err != nil {
		return err
	}
	return insertOutbox(ctx, tx, a.StartSubscription(id))
}

// EnsureAccount returns the account userID opens at sign-in (see
// SignIn); a user who belongs to none (they left, or were removed from,
// the only team they had) is given a new account of their own, on a trial.
// A user whose own deletion is scheduled is given none (uuid.Nil, issue 35):
// an account they own would block their erasure, and they never asked for
// it; cancelling the deletion gives them one.
func (db *DB) EnsureAccount(ctx context.Context, userID uuid.UUID, a NewAccount) (uuid.UUID, error) {
	var id uuid.UUID
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		// Serialise with another sign-in of the same user doing the same,
		// and with the scheduling of their deletion.
		var leaving bool
		if err := tx.QueryRow(ctx, `SELECT deletion_at IS NOT NULL FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&leaving); err != nil {
			return notFound(err)
		}
		if err := signInAccountID(ctx, tx, userID, &id); err != nil || id != uuid.Nil || leaving {
			return err
		}
		id = uuid.New()
		if err := createAccount(ctx, tx, id, userID, a, db.Now()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE users SET last_account_id = $2 WHERE id = $1`, userID, id)
		return wrapErr(err)
	})
	return id, err
}

// insertUser stores a new user (EConflict when the e-mail is registered
// already); subject names a Google sign-up's identity ("" for none).
func insertUser(ctx context.Context, tx pgx.Tx, id uuid.UUID, u kudos.User, activated bool, issuer, subject string) error {
	var iss, sub *string
	if subject != "" {
		iss, sub = &issuer, &subject
	}
	_, err := tx.Exec(ctx, `INSERT INTO users (id, email, firstname, lastname, password_hash, activated, preferred_language,
		opt_in_marketing, opt_in_terms_of_use, social_login, oidc_issuer, oidc_subject)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		id, kudos.NormalizeEmail(u.Email), u.Firstname, u.Lastname, u.PasswordHash, activated, u.PreferredLanguage,
		u.OptInMarketing, u.OptInTermsOfUse, u.SocialLogin, iss, sub)
	if isUniqueViolation(err) {
		return kudos.Errorf(kudos.EConflict, "e-mail already registered")
	}
	return wrapErr(err)
}

// InvitedUser is a sign-up from an invitation's link: the click proved
// the address, so the user is activated at once, joins the inviting
// account (no trial account of their own) and is signed in.
type InvitedUser struct {
	User kudos.User
	// OIDCIssuer and OIDCSubject identify a Google sign-up (empty otherwise).
	OIDCIssuer, OIDCSubject string
	InvitationHash          []byte
	SessionTTL              time.Duration
	Outbox                  TeamOutbox
}

// CreateInvitedUser stores the user, accepts the invitation for them and
// signs them in, in one transaction: an invitation that is gone, full or
// addressed elsewhere creates nothing (the errors of AcceptInvitation); a
// registered e-mail is EConflict.
func (db *DB) CreateInvitedUser(ctx context.Context, in InvitedUser) (*SignedIn, error) {
	now := db.Now()
	var out SignedIn
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		// The invitation first: only its holder learns that its address
		// has an account already.
		var email string
		err := tx.QueryRow(ctx, `SELECT email FROM invitations WHERE token_hash = $1 AND status = 'pending' AND expires_at > $2`,
			in.InvitationHash, now).Scan(&email)
		if errors.Is(err, pgx.ErrNoRows) {
			return invitationGone()
		} else if err != nil {
			return wrapErr(err)
		}
		if email != kudos.NormalizeEmail(in.User.Email) {
			return kudos.Errorf(kudos.EInvitationEmailMismatch, "this invitation was sent to another e-mail address")
		}
		id := uuid.New()
		if err := insertUser(ctx, tx, id, in.User, true, in.OIDCIssuer, in.OIDCSubject); err != nil {
			return err
		}
		if _, err := acceptInvitation(ctx, tx, in.InvitationHash, id, now, in.Outbox); err != nil {
			return err
		}
		via := SignInVia{Method: kudos.SignInPassword}
		if in.OIDCSubject != "" {
			via.Method = kudos.SignInGoogle
		}
		return signIn(ctx, tx, id, now, in.SessionTTL, via, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func insertToken(ctx context.Context, tx pgx.Tx, userID uuid.UUID, t NewToken) error {
	var newEmail *string
	if t.NewEmail != "" {
		newEmail = &t.NewEmail
	}
	// A token of the same key is the same token (a queued request done
	// again): stored once.
	if _, err := tx.Exec(ctx, `INSERT INTO user_tokens (hash, user_id, purpose, new_email, expires_at, browser_hash)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (hash) DO NOTHING`, t.Hash, userID, t.Purpose, newEmail, t.ExpiresAt, t.BrowserHash); err != nil {
		return wrapErr(err)
	}
	return insertOutbox(ctx, tx, t.Mail)
}

// SignupBrowserHash is the browser hash the user's sign-up bound its
// activation link to (nil for none): a resent link is bound to it too.
func (db *DB) SignupBrowserHash(ctx context.Context, userID uuid.UUID) ([]byte, error) {
	var h []byte
	err := db.Pool.QueryRow(ctx, `SELECT browser_hash FROM user_tokens WHERE user_id = $1 AND purpose = 'activation'
		AND new_email IS NULL AND browser_hash IS NOT NULL ORDER BY created_at DESC LIMIT 1`, userID).Scan(&h)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return h, wrapErr(err)
}

// CreateToken stores a token and its mail for an existing user.
func (db *DB) CreateToken(ctx context.Context, userID uuid.UUID, t NewToken) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertToken(ctx, tx, userID, t) })
}

// consumedToken is what a used token names.
type consumedToken struct {
	userID      uuid.UUID
	newEmail    *string
	browserHash []byte
}

// consumeToken marks a live token of purpose used and returns its user,
// new e-mail and browser hash. A missing, used or expired token is ENotFound.
func consumeToken(ctx context.Context, tx pgx.Tx, purpose kudos.TokenPurpose, hash []byte, now time.Time) (consumedToken, error) {
	var t consumedToken
	err := tx.QueryRow(ctx, `UPDATE user_tokens SET used_at = $3 WHERE hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
		RETURNING user_id, new_email, browser_hash`, hash, purpose, now).Scan(&t.userID, &t.newEmail, &t.browserHash)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, kudos.Errorf(kudos.ENotFound, "this link is invalid or has expired")
	}
	return t, wrapErr(err)
}

// CheckToken reports whether a live token of purpose has this hash:
// ENotFound otherwise. It consumes nothing (the consuming call checks again).
func (db *DB) CheckToken(ctx context.Context, purpose kudos.TokenPurpose, hash []byte) error {
	var ok bool
	err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM user_tokens WHERE hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3)`,
		hash, purpose, db.Now()).Scan(&ok)
	if err == nil && !ok {
		return kudos.Errorf(kudos.ENotFound, "this link is invalid or has expired")
	}
	return wrapErr(err)
}

// voidTokens marks every unused token of the user of these purposes used:
// a link mailed before a change of password or address must not outlive
// it (a reset link read later in a former mailbox takes the account over).
func voidTokens(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time, purposes ...kudos.TokenPurpose) error {
	names := make([]string, len(purposes))
	for i, p := range purposes {
		names[i] = string(p)
	}
	_, err := tx.Exec(ctx, `UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = ANY($3) AND used_at IS NULL`,
		userID, now, names)
	return wrapErr(err)
}

// SignInVia is how a new session signed in: its first factor and the
// second factor it met, if any.
type SignInVia struct {
	Method       kudos.SignInMethod
	SecondFactor kudos.SecondFactor
}

// SignedIn is the result of an action that signs the user in.
type SignedIn struct {
	UserID    uuid.UUID
	AccountID uuid.UUID
	// Session is nil when none was started: a user with a second factor
	// who has not met it (SecondFactorDue), an activation in another
	// browser.
	Session *kudos.Session
	// SecondFactorDue: the first factor was met, and the user has a second
	// factor (kudos.MFAStatus.Enrolled) that was not: no session; the api
	// answers with a sign-in challenge (issue 29).
	SecondFactorDue bool
	// MFA is the user's second factors, and FirstFactor the factor met,
	// when SecondFactorDue.
	MFA         kudos.MFAStatus
	FirstFactor kudos.SignInMethod
}

// Activate consumes an activation token: the user is activated (with the new
// address, for an e-mail change; a Google link made before the sign-up's
// address was proved is dropped, dropUnprovenLink). A session is created
// only when browserHash is the one the token was bound to at sign-up (the
// link is opened in the browser that signed up); otherwise out.Session is
// nil (issue 27).
func (db *DB) Activate(ctx context.Context, hash, browserHash []byte, sessionTTL time.Duration) (*SignedIn, error) {
	now := db.Now()
	var out SignedIn
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		t, err := consumeToken(ctx, tx, kudos.TokenActivation, hash, now)
		if err != nil {
			return err
		}
		userID, newEmail := t.userID, t.newEmail
		if newEmail != nil {
			// The address it replaces is remembered for the user's erasure
			// (the timeline and invitations name the member by it).
			if _, err := tx.Exec(ctx, `INSERT INTO user_former_emails (user_id, email, replaced_at) SELECT id, lower(email), $3 FROM users
				WHERE id = $1 AND lower(email) <> lower($2) ON CONFLICT DO NOTHING`, userID, *newEmail, now); err != nil {
				return wrapErr(err)
			}
			_, err = tx.Exec(ctx, `UPDATE users SET email = $2, activated = true, updated_at = $3 WHERE id = $1`, userID, *newEmail, now)
			if isUniqueViolation(err) {
				return kudos.Errorf(kudos.EConflict, "this e-mail address is already in use")
			}
		} else {
			if err := dropUnprovenLink(ctx, tx, userID, now); err != nil {
				return err
			}
			if err := dropUnprovedFactors(ctx, tx, userID, now); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `UPDATE users SET activated = true, updated_at = $2 WHERE id = $1`, userID, now)
		}
		if err != nil {
			return wrapErr(err)
		}
		// The other activation links of the user have served their purpose;
		// a reset link mailed to a former address dies with it.
		purposes := []kudos.TokenPurpose{kudos.TokenActivation}
		if newEmail != nil {
			purposes = append(purposes, kudos.TokenPasswordReset)
		}
		if err := voidTokens(ctx, tx, userID, now, purposes...); err != nil {
			return err
		}
		out.UserID = userID
		if t.browserHash == nil || subtle.ConstantTimeCompare(t.browserHash, browserHash) != 1 {
			return nil
		}
		return signIn(ctx, tx, userID, now, sessionTTL, SignInVia{Method: kudos.SignInLink}, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func signIn(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time, ttl time.Duration, via SignInVia, out *SignedIn) error {
	out.UserID = userID
	if via.SecondFactor == "" {
		// No session before the second factor, whatever the first one was
		// (password, Google, a mailed link).
		st, err := mfaStatus(ctx, tx, userID)
		if err != nil {
			return err
		}
		if st.Enrolled() {
			out.SecondFactorDue, out.MFA, out.FirstFactor = true, st, via.Method
			return nil
		}
	}
	out.Session = &kudos.Session{ID: uuid.New(), UserID: userID, ExpiresAt: now.Add(ttl).UTC().Truncate(time.Second),
		Method: via.Method, SecondFactor: via.SecondFactor}
	if err := createSession(ctx, tx, out.Session, now); err != nil {
		return err
	}
	return signInAccountID(ctx, tx, userID, &out.AccountID)
}

// dropUnprovenLink unlinks the Google identity of a user who has not
// proved an address yet (address_proved_at, as dropUnprovedFactors: one
// confirming a change of address is unactivated meanwhile, yet keeps its
// link) and ends every session, as the owner proves it
// (activation of the sign-up's address, password reset): a link made
// before then may be a stranger's (issue 27). A verified identity of the
// owner links again at its next sign-in (LinkOIDC).
func dropUnprovenLink(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time) error {
	tag, err := tx.Exec(ctx, `UPDATE users SET oidc_issuer = NULL, oidc_subject = NULL, updated_at = $2
		WHERE id = $1 AND address_proved_at IS NULL AND oidc_subject IS NOT NULL`, userID, now)
	if err != nil || tag.RowsAffected() == 0 {
		return wrapErr(err)
	}
	return revokeUserSessions(ctx, tx, userID, uuid.Nil, now)
}

// dropUnprovedFactors ends, as the owner proves the address of a user who
// never proved it (activation, password reset, Google), what its sign-up's
// maker may have set up (issue 35): that maker may be a stranger who signed
// up with someone else's address. Every second factor goes (app, recovery
// codes, passkeys), and with any of them every session, so that the owner
// is neither asked for a factor they never had nor shares the account with
// a passkey that signs in without a password; every device cookie issued
// so far stops vouching for its browser (devices_valid_from). A user who
// proved an address before (address_proved_at: one confirming a change of
// address is unactivated meanwhile) keeps everything.
func dropUnprovedFactors(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time) error {
	var proved bool
	if err := tx.QueryRow(ctx, `SELECT address_proved_at IS NOT NULL FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&proved); err != nil {
		return wrapErr(err)
	}
	if proved {
		return nil
	}
	var dropped int64
	for _, table := range []string{"user_totp", "recovery_codes", "passkeys"} {
		tag, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, userID)
		if err != nil {
			return wrapErr(err)
		}
		dropped += tag.RowsAffected()
	}
	if err := voidDevices(ctx, tx, userID, now); err != nil {
		return err
	}
	if dropped == 0 {
		return nil
	}
	return revokeUserSessions(ctx, tx, userID, uuid.Nil, now)
}

// voidDevices makes every device cookie of the user issued before now
// vouch for nothing (devices_valid_from): a change of credentials (a new
// password, a second factor, the other devices signed out) must not leave
// the browser of someone who had the old ones exempt from the sign-in
// limits. The browser making the change is given a fresh cookie.
func voidDevices(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE users SET devices_valid_from = $2 WHERE id = $1`, userID, now)
	return wrapErr(err)
}

// DevicesValidFrom is when the user's device cookies began to count: one
// issued before vouches for nothing (the zero time: all count).
func (db *DB) DevicesValidFrom(ctx context.Context, userID uuid.UUID) (time.Time, error) {
	var at *time.Time
	if err := db.Pool.QueryRow(ctx, `SELECT devices_valid_from FROM users WHERE id = $1`, userID).Scan(&at); err != nil {
		return time.Time{}, notFound(err)
	}
	if at == nil {
		return time.Time{}, nil
	}
	return *at, nil
}

// ResetPassword consumes a reset token, sets the new password hash, marks
// the address confirmed (the mail reached it), voids the user's other
// reset and activation links (a pending change of address with them), the
// device cookies issued so far (voidDevices) and ends every session; a
// Google link made before the address was proved is dropped. It returns
// the user.
func (db *DB) ResetPassword(ctx context.Context, hash []byte, passwordHash string) (userID uuid.UUID, err error) {
	now := db.Now()
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		t, err := consumeToken(ctx, tx, kudos.TokenPasswordReset, hash, now)
		if err != nil {
			return err
		}
		userID = t.userID
		if err := dropUnprovenLink(ctx, tx, userID, now); err != nil {
			return err
		}
		if err := dropUnprovedFactors(ctx, tx, userID, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, activated = true, updated_at = $3 WHERE id = $1`, userID, passwordHash, now); err != nil {
			return wrapErr(err)
		}
		// The other reset links die, and so do the activation links: the
		// address is proved, and a pending change of address (one an
		// intruder who had the password may have started) is dropped.
		if err := voidTokens(ctx, tx, userID, now, kudos.TokenPasswordReset, kudos.TokenActivation); err != nil {
			return err
		}
		if err := voidDevices(ctx, tx, userID, now); err != nil {
			return err
		}
		return revokeUserSessions(ctx, tx, userID, uuid.Nil, now)
	})
	return userID, err
}

// MailSent reports whether the mail with this request key was handed to SMTP.
func (db *DB) MailSent(ctx context.Context, key string) (bool, error) {
	var ok bool
	err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sent_mails WHERE key = $1)`, key).Scan(&ok)
	return ok, wrapErr(err)
}

// MarkMailSent records that the mail with this request key was sent.
func (db *DB) MarkMailSent(ctx context.Context, key string) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO sent_mails (key) VALUES ($1) ON CONFLICT DO NOTHING`, key)
	return wrapErr(err)
}

// SignIn creates a session for userID and finds the account to open: the
// one the user opened last, else the one they own, else the one they
// joined first; uuid.Nil when they belong to none (see EnsureAccount).
func (db *DB) SignIn(ctx context.Context, userID uuid.UUID, ttl time.Duration, via SignInVia) (*SignedIn, error) {
	var out SignedIn
	err := db.inTx(ctx, func(tx pgx.Tx) error { return signIn(ctx, tx, userID, db.Now(), ttl, via, &out) })
	if err != nil {
		return nil, err
	}
	return &out, nil
}
