package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

func createSession(ctx context.Context, tx pgx.Tx, s *kudos.Session) error {
	_, err := tx.Exec(ctx, `INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)`, s.ID, s.UserID, s.ExpiresAt)
	return wrapErr(err)
}

// ActiveSession returns the session if it exists, is not revoked and has not
// expired; otherwise EUnauthorized.
func (db *DB) ActiveSession(ctx context.Context, id uuid.UUID) (*kudos.Session, error) {
	s := kudos.Session{ID: id}
	err := db.Pool.QueryRow(ctx, `SELECT user_id, expires_at FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2`,
		id, db.Now()).Scan(&s.UserID, &s.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &s, nil
}

// RevokeSession ends one session.
func (db *DB) RevokeSession(ctx context.Context, id uuid.UUID) error {
	_, err := db.Pool.Exec(ctx, `UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, id, db.Now())
	return wrapErr(err)
}

// revokeUserSessions ends every session of a user except keep (uuid.Nil keeps none).
func revokeUserSessions(ctx context.Context, tx pgx.Tx, userID, keep uuid.UUID, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`, userID, keep, now)
	return wrapErr(err)
}
