// Package devstack runs the local stand-ins of ARCHITECTURE §3 inside the
// development binary: today the OIDC provider that replaces Google (the
// capture inbox lives in mailer/). Nothing here runs in production.
package devstack

import (
	"fmt"
	"net"

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

// QueueIdentity makes the next sign-in return this person.
func (o *OIDC) QueueIdentity(subject, email string, emailVerified bool) {
	o.m.QueueUser(&mockoidc.MockUser{Subject: subject, Email: email, EmailVerified: emailVerified, PreferredUsername: email})
}

// Close stops the provider.
func (o *OIDC) Close() error { return o.m.Shutdown() }
