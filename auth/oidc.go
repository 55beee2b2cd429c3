package auth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Identity is what a verified ID token tells about the person signing in.
type Identity struct {
	Issuer, Subject       string
	Email                 string
	EmailVerified         bool
	GivenName, FamilyName string
	// AuthTime is when the person last authenticated at the provider
	// (auth_time; zero when the token does not say).
	AuthTime time.Time
}

// OIDC is the OpenID Connect client for Google sign-in (or the development
// provider). Discovery happens on first use and is retried until it works,
// so the api starts even when the provider is unreachable.
type OIDC struct {
	Issuer, ClientID, ClientSecret string

	mu       sync.Mutex
	provider *oidc.Provider
}

func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(context.WithoutCancel(ctx), nil), o.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc discovery of %s: %w", o.Issuer, err)
	}
	o.provider = p
	return p, nil
}

func (o *OIDC) config(p *oidc.Provider, redirectURL string) *oauth2.Config {
	return &oauth2.Config{
		ClientID: o.ClientID, ClientSecret: o.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: redirectURL, Scopes: []string{oidc.ScopeOpenID, "email", "profile"},
	}
}

// AuthURL returns the provider URL the browser is sent to, bound to state,
// nonce and the PKCE verifier. With maxAge (a step-up) the provider is
// asked to authenticate the person again (prompt=login, max_age), and the
// ID token then says when it did (auth_time).
func (o *OIDC) AuthURL(ctx context.Context, redirectURL, state, nonce, verifier string, maxAge time.Duration) (string, error) {
	p, err := o.discover(ctx)
	if err != nil {
		return "", err
	}
	opts := []oauth2.AuthCodeOption{oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("prompt", "select_account")}
	if maxAge > 0 {
		opts = append(opts, oauth2.SetAuthURLParam("prompt", "login"),
			oauth2.SetAuthURLParam("max_age", strconv.Itoa(int(maxAge/time.Second))))
	}
	return o.config(p, redirectURL).AuthCodeURL(state, opts...), nil
}

// ErrBadIDToken marks an answer of the provider that does not verify.
var ErrBadIDToken = errors.New("oidc: the ID token does not verify")

// Exchange trades the code for tokens (with the PKCE verifier) and verifies
// the ID token's signature, issuer, audience (our client id), expiry and nonce.
func (o *OIDC) Exchange(ctx context.Context, redirectURL, code, verifier, nonce string) (*Identity, error) {
	p, err := o.discover(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := o.config(p, redirectURL).Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("oidc code exchange: %w", err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok {
		return nil, ErrBadIDToken
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: o.ClientID}).Verify(ctx, raw)
	if err != nil || idt.Nonce != nonce {
		return nil, ErrBadIDToken
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"`
		GivenName     string `json:"given_name"`
		FamilyName    string `json:"family_name"`
		AuthTime      int64  `json:"auth_time"`
	}
	if err := idt.Claims(&claims); err != nil {
		return nil, ErrBadIDToken
	}
	return &Identity{
		Issuer: idt.Issuer, Subject: idt.Subject, Email: claims.Email,
		// Some providers send the flag as a string.
		EmailVerified: claims.EmailVerified == true || claims.EmailVerified == "true",
		GivenName:     claims.GivenName, FamilyName: claims.FamilyName,
		AuthTime: authTime(claims.AuthTime),
	}, nil
}

// authTime is the time of an auth_time claim (zero for none).
func authTime(unix int64) time.Time {
	if unix <= 0 {
		return time.Time{}
	}
	return time.Unix(unix, 0)
}
