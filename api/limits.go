package api

import (
	"math"
	"time"

	"kudos"
	"kudos/auth"
)

// limits are the rate limits on credential and mail-sending routes. Per
// address limits slow one client; per e-mail limits slow guessing one
// account's password from many addresses, and refill within minutes.
type limits struct {
	signinIP    *auth.Limiter // sign-in attempts per client address
	signinEmail *auth.Limiter // sign-in attempts per e-mail
	publicIP    *auth.Limiter // sign-up, resend and reset requests per client address
	mailEmail   *auth.Limiter // mails triggered per e-mail (silently dropped beyond)
}

func newLimits() limits {
	return limits{
		signinIP:    auth.NewLimiter(30, time.Minute),
		signinEmail: auth.NewLimiter(10, 10*time.Minute),
		publicIP:    auth.NewLimiter(20, 10*time.Minute),
		mailEmail:   auth.NewLimiter(5, time.Hour),
	}
}

// allow returns a 429 error when l refuses key.
func allow(l *auth.Limiter, key string) error {
	if ok, wait := l.Allow(key); !ok {
		return &kudos.Error{Code: kudos.ERateLimited, Message: "Too many requests", RetryAfter: int(math.Ceil(wait.Seconds()))}
	}
	return nil
}
