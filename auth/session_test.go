package auth

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"kudos"
)

const testSecret = "0123456789abcdef0123456789abcdef"

func TestSessionsRoundTrip(t *testing.T) {
	s := NewSessions(testSecret, nil)
	sess := &kudos.Session{ID: uuid.New(), UserID: uuid.New(), ExpiresAt: time.Now().Add(time.Hour)}
	tok, err := s.Issue(sess)
	if err != nil {
		t.Fatal(err)
	}
	sid, uid, err := s.Parse(tok)
	if err != nil || sid != sess.ID || uid != sess.UserID {
		t.Fatalf("Parse = %v %v %v", sid, uid, err)
	}
}

func TestSessionsRefuse(t *testing.T) {
	s := NewSessions(testSecret, nil)
	sess := &kudos.Session{ID: uuid.New(), UserID: uuid.New(), ExpiresAt: time.Now().Add(time.Hour)}
	good, _ := s.Issue(sess)
	parts := strings.Split(good, ".")
	sign := func(claims jwt.Claims, method jwt.SigningMethod, key any) string {
		tok, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	valid := func() jwt.RegisteredClaims {
		return jwt.RegisteredClaims{Issuer: tokenIssuer, Subject: sess.UserID.String(), Audience: jwt.ClaimStrings{tokenAudience},
			ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour)), IssuedAt: jwt.NewNumericDate(time.Now()), ID: sess.ID.String()}
	}
	noneHeader := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	tampered := parts[0] + "." + parts[1] + "." + strings.Map(func(r rune) rune {
		if r == 'A' {
			return 'B'
		}
		return 'A'
	}, parts[2])
	cases := map[string]string{
		"empty":            "",
		"garbage":          "not.a.token",
		"alg none":         noneHeader + "." + parts[1] + ".",
		"tampered sig":     tampered,
		"tampered payload": parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"x"}`)) + "." + parts[2],
		"other secret":     sign(valid(), jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx")),
		"HS512":            sign(valid(), jwt.SigningMethodHS512, []byte(testSecret)),
		"expired": sign(func() jwt.RegisteredClaims {
			c := valid()
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Minute))
			return c
		}(), jwt.SigningMethodHS256, []byte(testSecret)),
		"no exp": sign(func() jwt.RegisteredClaims { c := valid(); c.ExpiresAt = nil; return c }(), jwt.SigningMethodHS256, []byte(testSecret)),
		"no iat": sign(func() jwt.RegisteredClaims { c := valid(); c.IssuedAt = nil; return c }(), jwt.SigningMethodHS256, []byte(testSecret)),
		"wrong aud": sign(func() jwt.RegisteredClaims {
			c := valid()
			c.Audience = jwt.ClaimStrings{"other"}
			return c
		}(), jwt.SigningMethodHS256, []byte(testSecret)),
		"wrong iss": sign(func() jwt.RegisteredClaims { c := valid(); c.Issuer = "evil"; return c }(), jwt.SigningMethodHS256, []byte(testSecret)),
		"bad jti":   sign(func() jwt.RegisteredClaims { c := valid(); c.ID = "x"; return c }(), jwt.SigningMethodHS256, []byte(testSecret)),
	}
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			if _, _, err := s.Parse(tok); kudos.ErrorCode(err) != kudos.EUnauthorized {
				t.Fatalf("Parse(%s) err = %v, want unauthorized", name, err)
			}
		})
	}
}

func FuzzSessionsParse(f *testing.F) {
	s := NewSessions(testSecret, nil)
	good, _ := s.Issue(&kudos.Session{ID: uuid.New(), UserID: uuid.New(), ExpiresAt: time.Now().Add(time.Hour)})
	f.Add(good)
	f.Add("a.b.c")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		sid, uid, err := s.Parse(tok)
		if err == nil && (sid == uuid.Nil || uid == uuid.Nil) {
			t.Fatalf("accepted a token without ids: %q", tok)
		}
		if err != nil && kudos.ErrorCode(err) != kudos.EUnauthorized {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}

// FuzzSessionsRoundTrip: a token issued for any session parses back to its
// session and user, and a token changed in any one byte never parses to
// other ids (it fails, or decodes to the same bytes: base64 padding bits).
//
// The clock is fixed (half a second past a whole second, as a token's exp is
// cut to whole seconds): on the wall clock a 1 s session issued just before a
// second ends has expired a few microseconds later, which failed CI once
// (testdata c11305ea37975934) without any defect in Issue or Parse.
func FuzzSessionsRoundTrip(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 16), int64(3600), uint16(0), byte(1))
	f.Add([]byte("0123456789abcdef"), []byte("fedcba9876543210"), int64(60), uint16(40), byte('x'))
	now := time.Date(2026, 11, 24, 10, 0, 0, 5e8, time.UTC)
	s := NewSessions(testSecret, func() time.Time { return now })
	f.Fuzz(func(t *testing.T, sessionBytes, userBytes []byte, ttl int64, at uint16, xor byte) {
		sid, err1 := uuid.FromBytes(sessionBytes)
		uid, err2 := uuid.FromBytes(userBytes)
		if err1 != nil || err2 != nil || sid == uuid.Nil || uid == uuid.Nil || ttl < 1 || ttl > 1<<32 {
			return
		}
		tok, err := s.Issue(&kudos.Session{ID: sid, UserID: uid, ExpiresAt: now.Add(time.Duration(ttl) * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		gotSID, gotUID, err := s.Parse(tok)
		if err != nil || gotSID != sid || gotUID != uid {
			t.Fatalf("Parse(Issue(%v, %v)) = %v, %v, %v", sid, uid, gotSID, gotUID, err)
		}
		if xor == 0 {
			return
		}
		b := []byte(tok)
		b[int(at)%len(b)] ^= xor
		if gotSID, gotUID, err := s.Parse(string(b)); err == nil && (gotSID != sid || gotUID != uid) {
			t.Fatalf("a changed token parsed to other ids: %v %v", gotSID, gotUID)
		}
	})
}
