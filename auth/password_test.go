package auth

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestHasher(t *testing.T) {
	h := NewHasher(2)
	ctx := context.Background()
	hash, err := h.Hash(ctx, "Secret1!")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry the argon2id parameters", hash)
	}
	other, _ := h.Hash(ctx, "Secret1!")
	if other == hash {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	for name, tc := range map[string]struct {
		pw, hash string
		want     bool
	}{
		"right":       {"Secret1!", hash, true},
		"wrong":       {"Secret2!", hash, false},
		"empty hash":  {"kudos-dummy-password", "", false},
		"junk hash":   {"Secret1!", "$argon2id$junk", false},
		"other param": {"Secret1!", strings.Replace(hash, "t=2", "t=1", 1), false},
	} {
		t.Run(name, func(t *testing.T) {
			ok, err := h.Verify(ctx, tc.pw, tc.hash)
			if err != nil || ok != tc.want {
				t.Fatalf("Verify = %v, %v; want %v", ok, err, tc.want)
			}
		})
	}
}

// TestHasherBoundsConcurrency checks that no more than the limit of hashes
// run at once, whatever the burst: that is what bounds memory.
func TestHasherBoundsConcurrency(t *testing.T) {
	h := NewHasher(2)
	var running, peak atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.acquire(context.Background()); err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			h.release()
		}()
	}
	wg.Wait()
	if peak.Load() > 2 {
		t.Fatalf("%d hashes ran at once, limit 2", peak.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	_ = h.acquire(ctx)
	_ = h.acquire(ctx)
	cancel()
	if err := h.acquire(ctx); err == nil {
		t.Fatal("acquire on a full hasher with a cancelled context succeeded")
	}
}

// TestHashersOfTwoCostsNeverMix: a hash made at one cost does not verify at
// another, so the tests' cheap hasher can never accept a stored password.
func TestHashersOfTwoCostsNeverMix(t *testing.T) {
	ctx := context.Background()
	product, cheap := NewHasher(1), NewHasherCost(1, Cost{MemoryKiB: 64, Time: 1})
	stored, err := product.Hash(ctx, "Secret1!")
	if err != nil {
		t.Fatal(err)
	}
	made, err := cheap.Hash(ctx, "Secret1!")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(made, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("the cheap hash %q does not carry its own cost", made)
	}
	for _, c := range []struct {
		h    *Hasher
		hash string
		want bool
	}{{cheap, made, true}, {product, stored, true}, {cheap, stored, false}, {product, made, false}} {
		if ok, err := c.h.Verify(ctx, "Secret1!", c.hash); err != nil || ok != c.want {
			t.Errorf("Verify(%.30s…) at %+v = %v, %v; want %v", c.hash, c.h.cost, ok, err, c.want)
		}
	}
}
