package store

import (
	"context"

	"kudos"
)

// Purged counts, by table, the expired rows PurgeExpired deleted.
type Purged struct {
	RateLimits, OIDCFlows, Sessions, UserTokens, WebAuthnCeremonies int64
	// MFAChallenges are sign-in challenges past their 5 minutes (issue 29).
	MFAChallenges int64
	// VATAnswers are VIES's answers past kudos.VATAnswerTTL (issue 35).
	VATAnswers int64
}

// Total is the number of rows deleted.
func (p Purged) Total() int64 {
	return p.RateLimits + p.OIDCFlows + p.Sessions + p.UserTokens + p.WebAuthnCeremonies + p.MFAChallenges + p.VATAnswers
}

// PurgeExpired deletes what is of no use any more: rate-limit buckets
// untouched for their period (full again), Google sign-in flows past their
// expiry, sign-in challenges past theirs, sessions that ended (expired, idled out or revoked: none of them
// is accepted again), mailed tokens past their expiry, used or not, and
// WebAuthn ceremonies past theirs, and VIES's answers past
// kudos.VATAnswerTTL.
// The reconciliation runs it on the Schedule's beat.
func (db *DB) PurgeExpired(ctx context.Context) (Purged, error) {
	now := db.Now()
	var p Purged
	for _, q := range []struct {
		n   *int64
		sql string
		arg []any
	}{
		{&p.RateLimits, `DELETE FROM rate_limits WHERE expires_at <= $1`, []any{now}},
		{&p.OIDCFlows, `DELETE FROM oidc_flows WHERE expires_at <= $1`, []any{now}},
		{&p.MFAChallenges, `DELETE FROM mfa_challenges WHERE expires_at <= $1`, []any{now}},
		{&p.Sessions, `DELETE FROM sessions WHERE expires_at <= $1 OR revoked_at IS NOT NULL OR last_seen_at <= $2`, []any{now, db.idleSince(now)}},
		{&p.UserTokens, `DELETE FROM user_tokens WHERE expires_at <= $1`, []any{now}},
		{&p.WebAuthnCeremonies, `DELETE FROM webauthn_ceremonies WHERE expires_at <= $1`, []any{now}},
		{&p.VATAnswers, `DELETE FROM vat_answers WHERE checked_at <= $1`, []any{now.Add(-kudos.VATAnswerTTL)}},
	} {
		tag, err := db.Pool.Exec(ctx, q.sql, q.arg...)
		if err != nil {
			return p, wrapErr(err)
		}
		*q.n = tag.RowsAffected()
	}
	return p, nil
}
