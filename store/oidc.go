package store

import (
	"context"

	"errors"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// OIDCFlow is a Google sign-in in progress, stored under the hash of its state.
type OIDCFlow struct {
	StateHash         []byte
	Scope             string
	Nonce             string
	Verifier          string
	RedirectURL       string
	OptInMarketing    bool
	OptInTermsOfUse   bool
	PreferredLanguage string
	ExpiresAt         time.Time
	// InvitationHash is the hash of the invitation token a sign-up was
	// started from (nil for none): the new user joins that account.
	InvitationHash []byte
	// BrowserHash is the hash of the browser key a sign-up was started
	// with: its activation link signs in that browser only (NewToken).
	BrowserHash []byte
	// SessionID is the session a step-up was started from (nil for none).
	SessionID *uuid.UUID
}

// CreateOIDCFlow stores a flow.
func (db *DB) CreateOIDCFlow(ctx context.Context, f OIDCFlow) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO oidc_flows (state_hash, scope, nonce, verifier, redirect_url, opt_in_marketing,
		opt_in_terms_of_use, preferred_language, expires_at, invitation_hash, browser_hash, session_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		f.StateHash, f.Scope, f.Nonce, f.Verifier, f.RedirectURL, f.OptInMarketing, f.OptInTermsOfUse, f.PreferredLanguage, f.ExpiresAt,
		f.InvitationHash, f.BrowserHash, f.SessionID)
	return wrapErr(err) // expired flows go with the periodic purge (PurgeExpired)
}

// TakeOIDCFlow removes and returns the live flow with this state hash: a
// state works once. A missing or expired flow is ENotFound.
func (db *DB) TakeOIDCFlow(ctx context.Context, stateHash []byte) (*OIDCFlow, error) {
	f := OIDCFlow{StateHash: stateHash}
	err := db.Pool.QueryRow(ctx, `DELETE FROM oidc_flows WHERE state_hash = $1 RETURNING scope, nonce, verifier, redirect_url,
		opt_in_marketing, opt_in_terms_of_use, preferred_language, expires_at, invitation_hash, browser_hash, session_id`, stateHash).Scan(
		&f.Scope, &f.Nonce, &f.Verifier, &f.RedirectURL, &f.OptInMarketing, &f.OptInTermsOfUse, &f.PreferredLanguage, &f.ExpiresAt,
		&f.InvitationHash, &f.BrowserHash, &f.SessionID)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !f.ExpiresAt.After(db.Now())) {
		return nil, kudos.Errorf(kudos.ENotFound, "this sign-in attempt is unknown or has expired")
	}
	return &f, wrapErr(err)
}

// UserByOIDC returns the user linked to issuer and subject, or ENotFound.
func (db *DB) UserByOIDC(ctx context.Context, issuer, subject string) (*kudos.User, error) {
	return findUser(ctx, db.Pool, sq.Eq{"oidc_issuer": issuer, "oidc_subject": subject})
}

// LinkOIDC links a verified Google identity to an existing user and signs
// them in, in one transaction. A user who never proved an address may have
// been signed up by someone else with this address (pre-account takeover):
// its password, its sessions and its pending links (e-mail change, reset)
// die, and the user is activated, since Google verified the address. A
// user who proved one (address_proved_at), though unactivated while a
// change of address awaits confirmation, is its owner and keeps all of
// that. A user linked to another Google subject is not re-linked
// (EConflict).
func (db *DB) LinkOIDC(ctx context.Context, userID uuid.UUID, issuer, subject string, ttl time.Duration) (*SignedIn, error) {
	now := db.Now()
	var out SignedIn
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var proved bool
		var oldIssuer, oldSubject *string
		err := tx.QueryRow(ctx, `SELECT address_proved_at IS NOT NULL, oidc_issuer, oidc_subject FROM users WHERE id = $1 FOR UPDATE`, userID).
			Scan(&proved, &oldIssuer, &oldSubject)
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.Errorf(kudos.ENotFound, "Not found")
		} else if err != nil {
			return wrapErr(err)
		}
		if oldSubject != nil && (*oldSubject != subject || oldIssuer == nil || *oldIssuer != issuer) {
			return kudos.Errorf(kudos.EConflict, "this e-mail address is linked to another Google account")
		}
		_, err = tx.Exec(ctx, `UPDATE users SET oidc_issuer = $2, oidc_subject = $3, social_login = true, updated_at = $4 WHERE id = $1`,
			userID, issuer, subject, now)
		if isUniqueViolation(err) {
			return kudos.Errorf(kudos.EConflict, "this Google account is linked to another user")
		} else if err != nil {
			return wrapErr(err)
		}
		if !proved {
			if err := dropStrangerAccess(ctx, tx, userID, now); err != nil {
				return err
			}
		}
		return signIn(ctx, tx, userID, now, ttl, SignInVia{Method: kudos.SignInGoogle}, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// dropStrangerAccess ends everything a sign-up whose address was never
// proved may have given whoever made it: the password, its second factors
// and device cookies (dropUnprovedFactors), every session, reset and
// e-mail-change links. Plain activation links stay: they went to the
// address itself.
func dropStrangerAccess(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time) error {
	if err := dropUnprovedFactors(ctx, tx, userID, now); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = '', activated = true, updated_at = $2 WHERE id = $1`, userID, now); err != nil {
		return wrapErr(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL
		AND (purpose <> 'activation' OR new_email IS NOT NULL)`, userID, now); err != nil {
		return wrapErr(err)
	}
	return revokeUserSessions(ctx, tx, userID, uuid.Nil, now)
}

// StepUp records that the user of a live session has just signed in with
// Google again (a step-up, issue 27): the identity (issuer, subject) must
// be the one linked to the user, or, for a user linked to none, one whose
// verified address is the user's (email), which is then linked. Another
// identity is EReauthRequired; a session that ended is EUnauthorized.
func (db *DB) StepUp(ctx context.Context, sessionID uuid.UUID, issuer, subject, email string) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var userID uuid.UUID
		var userEmail string
		var oldIssuer, oldSubject *string
		err := tx.QueryRow(ctx, `SELECT u.id, u.email, u.oidc_issuer, u.oidc_subject FROM sessions s JOIN users u ON u.id = s.user_id
			WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 FOR UPDATE OF u`, sessionID, now).
			Scan(&userID, &userEmail, &oldIssuer, &oldSubject)
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
		} else if err != nil {
			return wrapErr(err)
		}
		other := kudos.Errorf(kudos.EReauthRequired, "sign in again with the Google account of this user")
		switch {
		case oldSubject != nil && (*oldSubject != subject || oldIssuer == nil || *oldIssuer != issuer):
			return other
		case oldSubject == nil && kudos.NormalizeEmail(email) != userEmail:
			return other
		case oldSubject == nil:
			_, err := tx.Exec(ctx, `UPDATE users SET oidc_issuer = $2, oidc_subject = $3, social_login = true, updated_at = $4 WHERE id = $1`,
				userID, issuer, subject, now)
			if isUniqueViolation(err) {
				return other
			} else if err != nil {
				return wrapErr(err)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE sessions SET reauthenticated_at = $2 WHERE id = $1`, sessionID, now)
		return wrapErr(err)
	})
}

// ReauthenticatedAt is when the session last stepped up (zero for never).
func (db *DB) ReauthenticatedAt(ctx context.Context, sessionID uuid.UUID) (time.Time, error) {
	var at *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT reauthenticated_at FROM sessions WHERE id = $1`, sessionID).Scan(&at)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, wrapErr(err)
	case at == nil:
		return time.Time{}, nil
	}
	return *at, nil
}
