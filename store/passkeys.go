package store

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// webauthnHandleSize is the length of a user handle: random bytes, the
// most WebAuthn allows.
const webauthnHandleSize = 64

// WebAuthnHandle returns the user handle of userID's passkeys, setting a
// random one the first time (users.webauthn_handle): a handle tells
// nothing about the user.
func (db *DB) WebAuthnHandle(ctx context.Context, userID uuid.UUID) ([]byte, error) {
	handle := make([]byte, webauthnHandleSize)
	if _, err := rand.Read(handle); err != nil {
		return nil, err
	}
	var out []byte
	err := db.Pool.QueryRow(ctx, `UPDATE users SET webauthn_handle = coalesce(webauthn_handle, $2) WHERE id = $1 RETURNING webauthn_handle`,
		userID, handle).Scan(&out)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "Not found")
	}
	return out, wrapErr(err)
}

const passkeyColumns = `id, user_id, credential_id, name, credential, created_at, last_used_at`

func scanPasskey(r pgx.Row) (kudos.Passkey, error) {
	var p kudos.Passkey
	err := r.Scan(&p.ID, &p.UserID, &p.CredentialID, &p.Name, &p.Credential, &p.CreatedAt, &p.LastUsedAt)
	return p, err
}

// Passkeys returns the passkeys of userID, oldest first.
func (db *DB) Passkeys(ctx context.Context, userID uuid.UUID) ([]kudos.Passkey, error) {
	rows, err := db.Pool.Query(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.Passkey, error) { return scanPasskey(r) })
	return out, wrapErr(err)
}

// PasskeyByCredentialID returns the passkey of that credential id, or
// ENotFound.
func (db *DB) PasskeyByCredentialID(ctx context.Context, credentialID []byte) (*kudos.Passkey, error) {
	p, err := scanPasskey(db.Pool.QueryRow(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE credential_id = $1`, credentialID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "Not found")
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &p, nil
}

// AddPasskey stores a new passkey of p.UserID (its ID and CreatedAt are
// set here) and records second_factor_added in the timeline of every
// account of the user. A credential registered already is EConflict.
//
// A user who has no recovery codes left (their first second factor, as
// with an authenticator app) is given the codes of codeHashes: issued
// reports it, and the caller shows them once. Without them a lost passkey
// would lock its owner out, since a password sign-in then asks for it.
// The registering session (sessionID) has just met the new factor (the
// attestation was user-verified), as an app's confirming session has; the
// device cookies issued so far stop vouching (voidDevices).
func (db *DB) AddPasskey(ctx context.Context, p *kudos.Passkey, sessionID uuid.UUID, codeHashes [][]byte) (issued bool, err error) {
	p.ID, p.CreatedAt = uuid.New(), db.Now().UTC().Truncate(time.Microsecond)
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		st, err := lockedMFAStatus(ctx, tx, p.UserID)
		if err != nil {
			return err
		}
		if issued = st.RecoveryCodesLeft == 0; issued {
			if err := replaceRecoveryCodes(ctx, tx, p.UserID, codeHashes, p.CreatedAt); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO passkeys (id, user_id, credential_id, name, credential, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			p.ID, p.UserID, p.CredentialID, p.Name, p.Credential, p.CreatedAt)
		if isUniqueViolation(err) {
			return kudos.Errorf(kudos.EConflict, "this passkey is registered already")
		}
		if err != nil {
			return wrapErr(err)
		}
		if err := markSecondFactor(ctx, tx, sessionID, p.CreatedAt); err != nil {
			return err
		}
		if err := voidDevices(ctx, tx, p.UserID, p.CreatedAt); err != nil {
			return err
		}
		return secondFactorEvent(ctx, tx, p.UserID, kudos.EventSecondFactorAdded, "passkey", p.ID, p.CreatedAt)
	})
	return issued && err == nil, err
}

// RenamePasskey renames a passkey of userID; another user's (or none) is
// ENotFound.
func (db *DB) RenamePasskey(ctx context.Context, userID, id uuid.UUID, name string) (*kudos.Passkey, error) {
	p, err := scanPasskey(db.Pool.QueryRow(ctx, `UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING `+passkeyColumns,
		id, userID, name))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.ENotFound, "Not found")
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &p, nil
}

// DeletePasskey removes a passkey of userID and records
// second_factor_removed in the timeline of each of their accounts;
// another user's (or none) is ENotFound.
func (db *DB) DeletePasskey(ctx context.Context, userID, id uuid.UUID) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := lockedMFAStatus(ctx, tx, userID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM passkeys WHERE id = $1 AND user_id = $2`, id, userID)
		if err != nil {
			return wrapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.ENotFound, "Not found")
		}
		if err := dropCodesOfNoFactor(ctx, tx, userID); err != nil {
			return err
		}
		return secondFactorEvent(ctx, tx, userID, kudos.EventSecondFactorRemoved, "passkey", id, now)
	})
}

// PasskeyUsed records a verified assertion of passkey id: its credential
// record as the library updated it (sign count, flags) and last_used_at.
// The stored sign count must be below signCount (both zero for an
// authenticator that keeps no counter): a counter that did not move
// forward, perhaps a cloned authenticator or a replay racing this one, is
// EUnauthorized and changes nothing.
func (db *DB) PasskeyUsed(ctx context.Context, id uuid.UUID, credential json.RawMessage, signCount uint32) error {
	tag, err := db.Pool.Exec(ctx, `UPDATE passkeys SET credential = $2, last_used_at = $3
		WHERE id = $1 AND (coalesce((credential->'authenticator'->>'signCount')::bigint, 0) < $4
			OR ($4 = 0 AND coalesce((credential->'authenticator'->>'signCount')::bigint, 0) = 0))`,
		id, credential, db.Now(), int64(signCount))
	if err != nil {
		return wrapErr(err)
	}
	if tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	return nil
}

// Ceremony is a WebAuthn ceremony in progress (webauthn_ceremonies): the
// library's session data, for one purpose, of one user (nil for a
// passwordless sign-in, whose user the passkey tells).
type Ceremony struct {
	ID          uuid.UUID
	UserID      *uuid.UUID
	Purpose     kudos.CeremonyPurpose
	SessionData json.RawMessage
	ExpiresAt   time.Time
}

// CreateCeremony stores a new ceremony (its ID is set here).
func (db *DB) CreateCeremony(ctx context.Context, c *Ceremony) error {
	c.ID = uuid.New()
	_, err := db.Pool.Exec(ctx, `INSERT INTO webauthn_ceremonies (id, user_id, purpose, session_data, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, c.ID, c.UserID, string(c.Purpose), c.SessionData, db.Now(), c.ExpiresAt)
	return wrapErr(err)
}

// TakeCeremony uses the ceremony id of that purpose up and returns it: a
// ceremony is used once, whatever its outcome. One that is unknown, of
// another purpose, used already or expired is EUnauthorized.
func (db *DB) TakeCeremony(ctx context.Context, id uuid.UUID, purpose kudos.CeremonyPurpose) (*Ceremony, error) {
	now := db.Now()
	c := Ceremony{ID: id}
	err := db.Pool.QueryRow(ctx, `UPDATE webauthn_ceremonies SET used_at = $3
		WHERE id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
		RETURNING user_id, purpose, session_data, expires_at`, id, string(purpose), now).
		Scan(&c.UserID, &c.Purpose, &c.SessionData, &c.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &c, nil
}
