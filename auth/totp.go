package auth

import (
	"crypto/rand"
	"crypto/sha1" //nolint:gosec // RFC 6238 TOTP is HMAC-SHA-1 for every authenticator app
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP parameters (RFC 6238 with the defaults every authenticator app
// knows): HMAC-SHA-1, 6 digits, 30-second steps; a code is accepted in the
// step before and after the current one (clock drift), and each step once.
const (
	TOTPDigits     = 6
	TOTPPeriod     = 30 * time.Second
	TOTPSkew       = 1
	totpSecretSize = 20
	totpIssuer     = "Kudos"
)

var totpEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewTOTPSecret returns a random 160-bit TOTP secret (RFC 4226's
// recommended size).
func NewTOTPSecret() []byte {
	b := make([]byte, totpSecretSize)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

// TOTPSecretText is the secret as people type it into an authenticator
// app: base32 without padding.
func TOTPSecretText(secret []byte) string { return totpEncoding.EncodeToString(secret) }

// TOTPURL is the otpauth:// URL of a QR code that enrols secret for the
// account label (the user's e-mail) under the issuer Kudos.
func TOTPURL(secret []byte, label string) string {
	q := url.Values{}
	q.Set("secret", TOTPSecretText(secret))
	q.Set("issuer", totpIssuer)
	q.Set("algorithm", "SHA1")
	q.Set("digits", fmt.Sprint(TOTPDigits))
	q.Set("period", fmt.Sprint(int(TOTPPeriod/time.Second)))
	return "otpauth://totp/" + url.PathEscape(totpIssuer+":"+label) + "?" + q.Encode()
}

// TOTPStep is the time step t falls in.
func TOTPStep(t time.Time) int64 { return t.Unix() / int64(TOTPPeriod/time.Second) }

// TOTPCode is the code of secret at step (RFC 4226 dynamic truncation),
// with digits digits.
func TOTPCode(secret []byte, step int64, digits int) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	return hotp(sha1.New, secret, msg[:], digits)
}

// MatchTOTP checks code against secret at now: it returns the step it
// belongs to (now's, or one before or after) when that step is later than
// lastStep, the last one accepted. A code of an accepted step, or of an
// older one, is refused (replay). The caller records the step (atomically:
// store.UseTOTPStep refuses a step that is not newer).
func MatchTOTP(secret []byte, code string, now time.Time, lastStep int64) (int64, bool) {
	code = strings.TrimSpace(code)
	if len(code) != TOTPDigits {
		return 0, false
	}
	cur := TOTPStep(now)
	var found int64
	ok := 0
	for step := cur - TOTPSkew; step <= cur+TOTPSkew; step++ {
		// Every window is computed, so the time does not tell which matched.
		m := subtle.ConstantTimeCompare([]byte(TOTPCode(secret, step, TOTPDigits)), []byte(code))
		if m == 1 && step > lastStep && ok == 0 {
			found, ok = step, 1
		}
	}
	return found, ok == 1
}
