package store

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// RequestEmailChange starts an e-mail change: the user is not activated until
// the new address is confirmed by the activation token mailed there, and the
// old address gets a notice. The address itself changes on confirmation. An
// address in use by another user is EConflict.
func (db *DB) RequestEmailChange(ctx context.Context, userID uuid.UUID, token NewToken, notice OutboxEntry) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var taken bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2)`,
			token.NewEmail, userID).Scan(&taken); err != nil {
			return wrapErr(err)
		}
		if taken {
			return kudos.Errorf(kudos.EConflict, "this e-mail address is already in use")
		}
		now := db.Now()
		// Earlier confirmation links (for the old or another new address) die.
		if _, err := tx.Exec(ctx, `UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'activation' AND used_at IS NULL`, userID, now); err != nil {
			return wrapErr(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET activated = false, updated_at = $2 WHERE id = $1`, userID, now); err != nil {
			return wrapErr(err)
		}
		if err := insertToken(ctx, tx, userID, token); err != nil {
			return err
		}
		return insertOutbox(ctx, tx, notice)
	})
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

// ChangePassword sets a new password hash and ends every other session of
// the user (keep is the session making the change).
func (db *DB) ChangePassword(ctx context.Context, userID, keep uuid.UUID, hash string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1`, userID, hash, now); err != nil {
			return wrapErr(err)
		}
		return revokeUserSessions(ctx, tx, userID, keep, now)
	})
}
