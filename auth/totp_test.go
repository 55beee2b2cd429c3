package auth

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestTOTPRFC6238Vectors checks the SHA-1 test vectors of RFC 6238
// appendix B (8 digits, 30 s steps, the ASCII seed 1234567890×2).
func TestTOTPRFC6238Vectors(t *testing.T) {
	seed := []byte("12345678901234567890")
	for _, v := range []struct {
		unix int64
		want string
	}{
		{59, "94287082"}, {1111111109, "07081804"}, {1111111111, "14050471"},
		{1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
	} {
		if got := TOTPCode(seed, TOTPStep(time.Unix(v.unix, 0)), 8); got != v.want {
			t.Errorf("T=%d: %s, want %s", v.unix, got, v.want)
		}
	}
	// The 6-digit code is the last six digits of the 8-digit one.
	if got := TOTPCode(seed, TOTPStep(time.Unix(59, 0)), 6); got != "287082" {
		t.Errorf("6 digits at T=59: %s", got)
	}
}

// TestMatchTOTPWindows accepts the current step and one on either side,
// and nothing further.
func TestMatchTOTPWindows(t *testing.T) {
	secret := NewTOTPSecret()
	now := time.Unix(1_700_000_015, 0)
	cur := TOTPStep(now)
	for off := int64(-3); off <= 3; off++ {
		step, ok := MatchTOTP(secret, TOTPCode(secret, cur+off, TOTPDigits), now, 0)
		want := off >= -1 && off <= 1
		if ok != want || (ok && step != cur+off) {
			t.Errorf("offset %d: ok %v step %d, want ok %v", off, ok, step, want)
		}
	}
	for _, bad := range []string{"", "12345", "1234567", "abcdef"} {
		if _, ok := MatchTOTP(secret, bad, now, 0); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestMatchTOTPRefusesReplay refuses the code of the last accepted step
// and of any older one, and accepts a later step.
func TestMatchTOTPRefusesReplay(t *testing.T) {
	secret := NewTOTPSecret()
	now := time.Unix(1_700_000_015, 0)
	cur := TOTPStep(now)
	code := TOTPCode(secret, cur, TOTPDigits)
	step, ok := MatchTOTP(secret, code, now, 0)
	if !ok || step != cur {
		t.Fatalf("first use refused")
	}
	if _, ok := MatchTOTP(secret, code, now, step); ok {
		t.Fatal("the same code was accepted twice")
	}
	if _, ok := MatchTOTP(secret, TOTPCode(secret, cur-1, TOTPDigits), now, step); ok {
		t.Fatal("an older step was accepted after a newer one")
	}
	if got, ok := MatchTOTP(secret, TOTPCode(secret, cur+1, TOTPDigits), now, step); !ok || got != cur+1 {
		t.Fatal("the next step was refused")
	}
}

// TestTOTPURL is what authenticator apps read from the QR code.
func TestTOTPURL(t *testing.T) {
	secret := []byte("12345678901234567890")
	u, err := url.Parse(TOTPURL(secret, "ann@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Scheme != "otpauth" || u.Host != "totp" || u.Path != "/Kudos:ann@example.com" || q.Get("issuer") != "Kudos" ||
		q.Get("secret") != "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" || q.Get("digits") != "6" || q.Get("period") != "30" {
		t.Fatalf("otpauth url: %s", u)
	}
}

// TestSecretBox seals a secret that opens only with the same key, for the
// same user, and not in clear.
func TestSecretBox(t *testing.T) {
	key := bytes.Repeat([]byte{7}, MFAKeySize)
	box, err := NewSecretBox(key)
	if err != nil {
		t.Fatal(err)
	}
	user, secret := uuid.New(), NewTOTPSecret()
	sealed := box.Seal(user, secret)
	if bytes.Contains(sealed, secret) {
		t.Fatal("the sealed secret contains the secret")
	}
	if got, err := box.Open(user, sealed); err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("open: %v", err)
	}
	if _, err := box.Open(uuid.New(), sealed); err == nil {
		t.Fatal("opened for another user")
	}
	other, _ := NewSecretBox(bytes.Repeat([]byte{8}, MFAKeySize))
	if _, err := other.Open(user, sealed); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := NewSecretBox(key[:16]); err == nil {
		t.Fatal("a 16-byte key was accepted")
	}
}

// TestRecoveryCodes have the xxxx-xxxx-xxxx shape, differ, and hash the
// same however they are typed.
func TestRecoveryCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		c := NewRecoveryCode()
		if len(c) != 14 || c[4] != '-' || c[9] != '-' || seen[c] {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	c := NewRecoveryCode()
	typed := " " + strings.ToUpper(strings.ReplaceAll(c, "-", " ")) + " "
	if !bytes.Equal(HashRecoveryCode(c), HashRecoveryCode(typed)) {
		t.Fatal("a typed code does not match")
	}
	if bytes.Equal(HashRecoveryCode(c), HashRecoveryCode(NewRecoveryCode())) {
		t.Fatal("two codes hash the same")
	}
}
