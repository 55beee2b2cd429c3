package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// userAgentKey carries the client's User-Agent to the session it signs in.
type userAgentKey struct{}

// WithUserAgent returns ctx carrying the client's User-Agent, which a session
// created under it records (for the list of signed-in devices).
func WithUserAgent(ctx context.Context, ua string) context.Context {
	if len(ua) > 300 {
		ua = ua[:300]
	}
	return context.WithValue(ctx, userAgentKey{}, strings.ToValidUTF8(ua, ""))
}

// networkKey carries the client's network to the session it signs in.
type networkKey struct{}

// WithNetwork returns ctx carrying the network the client speaks from (its
// /24 or /48, never the address: issue 37), which a session created under
// it records for the list of signed-in devices.
func WithNetwork(ctx context.Context, network string) context.Context {
	return context.WithValue(ctx, networkKey{}, network)
}

func createSession(ctx context.Context, tx pgx.Tx, s *kudos.Session, now time.Time) error {
	ua, _ := ctx.Value(userAgentKey{}).(string)
	network, _ := ctx.Value(networkKey{}).(string)
	_, err := tx.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, user_agent, sign_in_method, second_factor,
		second_factor_at, ip_network)
		VALUES ($1, $2, $3, $4, $3, $5, $6, NULLIF($7, ''), CASE WHEN $7 <> '' THEN $3::timestamptz END, $8)`,
		s.ID, s.UserID, now, s.ExpiresAt, strings.ReplaceAll(ua, "\x00", ""), string(s.Method), string(s.SecondFactor), network)
	return wrapErr(err)
}

// touchSession records, at most once a minute, that the session (id
// parameter idParam) was used now (parameter nowParam), unless it idled out
// (last used before parameter idleParam). Prefixed to the statement that
// reads the session, it costs no round trip, and writes once a minute per
// session at most.
func touchSession(idParam, nowParam, idleParam string) string {
	return `WITH touch AS (UPDATE sessions SET last_seen_at = ` + nowParam + ` WHERE id = ` + idParam +
		` AND last_seen_at < ` + nowParam + `::timestamptz - interval '1 minute' AND last_seen_at > ` + idleParam +
		` AND revoked_at IS NULL) `
}

// ActiveSession returns the session if it exists, is not revoked, has not
// expired and has not idled out; otherwise EUnauthorized.
func (db *DB) ActiveSession(ctx context.Context, id uuid.UUID) (*kudos.Session, error) {
	s := kudos.Session{ID: id}
	var factorAt *time.Time
	now := db.Now()
	err := db.Pool.QueryRow(ctx, touchSession("$1", "$2", "$3")+`SELECT user_id, expires_at, coalesce(sign_in_method, ''),
		coalesce(second_factor, ''), second_factor_at, created_at FROM sessions
		WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at > $3`,
		id, now, db.idleSince(now)).Scan(&s.UserID, &s.ExpiresAt, &s.Method, &s.SecondFactor, &factorAt, &s.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	if factorAt != nil {
		s.SecondFactorAt = *factorAt
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

// SessionInfo is one signed-in device of a user.
type SessionInfo struct {
	ID         uuid.UUID `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastSeenAt time.Time `json:"last_seen_at"`
	UserAgent  string    `json:"user_agent"`
	ExpiresAt  time.Time `json:"expires_at"`
	// SignInMethod and SecondFactor are how the session signed in ("" for
	// sessions older than issue 29, and no second factor).
	SignInMethod string `json:"sign_in_method"`
	SecondFactor string `json:"second_factor"`
	// Network is the client's network at the sign-in (its /24 or /48; ""
	// for sessions older than issue 37).
	Network string `json:"network"`
}

// UserSessions lists the live sessions of a user, most recently used first.
func (db *DB) UserSessions(ctx context.Context, userID uuid.UUID) ([]SessionInfo, error) {
	now := db.Now()
	rows, err := db.Pool.Query(ctx, `SELECT id, created_at, last_seen_at, user_agent, expires_at,
		coalesce(sign_in_method, ''), coalesce(second_factor, ''), ip_network FROM sessions
		WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at > $3
		ORDER BY last_seen_at DESC, created_at DESC LIMIT 100`, userID, now, db.idleSince(now))
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[SessionInfo])
	return out, wrapErr(err)
}

// RevokeUserSession ends one session of a user: a session of anyone else,
// or already ended, is ENotFound.
func (db *DB) RevokeUserSession(ctx context.Context, userID, sessionID uuid.UUID) error {
	tag, err := db.Pool.Exec(ctx, `UPDATE sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`,
		sessionID, userID, db.Now())
	if err == nil && tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.ENotFound, "Not found")
	}
	return wrapErr(err)
}

// RevokeOtherSessions ends every session of a user but keep, and voids
// the device cookies issued so far (voidDevices).
func (db *DB) RevokeOtherSessions(ctx context.Context, userID, keep uuid.UUID) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := voidDevices(ctx, tx, userID, now); err != nil {
			return err
		}
		return revokeUserSessions(ctx, tx, userID, keep, now)
	})
}
