package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kudos"
)

// TOTPState is a user's TOTP row: the sealed secret (auth.SecretBox),
// whether a first code confirmed it, and the last accepted time step.
type TOTPState struct {
	Sealed    []byte
	Confirmed bool
	LastStep  int64
}

// TOTP returns the user's TOTP row; ENotFound when they have none.
func (db *DB) TOTP(ctx context.Context, userID uuid.UUID) (*TOTPState, error) {
	var s TOTPState
	err := db.Pool.QueryRow(ctx, `SELECT secret, confirmed_at IS NOT NULL, last_step FROM user_totp WHERE user_id = $1`,
		userID).Scan(&s.Sealed, &s.Confirmed, &s.LastStep)
	if err != nil {
		return nil, notFound(err)
	}
	return &s, nil
}

// StartTOTP stores a new, unconfirmed secret for the user, replacing an
// unconfirmed one; EConflict when a confirmed one exists.
func (db *DB) StartTOTP(ctx context.Context, userID uuid.UUID, sealed []byte) error {
	tag, err := db.Pool.Exec(ctx, `INSERT INTO user_totp (user_id, secret, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = 0, created_at = EXCLUDED.created_at
		WHERE user_totp.confirmed_at IS NULL`, userID, sealed, db.Now())
	if err != nil {
		return wrapErr(err)
	}
	if tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.EConflict, "two-factor authentication is on already")
	}
	return nil
}

// ConfirmTOTP is an enrolment confirmed by its first code (of step): the
// secret is confirmed, the recovery codes (their hashes) stored, the
// confirming session counts as having met the factor, the device cookies
// issued so far stop vouching (voidDevices), and every account the user
// belongs to records second_factor_added. EConflict when it was
// confirmed already or the step is not newer than the last (a replay).
func (db *DB) ConfirmTOTP(ctx context.Context, userID, sessionID uuid.UUID, step int64, codeHashes [][]byte) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := lockedMFAStatus(ctx, tx, userID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE user_totp SET confirmed_at = $2, last_step = $3
			WHERE user_id = $1 AND confirmed_at IS NULL AND last_step < $3`, userID, now, step)
		if err != nil {
			return wrapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.EConflict, "two-factor authentication is on already")
		}
		if err := replaceRecoveryCodes(ctx, tx, userID, codeHashes, now); err != nil {
			return err
		}
		if err := markSecondFactor(ctx, tx, sessionID, now); err != nil {
			return err
		}
		if err := voidDevices(ctx, tx, userID, now); err != nil {
			return err
		}
		return secondFactorEvent(ctx, tx, userID, kudos.EventSecondFactorAdded, "totp", userID, now)
	})
}

// DisableTOTP removes the user's TOTP app and their recovery codes, and
// records second_factor_removed in every account they belong to; ENotFound
// when they had no confirmed app.
func (db *DB) DisableTOTP(ctx context.Context, userID uuid.UUID) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := lockedMFAStatus(ctx, tx, userID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL`, userID)
		if err != nil {
			return wrapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.ENotFound, "two-factor authentication is off")
		}
		if err := dropCodesOfNoFactor(ctx, tx, userID); err != nil {
			return err
		}
		return secondFactorEvent(ctx, tx, userID, kudos.EventSecondFactorRemoved, "totp", userID, now)
	})
}

// ReplaceRecoveryCodes voids the user's recovery codes and stores new ones
// (their hashes); EConflict when the user has no second factor.
func (db *DB) ReplaceRecoveryCodes(ctx context.Context, userID uuid.UUID, codeHashes [][]byte) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		st, err := lockedMFAStatus(ctx, tx, userID)
		if err != nil {
			return err
		}
		if !st.Enrolled() {
			return kudos.Errorf(kudos.EConflict, "recovery codes come with a second factor: turn two-factor authentication on first")
		}
		return replaceRecoveryCodes(ctx, tx, userID, codeHashes, db.Now())
	})
}

// lockedMFAStatus locks the user's row, so that their second factors and
// recovery codes change one transaction at a time, and reads their status.
func lockedMFAStatus(ctx context.Context, tx pgx.Tx, userID uuid.UUID) (kudos.MFAStatus, error) {
	if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
		return kudos.MFAStatus{}, wrapErr(err)
	}
	return mfaStatus(ctx, tx, userID)
}

