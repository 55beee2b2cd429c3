package auth

import (
	"crypto/hmac"
	"encoding/binary"
	"fmt"
	"hash"
)

// hotp is RFC 4226's HOTP of msg (the counter, big endian) with the
// hash h: dynamic truncation to digits decimal digits.
func hotp(h func() hash.Hash, key, msg []byte, digits int) string {
	mac := hmac.New(h, key)
	mac.Write(msg)
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, bin%mod)
}
