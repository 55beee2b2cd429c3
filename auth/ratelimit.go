package auth

import (
	"math"
	"sync"
	"time"
)

// Limiter is a token-bucket rate limiter per key: Burst requests at once,
// refilled evenly over Per. A bucket refills completely within Per, so a key
// that an attacker exhausts (a victim's e-mail, say) is usable again after at
// most Per: the limit slows guessing without locking anyone out for long.
//
// Buckets live in memory, per api process. With several api processes the
// effective limit is multiplied by their number, which still bounds guessing.
type Limiter struct {
	Burst int
	Per   time.Duration
	Now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// NewLimiter returns a limiter of burst requests per period.
func NewLimiter(burst int, per time.Duration) *Limiter {
	return &Limiter{Burst: burst, Per: per, Now: time.Now, buckets: map[string]*bucket{}}
}

// Allow takes one token from key's bucket. When none is left it reports false
// and how long until one is.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	rate := float64(l.Burst) / l.Per.Seconds() // tokens per second
	if now.Sub(l.sweep) > l.Per {
		for k, b := range l.buckets { // forget buckets that are full again
			if b.tokens+now.Sub(b.at).Seconds()*rate >= float64(l.Burst) {
				delete(l.buckets, k)
			}
		}
		l.sweep = now
	}
	b, found := l.buckets[key]
	if !found {
		b = &bucket{tokens: float64(l.Burst), at: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(float64(l.Burst), b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / rate * float64(time.Second))
	return false, wait
}