// dropCodesOfNoFactor deletes the user's recovery codes once they have no
// second factor left (the last one was just removed): codes recover a
// second factor, and a later one comes with new codes; the user's sessions
// no longer count as having met one. The last second
// factor of a member of an account that requires two-factor sign-in stays
// (EConflict, the transaction undone): they would be shut out of it.
func dropCodesOfNoFactor(ctx context.Context, tx pgx.Tx, userID uuid.UUID) error {
	st, err := mfaStatus(ctx, tx, userID)
	if err != nil || st.Enrolled() {
		return err
	}
	var required bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memberships m JOIN accounts a ON a.id = m.account_id
		WHERE m.user_id = $1 AND a.require_mfa)`, userID).Scan(&required); err != nil {
		return wrapErr(err)
	}
	if required {
		return kudos.Errorf(kudos.EConflict, "an account you belong to requires two-factor sign-in: keep a second factor, or add another one first")
	}
	if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return wrapErr(err)
	}
	// No session has met a second factor the user no longer has (the
	// policy check trusts second_factor_at without another query).
	_, err = tx.Exec(ctx, `UPDATE sessions SET second_factor_at = NULL WHERE user_id = $1`, userID)
	return wrapErr(err)
}

func replaceRecoveryCodes(ctx context.Context, tx pgx.Tx, userID uuid.UUID, codeHashes [][]byte, now time.Time) error {
	if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
		return wrapErr(err)
	}
	for _, h := range codeHashes {
		if _, err := tx.Exec(ctx, `INSERT INTO recovery_codes (id, user_id, code_hash, created_at) VALUES ($1, $2, $3, $4)`,
			uuid.New(), userID, h, now); err != nil {
			return wrapErr(err)
		}
	}
	return nil
}

// secondFactorEvent records a member's second factor (factor: totp or
// passkey; subject: the factor's own id, for the event's key) added or
// removed in every account they belong to (the team's part of the
// timeline; the member acted themselves).
func secondFactorEvent(ctx context.Context, tx pgx.Tx, userID uuid.UUID, typ kudos.BillingEventType, factor string, subject uuid.UUID, now time.Time) error {
	rows, err := tx.Query(ctx, `SELECT m.account_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.user_id = $1`, userID)
	if err != nil {
		return wrapErr(err)
	}
	type member struct {
		Account uuid.UUID
		Email   string
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[member])
	if err != nil {
		return wrapErr(err)
	}
	for _, m := range list {
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: m.Account, At: now, Type: typ, MemberEmail: m.Email, Factor: factor,
			Key: string(typ) + ":" + factor + ":" + subject.String() + ":" + now.Format(time.RFC3339Nano)}); err != nil {
			return err
		}
	}
	return nil
}

// MFAStatus tells which second factors the user has (kudos.MFAStatus:
// its Enrolled is the one rule of "has a second factor").
func (db *DB) MFAStatus(ctx context.Context, userID uuid.UUID) (kudos.MFAStatus, error) {
	return mfaStatus(ctx, db.Pool, userID)
}

// mfaStatus reads the user's second factors through q.
func mfaStatus(ctx context.Context, q querier, userID uuid.UUID) (kudos.MFAStatus, error) {
	var s kudos.MFAStatus
	err := q.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL),
		(SELECT count(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL),
		(SELECT count(*) FROM passkeys WHERE user_id = $1)`, userID).Scan(&s.TOTP, &s.RecoveryCodesLeft, &s.Passkeys)
	return s, wrapErr(err)
}

// SecondFactorProof is a second factor the api checked: a TOTP code of
// Step, a recovery code (its hash), or a passkey's assertion (verified and
// spent by the api). The store consumes it atomically:
// the step must be newer than the last accepted one (replay), the
// recovery code unused; Mails go out with it (mfa_recovery_used).
type SecondFactorProof struct {
	Factor       kudos.SecondFactor
	Step         int64
	RecoveryHash []byte
	Mails        []OutboxEntry
}

// errSecondFactor is the one answer to a second factor refused.
var errSecondFactor = kudos.Errorf(kudos.EUnauthorized, "Unauthorized")

