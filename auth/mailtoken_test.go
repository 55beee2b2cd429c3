package auth

import (
	"encoding/base64"
	"strings"
	"testing"

	"kudos"
)

func TestMailTokens(t *testing.T) {
	m := NewMailTokens(testSecret)
	key := NewKey()
	if len(key) != 32 || NewKey() == key {
		t.Fatalf("keys must be 128 random bits: %q", key)
	}
	a := m.Token(kudos.TokenActivation, key)
	if a != m.Token(kudos.TokenActivation, key) {
		t.Fatal("the token of a key is not stable: a retried mail would carry a dead link")
	}
	if a == m.Token(kudos.TokenPasswordReset, key) {
		t.Fatal("tokens of different purposes are equal")
	}
	if a == NewMailTokens("another-secret-another-secret-xx").Token(kudos.TokenActivation, key) {
		t.Fatal("the token does not depend on the secret")
	}
	if !ValidTokenShape(a) || ValidTokenShape(a[:42]) || ValidTokenShape(a[:42]+"*") {
		t.Fatal("ValidTokenShape is wrong")
	}
	if string(HashToken(a)) == a || len(HashToken(a)) != 32 {
		t.Fatal("HashToken must be SHA-256")
	}
}

func FuzzValidTokenShape(f *testing.F) {
	f.Add(NewMailTokens(testSecret).Token(kudos.TokenActivation, "k"))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidTokenShape(s) {
			return
		}
		// Accepted: 43 base64url characters, which carry the 32 bytes of a
		// token and nothing that could upset the database lookup.
		raw, err := base64.RawURLEncoding.DecodeString(s)
		if len(s) != 43 || err != nil || len(raw) != 32 || strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("accepted %q", s)
		}
	})
}

// FuzzMailTokens: every token made for any purpose and key has the shape the
// api accepts, is stable, round-trips through base64url, and is bound to its
// purpose and key.
func FuzzMailTokens(f *testing.F) {
	f.Add(string(kudos.TokenActivation), NewKey())
	f.Add(string(kudos.TokenPasswordReset), "")
	f.Add("", "\x00\xff")
	m := NewMailTokens(testSecret)
	f.Fuzz(func(t *testing.T, purpose, key string) {
		tok := m.Token(kudos.TokenPurpose(purpose), key)
		if !ValidTokenShape(tok) || tok != m.Token(kudos.TokenPurpose(purpose), key) {
			t.Fatalf("token %q of (%q, %q) is refused or unstable", tok, purpose, key)
		}
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 32 || base64.RawURLEncoding.EncodeToString(raw) != tok {
			t.Fatalf("token %q does not round-trip", tok)
		}
		if tok == m.Token(kudos.TokenPurpose(purpose), key+"x") || tok == m.Token(kudos.TokenPurpose(purpose+"x"), key) {
			t.Fatal("the token does not depend on its purpose and key")
		}
		if h := HashToken(tok); len(h) != 32 || string(h) != string(HashToken(tok)) {
			t.Fatal("HashToken is not a stable SHA-256")
		}
	})
}
