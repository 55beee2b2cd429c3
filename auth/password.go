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

// Argon2id parameters that no Cost changes.
const (
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Cost is the work of one argon2id hash: memory in KiB and passes.
type Cost struct {
	MemoryKiB uint32
	Time      uint32
}

// defaultCost is the cost of every hash Kudos stores: OWASP's minimum
// argon2id profile (19 MiB, 2 passes), the authentication issue's choice.
// Unexported, so that no other package can lower it for the product.
var defaultCost = Cost{MemoryKiB: 19 * 1024, Time: 2}

// Hasher hashes passwords with argon2id. At most Limit hashes run at once, so
// a burst of sign-ins costs at most Limit × 19 MiB of memory; the rest wait.
type Hasher struct {
	cost  Cost
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
func NewHasher(limit int) *Hasher { return NewHasherCost(limit, defaultCost) }

// NewHasherCost is NewHasher with another cost. Only tests use it: a hash
// under -race costs 120 ms at NewHasher's cost, and the api's tests hash
// thousands of passwords for what they check (routes, limits, sessions), not
// for argon2id itself. The product always uses NewHasher. A Hasher refuses
// hashes of another cost, so the two never mix.
func NewHasherCost(limit int, cost Cost) *Hasher {
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	h := &Hasher{cost: cost, slots: make(chan struct{}, limit)}
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
	salt, key, ok := h.decode(hash)
	if !ok {
		salt, key, _ = h.decode(h.dummy)
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, h.cost.Time, h.cost.MemoryKiB, argonThreads, argonKeyLen)
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
	key := argon2.IDKey([]byte(password), salt, h.cost.Time, h.cost.MemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.cost.MemoryKiB, h.cost.Time, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decode parses a hash made by encode at h's cost. Hashes with other
// parameters are refused rather than trusted: parameters come from this code
// only.
func (h *Hasher) decode(hash string) (salt, key []byte, ok bool) {
	parts := strings.Split(hash, "$")
	want := fmt.Sprintf("m=%d,t=%d,p=%d", h.cost.MemoryKiB, h.cost.Time, argonThreads)
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
