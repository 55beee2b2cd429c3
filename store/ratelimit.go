package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"sync"
	"time"
)

// Limiter is a token-bucket rate limiter kept in Postgres, so that a limit
// holds across every api replica: Burst requests at once, refilled evenly
// over Per. A refused request takes nothing from the bucket, so a bucket
// that someone keeps hammering still refills: it slows guessing without
// locking anyone out for long. Each check is one upsert.
type Limiter struct {
	DB    *DB
	Name  string
	Burst int
	Per   time.Duration

	mu    sync.Mutex
	sweep time.Time
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
		INSERT INTO rate_limits AS r (key, tokens, ok, at) VALUES ($1, $2::float8 - 1, true, $3)
		ON CONFLICT (key) DO UPDATE SET
			tokens = CASE WHEN least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) >= 1
				THEN least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) - 1
				ELSE least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) END,
			ok = least($2, r.tokens + greatest(0, extract(epoch FROM $3 - r.at)) * $4) >= 1,
			at = $3
		RETURNING tokens, ok`, id, float64(l.Burst), now, rate).Scan(&tokens, &ok)
	if err != nil {
		return false, 0, wrapErr(err)
	}
	l.maybeSweep(ctx, now)
	if ok {
		return true, 0, nil
	}
	return false, time.Duration(math.Max(0, 1-tokens) / rate * float64(time.Second)), nil
}

// maybeSweep deletes, at most once per period and replica, the buckets of
// this limiter untouched for a whole period (full again: as if absent).
func (l *Limiter) maybeSweep(ctx context.Context, now time.Time) {
	l.mu.Lock()
	due := now.Sub(l.sweep) > l.Per
	if due {
		l.sweep = now
	}
	l.mu.Unlock()
	if due {
		_, _ = l.DB.Pool.Exec(ctx, `DELETE FROM rate_limits WHERE key LIKE $1 AND at < $2`, l.Name+":%", now.Add(-l.Per))
	}
}
