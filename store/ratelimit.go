package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"time"
)

// Limiter is a token-bucket rate limiter kept in Postgres, so that a limit
// holds across every api replica: Burst requests at once, refilled evenly
// over Per. A refused request takes nothing from the bucket, so a bucket
// that someone keeps hammering still refills: it slows guessing without
// locking anyone out for long. Each check is one upsert. A bucket untouched
// for Per is full again, as if absent: PurgeExpired deletes it.
type Limiter struct {
	DB    *DB
	Name  string
	Burst int
	Per   time.Duration
}

// NewLimiter returns a limiter named name (keys of different limiters never
// meet) of burst requests per period.
func (db *DB) NewLimiter(name string, burst int, per time.Duration) *Limiter {
	return &Limiter{DB: db, Name: name, Burst: burst, Per: per}
}

// Allow takes one token from key's bucket. When none is left it reports
// false and how long until one is.
func (l *Limiter) Allow(ctx context.Context, key string) (ok bool, retryAfter time.Duration, err error) {
	now := l.DB.Now()
	rate := float64(l.Burst) / l.Per.Seconds() // tokens per second
	sum := sha256.Sum256([]byte(key))
	id := l.Name + ":" + hex.EncodeToString(sum[:16])
	var tokens float64
	err = l.DB.Pool.QueryRow(ctx, `
		INSERT INTO rate_limits AS r (key, tokens, ok, at, expires_at) VALUES ($1, $2::float8 - 1, true, $3, $3::timestamptz + $5::interval)
		ON CONFLICT (key) DO UPDATE SET
			tokens = CASE WHEN least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) >= 1
				THEN least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) - 1
				ELSE least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) END,
			ok = least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) >= 1,
			at = $3,
			expires_at = $3::timestamptz + $5::interval
		RETURNING tokens, ok`, id, float64(l.Burst), now, rate, l.Per).Scan(&tokens, &ok)
	if err != nil {
		return false, 0, wrapErr(err)
	}
	if ok {
		return true, 0, nil
	}
	return false, time.Duration(math.Max(0, 1-tokens) / rate * float64(time.Second)), nil
}
