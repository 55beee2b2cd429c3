// Package devstack runs the local stand-ins of ARCHITECTURE §3 inside the
// development binary: today the OIDC provider that replaces Google (the
// capture inbox lives in mailer/). Nothing here runs in production.
package devstack

import (
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
)

// Client credentials of the development OIDC provider: fixed, so that
// restarting the binary keeps the configuration stable.
const (
	OIDCClientID     = "kudos-dev"
	OIDCClientSecret = "kudos-dev-secret"
)

// OIDC is the development identity provider: every authorization is granted
// at once, to the queued identity or else to a default person.
type OIDC struct {
	m *mockoidc.MockOIDC
}

// StartOIDC starts the provider on addr (host:port).
func StartOIDC(addr string) (*OIDC, error) {
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		return nil, err
	}
	m.ClientID, m.ClientSecret = OIDCClientID, OIDCClientSecret
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("development OIDC provider on %s: %w", addr, err)
	}
	if err := m.Start(ln, nil); err != nil {
		return nil, err
	}
	return &OIDC{m: m}, nil
}

// Issuer is the provider's issuer URL.
func (o *OIDC) Issuer() string { return o.m.Issuer() }

// QueueIdentity makes the next sign-in return this person, signed in
// just now (auth_time), as Google answers a sign-in with prompt=login.
// An identity whose address is not verified carries no email_verified
// claim at all (the "missing" case).
func (o *OIDC) QueueIdentity(subject, email string, emailVerified bool) {
	o.QueueIdentityAt(subject, email, emailVerified, time.Now())
}

// QueueIdentityAt is QueueIdentity for a person who last signed in at the
// provider at authTime (the ID token's auth_time; none when zero): step-up
// tests use it for stale and missing authentication times.
func (o *OIDC) QueueIdentityAt(subject, email string, emailVerified bool, authTime time.Time) {
	o.m.QueueUser(&identity{MockUser: &mockoidc.MockUser{Subject: subject, Email: email, EmailVerified: emailVerified,
		PreferredUsername: email}, authTime: authTime})
}

// identity is a queued person whose ID token carries auth_time.
type identity struct {
	*mockoidc.MockUser
	authTime time.Time
}

// Claims adds auth_time to the claims of the mock user.
func (u *identity) Claims(scope []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	c, err := u.MockUser.Claims(scope, base)
	if err != nil || u.authTime.IsZero() {
		return c, err
	}
	return &withAuthTime{Claims: c, AuthTime: u.authTime.Unix()}, nil
}

// withAuthTime is a set of claims with auth_time added.
type withAuthTime struct {
	jwt.Claims
	AuthTime int64
}

// MarshalJSON writes the inner claims with auth_time among them.
func (w *withAuthTime) MarshalJSON() ([]byte, error) {
	raw, err := json.Marshal(w.Claims)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	m["auth_time"] = w.AuthTime
	return json.Marshal(m)
}

// Close stops the provider.
func (o *OIDC) Close() error { return o.m.Shutdown() }
