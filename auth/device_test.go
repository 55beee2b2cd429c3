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

// TestDeviceIssuedSince: a cookie counts from the second it was issued; one
// issued before the user's devices_valid_from does not (issue 35).
func TestDeviceIssuedSince(t *testing.T) {
	d := NewDevices("secret")
	alice := uuid.New()
	issued := time.Date(2026, 11, 27, 10, 0, 0, 500_000_000, time.UTC)
	v := d.Issue(alice, issued.Add(DeviceTTL))
	for from, want := range map[time.Time]bool{
		{}:                        true,
		issued.Add(-time.Hour):    true,
		issued:                    true,
		issued.Add(time.Second):   false,
		issued.Add(DeviceTTL / 2): false,
	} {
		if got := d.IssuedSince(v, from); got != want {
			t.Errorf("issued %v, valid from %v: %v, want %v", issued, from, got, want)
		}
	}
}
