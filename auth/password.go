package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters of the authentication issue (OWASP's minimum profile).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// Hasher hashes passwords with argon2id. At most Limit hashes run at once, so
// a burst of sign-ins costs at most Limit × 19 MiB of memory; the rest wait.
type Hasher struct {
	slots chan struct{}
	dummy string
	// runs counts the argon2id computations done (Runs).
	runs atomic.Int64
}

// Runs is how many argon2id computations the hasher has done: what a route
// costs in hashing is counted, not timed (tests, metrics).
func (h *Hasher) Runs() int64 { return h.runs.Load() }

// NewHasher returns a Hasher allowing limit concurrent hashes (0 means one per
// CPU, which is also the throughput optimum: argon2 is CPU-bound).
func NewHasher(limit int) *Hasher {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	h := &Hasher{slots: make(chan struct{}, limit)}
	h.dummy = h.encode(make([]byte, argonSaltLen), "kudos-dummy-password")
	return h
}

// Hash returns the PHC-format argon2id hash of password with a fresh salt.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return h.encode(salt, password), nil
}

// Verify reports whether password matches the stored hash. An empty or
// malformed hash is checked against a dummy hash, so unknown users and users
// without a password cost the same time as a wrong password.
func (h *Hasher) Verify(ctx context.Context, password, hash string) (bool, error) {
	salt, key, ok := decode(hash)
	if !ok {
		salt, key, _ = decode(h.dummy)
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return ok && subtle.ConstantTimeCompare(got, key) == 1, nil
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		h.runs.Add(1)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.slots }

func (h *Hasher) encode(salt []byte, password string) string {
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decode parses a hash made by encode. Hashes with other parameters are
// refused rather than trusted: parameters come from this code only.
func decode(hash string) (salt, key []byte, ok bool) {
	parts := strings.Split(hash, "$")
	want := fmt.Sprintf("m=%d,t=%d,p=%d", argonMemoryKiB, argonTime, argonThreads)
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) || parts[3] != want {
		return nil, nil, false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) != argonSaltLen || len(key) != argonKeyLen {
		return nil, nil, false
	}
	return salt, key, true
}