// consume spends p for userID inside tx: errSecondFactor when the step
// was used already (or the app is gone) or the recovery code is unknown or
// used.
func (p SecondFactorProof) consume(ctx context.Context, tx pgx.Tx, userID uuid.UUID, now time.Time) error {
	var tag pgconn.CommandTag
	var err error
	switch p.Factor {
	case kudos.SecondFactorTOTP:
		tag, err = tx.Exec(ctx, `UPDATE user_totp SET last_step = $2
			WHERE user_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2`, userID, p.Step)
	case kudos.SecondFactorRecoveryCode:
		tag, err = tx.Exec(ctx, `UPDATE recovery_codes SET used_at = $3
			WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`, userID, p.RecoveryHash, now)
	case kudos.SecondFactorPasskey:
		// The api verified the assertion, and spent its single-use
		// ceremony and moved the passkey's sign count in doing so.
		return insertOutbox(ctx, tx, p.Mails...)
	default:
		return errSecondFactor
	}
	if err != nil {
		return wrapErr(err)
	}
	if tag.RowsAffected() == 0 {
		return errSecondFactor
	}
	return insertOutbox(ctx, tx, p.Mails...)
}

// markSecondFactor records that the session met a second factor now (a
// step-up, an enrolment).
func markSecondFactor(ctx context.Context, tx pgx.Tx, sessionID uuid.UUID, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE sessions SET second_factor_at = $2 WHERE id = $1`, sessionID, now)
	return wrapErr(err)
}

// VerifySecondFactor is a step-up: the session's user spends p, and the
// session may make sensitive changes for kudos.StepUpWindow.
func (db *DB) VerifySecondFactor(ctx context.Context, sessionID, userID uuid.UUID, p SecondFactorProof) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := p.consume(ctx, tx, userID, now); err != nil {
			return err
		}
		return markSecondFactor(ctx, tx, sessionID, now)
	})
}

// MFAChallenge is a sign-in that met its first factor and waits for the
// second.
type MFAChallenge struct {
	ID          uuid.UUID
	UserID      uuid.UUID
	FirstFactor kudos.SignInMethod
}

// CreateMFAChallenge stores a challenge (only the hash of its token) for
// userID, valid for kudos.MFAChallengeTTL.
func (db *DB) CreateMFAChallenge(ctx context.Context, tokenHash []byte, userID uuid.UUID, first kudos.SignInMethod) error {
	now := db.Now()
	_, err := db.Pool.Exec(ctx, `INSERT INTO mfa_challenges (id, token_hash, user_id, first_factor, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, uuid.New(), tokenHash, userID, string(first), now, now.Add(kudos.MFAChallengeTTL))
	return wrapErr(err)
}

// TryMFAChallenge counts an attempt at the challenge of tokenHash and
// returns it; EUnauthorized when it is unknown, expired, used, or out of
// tries (kudos.MFAChallengeTries).
func (db *DB) TryMFAChallenge(ctx context.Context, tokenHash []byte) (*MFAChallenge, error) {
	var ch MFAChallenge
	var first string
	err := db.Pool.QueryRow(ctx, `UPDATE mfa_challenges SET attempts = attempts + 1
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3
		RETURNING id, user_id, first_factor`, tokenHash, db.Now(), kudos.MFAChallengeTries).Scan(&ch.ID, &ch.UserID, &first)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errSecondFactor
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	ch.FirstFactor = kudos.SignInMethod(first)
	return &ch, nil
}

// MFAChallengeUser is the user of a challenge that can still be met
// (unused, unexpired, tries left), without counting a try: a passkey's
// options for it. EUnauthorized otherwise.
func (db *DB) MFAChallengeUser(ctx context.Context, tokenHash []byte) (uuid.UUID, error) {
	var userID uuid.UUID
	err := db.Pool.QueryRow(ctx, `SELECT user_id FROM mfa_challenges
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3`,
		tokenHash, db.Now(), kudos.MFAChallengeTries).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, errSecondFactor
	}
	return userID, wrapErr(err)
}

// CompleteMFAChallenge spends p for the challenge's user, uses the
// challenge up (once) and signs in: the session records the first factor
// and p's. EUnauthorized when p or the challenge is refused.
func (db *DB) CompleteMFAChallenge(ctx context.Context, ch *MFAChallenge, p SecondFactorProof, ttl time.Duration) (*SignedIn, error) {
	var out SignedIn
	now := db.Now()
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE mfa_challenges SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND expires_at > $2`, ch.ID, now)
		if err != nil {
			return wrapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return errSecondFactor
		}
		if err := p.consume(ctx, tx, ch.UserID, now); err != nil {
			return err
		}
		return signIn(ctx, tx, ch.UserID, now, ttl, SignInVia{Method: ch.FirstFactor, SecondFactor: p.Factor}, &out)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
