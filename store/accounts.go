package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// accountViewSelect reads an account with its subscription and a user; the
// query it starts is completed by a FROM clause naming a (accounts),
// m (the user's membership of it), s (subscriptions) and u (users).
const accountViewSelect = `
	SELECT a.id, a.name, a.img_url, a.logo_error, a.testimonial_count, a.recording_spaces_count, m.role, a.deletion_at, a.deletion_stopped_renewal, a.require_mfa,
	       ` + subscriptionColumns + `,
	       u.id, u.email, u.firstname, u.lastname, u.activated, u.preferred_language,
	       u.opt_in_notifications, u.opt_in_marketing, u.opt_in_terms_of_use, u.social_login, u.deletion_at,
	       ` + deletionBlockedBy

// scanAccountView runs an accountViewSelect query; no row is ENotFound.
func (db *DB) scanAccountView(ctx context.Context, query string, args ...any) (*kudos.Account, *kudos.User, error) {
	var a kudos.Account
	var u kudos.User
	fields := append([]any{&a.ID, &a.Name, &a.ImgURL, &a.LogoError, &a.TestimonialCount, &a.RecordingSpacesCount, &a.Role, &a.DeletionAt, &a.DeletionStoppedRenewal, &a.RequireMFA},
		subscriptionFields(&a.Subscription)...)
	fields = append(fields, &u.ID, &u.Email, &u.Firstname, &u.Lastname, &u.Activated, &u.PreferredLanguage,
		&u.OptInNotifications, &u.OptInMarketing, &u.OptInTermsOfUse, &u.SocialLogin, &u.DeletionAt, &u.DeletionBlockedBy)
	if err := db.Pool.QueryRow(ctx, query, args...).Scan(fields...); err != nil {
		return nil, nil, notFound(err)
	}
	return &a, &u, nil
}

// SessionAccountView returns the account with its subscription, the user
// of a live session that is a member of it and their role, checking the
// session in the same query (one round trip: the hot read path), and
// records the account as the one the (activated) user opened last (sign-in opens it;
// written only when it changes). Anything else is ENotFound, so that a
// caller cannot learn which account ids exist; the caller tells a dead
// session (401) from a foreign account (404) with ActiveSession.
func (db *DB) SessionAccountView(ctx context.Context, accountID, sessionID, userID uuid.UUID) (*kudos.Account, *kudos.User, error) {
	now := db.Now()
	return db.scanAccountView(ctx, touchSession("$2", "$4", "$5")+`, last_used AS (
		UPDATE users lu SET last_account_id = $1 FROM memberships lm, sessions ls
		WHERE lu.id = $3 AND lu.activated AND lu.last_account_id IS DISTINCT FROM $1 AND lm.account_id = $1 AND lm.user_id = $3
		AND ls.id = $2 AND ls.user_id = $3 AND ls.revoked_at IS NULL AND ls.expires_at > $4) `+accountViewSelect+`
		FROM sessions se
		JOIN memberships m ON m.user_id = se.user_id AND m.account_id = $1
		JOIN accounts a ON a.id = m.account_id
		JOIN subscriptions s ON s.account_id = a.id
		JOIN users u ON u.id = se.user_id
		WHERE se.id = $2 AND se.user_id = $3 AND se.revoked_at IS NULL AND se.expires_at > $4 AND se.last_seen_at > $5`,
		accountID, sessionID, userID, now, db.idleSince(now))
}

// MemberAccess is what the guard of every account route reads of a member.
type MemberAccess struct {
	// Role is "" when the user is not a member.
	Role      kudos.Role
	Activated bool
	// RequireMFA is the account's two-factor policy (issue 29).
	RequireMFA bool
}

// MemberAccess returns userID's role in accountID, whether the user is
// activated and whether the account requires a second factor, in one query
// (the guard of every account route: read on every request, so a removed
// member's access ends at once).
func (db *DB) MemberAccess(ctx context.Context, accountID, userID uuid.UUID) (MemberAccess, error) {
	var m MemberAccess
	err := db.Pool.QueryRow(ctx, `SELECT m.role, u.activated, a.require_mfa FROM memberships m JOIN users u ON u.id = m.user_id
		JOIN accounts a ON a.id = m.account_id
		WHERE m.account_id = $1 AND m.user_id = $2`, accountID, userID).Scan(&m.Role, &m.Activated, &m.RequireMFA)
	if errors.Is(err, pgx.ErrNoRows) {
		return MemberAccess{}, nil
	}
	return m, wrapErr(err)
}

// SetRequireMFA turns the account's two-factor policy on or off as its
// owner actorID asked, and records mfa_policy_changed when it changes.
func (db *DB) SetRequireMFA(ctx context.Context, accountID, actorID uuid.UUID, on bool) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET require_mfa = $2, updated_at = $3 WHERE id = $1 AND require_mfa <> $2`,
			accountID, on, now)
		if err != nil || tag.RowsAffected() == 0 {
			return wrapErr(err)
		}
		var actor string
		if err := tx.QueryRow(ctx, `SELECT email FROM users WHERE id = $1`, actorID).Scan(&actor); err != nil {
			return wrapErr(err)
		}
		state := "off"
		if on {
			state = "on"
		}
		return teamEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventMFAPolicyChanged,
			ActorEmail: actor, Key: "mfa_policy_changed:" + state + ":" + now.Format(time.RFC3339Nano)})
	})
}

// RenameAccount sets the account's name. Naming the account is the first step
// of onboarding, so the server stops asking for it (show_onboarding false);
// the browser keeps its own flag until the wizard is finished.
func (db *DB) RenameAccount(ctx context.Context, accountID uuid.UUID, name string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		// Never over an erased account's placeholder (a rename that raced
		// the erasure waits for it, then finds the account gone).
		tag, err := tx.Exec(ctx, `UPDATE accounts SET name = $2, updated_at = $3 WHERE id = $1 AND deleted_at IS NULL`, accountID, name, now)
		if err != nil {
			return wrapErr(err)
		} else if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.ENotFound, "no account %s", accountID)
		}
		_, err = tx.Exec(ctx, `UPDATE subscriptions SET show_onboarding = false, updated_at = $2 WHERE account_id = $1`, accountID, now)
		return wrapErr(err)
	})
}

// OwnerEmail returns the e-mail of the account's owner (the checkout's
// customer e-mail).
func (db *DB) OwnerEmail(ctx context.Context, accountID uuid.UUID) (string, error) {
	email, _, _, err := db.MailRecipient(ctx, accountID)
	return email, err
}

// MailRecipient returns who an account's mails go to: its owner (or, with
// none, its earliest member): address, first name and preferred language.
func (db *DB) MailRecipient(ctx context.Context, accountID uuid.UUID) (email, name, language string, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT u.email, u.firstname, u.preferred_language FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.account_id = $1 ORDER BY (m.role = 'owner') DESC, m.created_at LIMIT 1`, accountID).Scan(&email, &name, &language)
	return email, name, language, notFound(err)
}
