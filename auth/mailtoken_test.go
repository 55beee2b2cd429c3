package auth

import (
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
		if ValidTokenShape(s) && len(s) != 43 {
			t.Fatalf("accepted %q", s)
		}
	})
}
