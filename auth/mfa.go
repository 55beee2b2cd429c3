package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// MFAKeySize is the size of KUDOS_MFA_KEY: an AES-256 key.
const MFAKeySize = 32

// SecretBox encrypts TOTP secrets at rest (AES-256-GCM with the key of
// KUDOS_MFA_KEY): a copy of the database alone gives no one's codes. The
// user's id is the additional data, so a sealed secret moved to another
// user's row does not open.
type SecretBox struct{ aead cipher.AEAD }

// NewSecretBox makes the box of a 32-byte key.
func NewSecretBox(key []byte) (*SecretBox, error) {
	if len(key) != MFAKeySize {
		return nil, fmt.Errorf("mfa key: want %d bytes, got %d", MFAKeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &SecretBox{aead: aead}, nil
}

// Seal encrypts plain for userID: a random nonce followed by the
// ciphertext.
func (b *SecretBox) Seal(userID uuid.UUID, plain []byte) []byte {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plain)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	return b.aead.Seal(nonce, nonce, plain, userID[:])
}

// Open decrypts what Seal made for userID.
func (b *SecretBox) Open(userID uuid.UUID, sealed []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n+b.aead.Overhead() {
		return nil, errors.New("mfa secret: too short")
	}
	return b.aead.Open(nil, sealed[:n], sealed[n:], userID[:])
}

// RecoveryCodeCount is how many recovery codes a user gets at once.
const RecoveryCodeCount = 10

// recoveryAlphabet has no look-alike characters (no 0/o, 1/l/i).
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// NewRecoveryCode returns a random recovery code, xxxx-xxxx-xxxx (about
// 59 bits: guessing is hopeless within the sign-in limits).
func NewRecoveryCode() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	var sb strings.Builder
	for i, x := range b {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		// 256 % 31 leaves a bias of under 1%: negligible at this length.
		sb.WriteByte(recoveryAlphabet[int(x)%len(recoveryAlphabet)])
	}
	return sb.String()
}

// NormalizeRecoveryCode lower-cases a typed code and drops spaces and
// dashes, so "ABCD EFGH-JKMN" matches abcd-efgh-jkmn.
func NormalizeRecoveryCode(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, code)
}

// HashRecoveryCode is the stored form of a recovery code: SHA-256 of its
// normal form (the codes are random and long, so a fast hash suffices, as
// for mailed tokens).
func HashRecoveryCode(code string) []byte {
	sum := sha256.Sum256([]byte("kudos-recovery\x00" + NormalizeRecoveryCode(code)))
	return sum[:]
}
