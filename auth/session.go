package auth

import (
	"crypto/sha256"
	"encoding/base64"
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
// of the sessions table, so that revoking the row ends the token. The
// header's kid names the key that signed the token (KeyID), so that the
// secret can be rotated: tokens are signed with the current key, and the
// previous keys still verify theirs while they are configured.
type Sessions struct {
	kid  string
	keys map[string][]byte // by key id: the current key and the previous ones
	now  func() time.Time
}

// NewSessions returns a Sessions signing with secret and verifying tokens
// of secret and of every previous secret.
func NewSessions(secret string, now func() time.Time, previous ...string) *Sessions {
	if now == nil {
		now = time.Now
	}
	t := &Sessions{kid: KeyID(secret), keys: map[string][]byte{}, now: now}
	for _, p := range previous {
		t.keys[KeyID(p)] = []byte(p)
	}
	t.keys[t.kid] = []byte(secret)
	return t
}

// KeyID names a signing secret in a token's header: a hash of it, which
// tells nothing of the secret, and the same in every replica.
func KeyID(secret string) string {
	sum := sha256.Sum256([]byte("kudos-session-kid\x00" + secret))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

// key finds the key a token names by its kid: unknown ids are refused. A
// token without kid (issued before key ids) verifies with the current key
// only.
func (t *Sessions) key(tok *jwt.Token) (any, error) {
	kid, ok := tok.Header["kid"]
	if !ok {
		return t.keys[t.kid], nil
	}
	name, _ := kid.(string)
	if key, ok := t.keys[name]; ok {
		return key, nil
	}
	return nil, errUnknownKey
}

var errUnknownKey = errors.New("session token: unknown key id")

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
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	tok.Header["kid"] = t.kid
	return tok.SignedString(t.keys[t.kid])
}

// Parse verifies a token (algorithm pinned to HS256; key named by kid;
// signature, exp, iat, iss and aud required) and returns the session id and user id it names. Every
// failure is EUnauthorized; the reason is not told to the client.
func (t *Sessions) Parse(token string) (sessionID, userID uuid.UUID, err error) {
	unauthorized := kudos.Errorf(kudos.EUnauthorized, "Unauthorized")
	if token == "" || len(token) > 4096 {
		return uuid.Nil, uuid.Nil, unauthorized
	}
	var claims jwt.RegisteredClaims
	_, err = jwt.ParseWithClaims(token, &claims, t.key,
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
