package bench

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
)

// TestStartRetriesATimedOutStart: a start the frontend timed out (what 34
// of 10 000 renewal-baseline starts did under load) is tried again, a
// refused one is not.
func TestStartRetriesATimedOutStart(t *testing.T) {
	var retries atomic.Int64
	calls := 0
	err := startRetrying(context.Background(), &retries, func() error {
		calls++
		if calls < 3 {
			return serviceerror.NewDeadlineExceeded("context deadline exceeded")
		}
		return nil
	})
	if err != nil || calls != 3 || retries.Load() != 2 {
		t.Fatalf("err %v after %d calls, %d retries", err, calls, retries.Load())
	}
	calls = 0
	refused := serviceerror.NewInvalidArgument("bad")
	if err := startRetrying(context.Background(), &retries, func() error { calls++; return refused }); !errors.Is(err, refused) || calls != 1 {
		t.Fatalf("a refused start: err %v after %d calls", err, calls)
	}
}

// TestWaitFiredWaitsAsLongAsFiringGoesOn: a slow but steady firing is
// waited for past any fixed deadline; a stalled one fails, saying so.
func TestWaitFiredWaitsAsLongAsFiringGoesOn(t *testing.T) {
	ctx := context.Background()
	c := 0
	slow := func(context.Context) (int, error) { c++; return c, nil } // one more each poll
	if err := waitFired(ctx, 40, time.Now(), time.Millisecond, 50*time.Millisecond, 0, slow); err != nil || c != 40 {
		t.Fatalf("steady firing: %v at %d", err, c)
	}
	stuck := func(context.Context) (int, error) { return 7, nil }
	err := waitFired(ctx, 40, time.Now(), time.Millisecond, 20*time.Millisecond, 0, stuck)
	if err == nil || !strings.Contains(err.Error(), "only 7 of 40") || !strings.Contains(err.Error(), "none more") {
		t.Fatalf("stalled firing: %v", err)
	}
}
