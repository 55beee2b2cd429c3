package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// UserChange is one PATCH …/user: every part is optional, and all of it is
// applied in one transaction or none of it is.
type UserChange struct {
	UserID uuid.UUID
	// Update holds the plain fields to set.
	Update kudos.UserUpdate
	// PasswordHash, when set, replaces the password, voids the user's
	// unused reset links and device cookies (voidDevices) and ends every
	// session of the user but KeepSession (the one making the change).
	PasswordHash string
	KeepSession  uuid.UUID
	// Email, when set, starts an e-mail change (see emailChange).
	Email *EmailChange
	// Mails are queued as they are (the password_changed notice).
	Mails []OutboxEntry
}

// EmailChange is a move to Confirm.NewEmail: Confirm is the token and mail
// that confirm the new address, OldNotice tells the old one, and Taken is
// the mail that goes to the owner instead when the new address belongs to
// another user (its To, Name and Language are filled in from that user).
type EmailChange struct {
	Confirm   NewToken
	OldNotice OutboxEntry
	Taken     OutboxEntry
}

// ChangeUser applies a PATCH …/user in one transaction.
func (db *DB) ChangeUser(ctx context.Context, ch UserChange) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if ch.Update != (kudos.UserUpdate{}) {
			if err := updateUser(ctx, tx, ch.UserID, ch.Update, now); err != nil {
				return err
			}
		}
		if ch.PasswordHash != "" {
			if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1`, ch.UserID, ch.PasswordHash, now); err != nil {
				return wrapErr(err)
			}
			if err := revokeUserSessions(ctx, tx, ch.UserID, ch.KeepSession, now); err != nil {
				return err
			}
			// A reset link mailed before the change must not undo it.
			if err := voidTokens(ctx, tx, ch.UserID, now, kudos.TokenPasswordReset); err != nil {
				return err
			}
			if err := voidDevices(ctx, tx, ch.UserID, now); err != nil {
				return err
			}
		}
		if ch.Email != nil {
			if err := emailChange(ctx, tx, ch.UserID, *ch.Email, now); err != nil {
				return err
			}
		}
		for _, m := range ch.Mails {
			if err := insertOutbox(ctx, tx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// emailChange starts an e-mail change: the user is not activated until the
// new address is confirmed by the activation token mailed there, and the old
// address gets a notice. The address itself changes on confirmation. When
// the new address belongs to another user, everything happens the same way
// (the caller cannot tell, so the route does not reveal which addresses are
// registered) except that no confirmation link is sent: that user gets the
// Taken notice instead, and the token, whose key is mailed nowhere, can
// never be used.
func emailChange(ctx context.Context, tx pgx.Tx, userID uuid.UUID, ch EmailChange, now time.Time) error {
	owner := OutboxEntry{}
	var name, lang, email string
	err := tx.QueryRow(ctx, `SELECT firstname, preferred_language, email FROM users WHERE lower(email) = lower($1) AND id <> $2`,
		ch.Confirm.NewEmail, userID).Scan(&name, &lang, &email)
	switch {
	case err == nil:
		owner = ch.Taken
		if m, ok := owner.Payload.(kudos.MailRequest); ok {
			m.To, m.Name, m.Language = email, name, lang
			owner.Payload = m
		}
	case !errors.Is(err, pgx.ErrNoRows):
		return wrapErr(err)
	}
	// Earlier confirmation links (for the old or another new address) die.
	if _, err := tx.Exec(ctx, `UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'activation' AND used_at IS NULL`, userID, now); err != nil {
		return wrapErr(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET activated = false, updated_at = $2 WHERE id = $1`, userID, now); err != nil {
		return wrapErr(err)
	}
	if owner.Key != "" {
		ch.Confirm.Mail = owner
	}
	if err := insertToken(ctx, tx, userID, ch.Confirm); err != nil {
		return err
	}
	return insertOutbox(ctx, tx, ch.OldNotice)
}

// PendingEmailTaken reports whether email, the address of a pending e-mail
// change, belongs to another user than userID (so no confirmation link may
// be sent there).
func (db *DB) PendingEmailTaken(ctx context.Context, userID uuid.UUID, email string) (bool, error) {
	var taken bool
	err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2)`, email, userID).Scan(&taken)
	return taken, wrapErr(err)
}

// PendingEmail returns the new address of the user's e-mail change awaiting
// confirmation, or "".
func (db *DB) PendingEmail(ctx context.Context, userID uuid.UUID) (string, error) {
	var email string
	err := db.Pool.QueryRow(ctx, `SELECT new_email FROM user_tokens WHERE user_id = $1 AND purpose = 'activation'
		AND new_email IS NOT NULL AND used_at IS NULL AND expires_at > $2 ORDER BY created_at DESC LIMIT 1`, userID, db.Now()).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return email, wrapErr(err)
}

// UserByPendingEmail returns the user whose e-mail change to email awaits
// confirmation, or ENotFound.
func (db *DB) UserByPendingEmail(ctx context.Context, email string) (*kudos.User, error) {
	var id uuid.UUID
	err := db.Pool.QueryRow(ctx, `SELECT user_id FROM user_tokens WHERE lower(new_email) = lower($1) AND purpose = 'activation'
		AND used_at IS NULL AND expires_at > $2 ORDER BY created_at DESC LIMIT 1`, email, db.Now()).Scan(&id)
	if err != nil {
		return nil, notFound(err)
	}
	return db.UserByID(ctx, id)
}
