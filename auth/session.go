package auth

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"kudos"
)

// Token audience and issuer: a token of another service is refused.
const (
	tokenIssuer   = "kudos"
	tokenAudience = "kudos-api"
)

// Sessions issues and parses session tokens: HS256 JWTs whose jti names a row
// of the sessions table, so that revoking the row ends the token.
type Sessions struct {
	key []byte
	now func() time.Time
}

// NewSessions returns a Sessions signing with secret.
func NewSessions(secret string, now func() time.Time) *Sessions {
	if now == nil {
		now = time.Now
	}
	return &Sessions{key: []byte(secret), now: now}
}

// Issue returns the signed token for session s.
func (t *Sessions) Issue(s *kudos.Session) (string, error) {
	claims := jwt.RegisteredClaims{
		Issuer:    tokenIssuer,
		Subject:   s.UserID.String(),
		Audience:  jwt.ClaimStrings{tokenAudience},
		ExpiresAt: jwt.NewNumericDate(s.ExpiresAt),
		IssuedAt:  jwt.NewNumericDate(t.now()),
		ID:        s.ID.String(),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
}

// Parse verifies a token (algorithm pinned to HS256; signature, exp, iat, iss
// and aud required) and returns the session id and user id it names. Every
// failure is EUnauthorized; the reason is not told to the client.
func (t *Sessions) Parse(token string) (sessionID, userID uuid.UUID, err error) {
	unauthorized := kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	if token == "" || len(token) > 4096 {
		return uuid.Nil, uuid.Nil, unauthorized
	}
	var claims jwt.RegisteredClaims
	_, err = jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer), jwt.WithAudience(tokenAudience),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithTimeFunc(t.now))
	if err != nil {
		return uuid.Nil, uuid.Nil, unauthorized
	}
	if claims.IssuedAt == nil {
		return uuid.Nil, uuid.Nil, unauthorized
	}
	sessionID, err1 := uuid.Parse(claims.ID)
	userID, err2 := uuid.Parse(claims.Subject)
	if errors.Join(err1, err2) != nil {
		return uuid.Nil, uuid.Nil, unauthorized
	}
	return sessionID, userID, nil
}
