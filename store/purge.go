package store

import (
	"context"
	"fmt"
	"time"

	"kudos"
)

// Purged counts, by table, the expired rows PurgeExpired deleted.
type Purged struct {
	RateLimits, OIDCFlows, Sessions, UserTokens, WebAuthnCeremonies int64
	// MFAChallenges are sign-in challenges past their 5 minutes (issue 29).
	MFAChallenges int64
	// VATAnswers are VIES's answers past kudos.VATAnswerTTL (issue 35).
	VATAnswers int64
	// SentMails are records of mails sent before SentMailRetention.
	SentMails int64
}

// SentMailRetention is how long the record of a mail handed to SMTP is
// kept: it makes a retried send of the same request key send nothing. It
// is far longer than a mail's retries (workflows.EmailDeliveryWindow, a
// day), than the outbox keeps a delivered entry (whose key refuses the
// same mail queued again: 7 days) and than the provider reconciliation
// reads back (disputes: 120 days).
const SentMailRetention = 180 * 24 * time.Hour

// Total is the number of rows deleted.
func (p Purged) Total() int64 {
	return p.RateLimits + p.OIDCFlows + p.Sessions + p.UserTokens + p.WebAuthnCeremonies + p.MFAChallenges + p.VATAnswers +
		p.SentMails
}

// PurgeExpired deletes what is of no use any more: rate-limit buckets
// untouched for their period (full again), Google sign-in flows past their
// expiry, sign-in challenges past theirs, sessions that ended (expired, idled out or revoked: none of them
// is accepted again), mailed tokens past their expiry, used or not, and
// WebAuthn ceremonies past theirs, VIES's answers past
// kudos.VATAnswerTTL, and the records of mails sent before
// SentMailRetention.
// The reconciliation runs it on the Schedule's beat. Each table is purged
// in statements of at most PurgeBatch rows (issue 39): a backlog (a day of
// expired sessions at a million users) is never one long transaction
// holding its locks and bloating the WAL at once.
func (db *DB) PurgeExpired(ctx context.Context) (Purged, error) {
	now := db.Now()
	var p Purged
	for _, q := range []struct {
		n   *int64
		sql string
		arg []any
	}{
		{&p.RateLimits, batched("rate_limits", `expires_at <= $1`), []any{now}},
		{&p.OIDCFlows, batched("oidc_flows", `expires_at <= $1`), []any{now}},
		{&p.MFAChallenges, batched("mfa_challenges", `expires_at <= $1`), []any{now}},
		{&p.Sessions, batched("sessions", `expires_at <= $1 OR revoked_at IS NOT NULL OR last_seen_at <= $2`), []any{now, db.idleSince(now)}},
		{&p.UserTokens, batched("user_tokens", `expires_at <= $1`), []any{now}},
		{&p.WebAuthnCeremonies, batched("webauthn_ceremonies", `expires_at <= $1`), []any{now}},
		{&p.VATAnswers, batched("vat_answers", `checked_at <= $1`), []any{now.Add(-kudos.VATAnswerTTL)}},
		{&p.SentMails, batched("sent_mails", `sent_at <= $1`), []any{now.Add(-SentMailRetention)}},
	} {
		for {
			tag, err := db.Pool.Exec(ctx, q.sql, q.arg...)
			if err != nil {
				return p, wrapErr(err)
			}
			*q.n += tag.RowsAffected()
			if tag.RowsAffected() < PurgeBatch {
				break
			}
		}
	}
	return p, nil
}

// PurgeBatch is the most rows one purge statement deletes.
const PurgeBatch = 5000

// batched is the statement deleting at most PurgeBatch rows of table that
// match cond (an index on cond's columns finds them: migration 00093).
func batched(table, cond string) string {
	return fmt.Sprintf(`DELETE FROM %[1]s WHERE ctid = ANY(ARRAY(SELECT ctid FROM %[1]s WHERE %[2]s LIMIT %[3]d))`, table, cond, PurgeBatch)
}
