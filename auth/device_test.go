package auth

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestDeviceCookies: a value vouches for its user until it expires, and for
// no one once changed, moved to another user or signed with another secret.
func TestDeviceCookies(t *testing.T) {
	d, now := NewDevices("secret-one"), time.Now()
	alice, bob := uuid.New(), uuid.New()
	v := d.Issue(alice, now.Add(time.Hour))
	if !d.Valid(v, alice, now) {
		t.Fatal("a fresh cookie is refused")
	}
	for name, ok := range map[string]bool{
		"another user":   d.Valid(v, bob, now),
		"expired":        d.Valid(v, alice, now.Add(2*time.Hour)),
		"another secret": NewDevices("secret-two").Valid(v, alice, now),
		"tampered":       d.Valid(bob.String()+v[len(alice.String()):], bob, now),
		"empty":          d.Valid("", alice, now),
	} {
		if ok {
			t.Errorf("%s: accepted", name)
		}
	}
}
