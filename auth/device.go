package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// DeviceTTL is how long a device cookie vouches for a browser.
const DeviceTTL = 90 * 24 * time.Hour

// Devices signs and checks device cookies: the proof, left in a browser at
// a successful sign-in, that this browser signed in as this user before.
// A value is "userID.expiry.MAC" with MAC = HMAC-SHA256 over the user and
// the expiry, keyed by the server secret: it names the user it vouches
// for, cannot be made or moved to another user without the secret, and
// lapses by itself.
type Devices struct{ secret []byte }

// NewDevices returns Devices keyed by secret.
func NewDevices(secret string) *Devices {
	return &Devices{secret: []byte("kudos-device-cookie\x00" + secret)}
}

// Issue returns the value of a device cookie for userID, valid until expires.
func (d *Devices) Issue(userID uuid.UUID, expires time.Time) string {
	body := userID.String() + "." + strconv.FormatInt(expires.Unix(), 10)
	return body + "." + d.mac(body)
}

// Valid reports whether value is a device cookie issued for userID that has
// not expired at now.
func (d *Devices) Valid(value string, userID uuid.UUID, now time.Time) bool {
	i := strings.LastIndexByte(value, '.')
	if i < 0 || len(value) > 200 {
		return false
	}
	body, mac := value[:i], value[i+1:]
	if !hmac.Equal([]byte(mac), []byte(d.mac(body))) {
		return false
	}
	user, exp, ok := strings.Cut(body, ".")
	unix, err := strconv.ParseInt(exp, 10, 64)
	return ok && err == nil && user == userID.String() && now.Before(time.Unix(unix, 0))
}

// IssuedSince reports whether the device cookie value (valid: checked
// first) was issued at or after from, to the second: the cookie carries its
// expiry, DeviceTTL after its issue.
func (d *Devices) IssuedSince(value string, from time.Time) bool {
	body, _, _ := strings.Cut(value[strings.IndexByte(value, '.')+1:], ".")
	unix, err := strconv.ParseInt(body, 10, 64)
	return err == nil && !time.Unix(unix, 0).Add(-DeviceTTL).Before(from.Truncate(time.Second))
}

func (d *Devices) mac(body string) string {
	m := hmac.New(sha256.New, d.secret)
	m.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
