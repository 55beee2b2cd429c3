package activities

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
)

// TestALogoAttemptHeartbeatsWhileItWaitsForADecodeSlot: an attempt that
// waits for the decode slot (another upload holds it) keeps heartbeating, so
// the server does not time it out and start it again while it still runs
// (the flake of TestLogoUploadIsProcessedPublishedAndDeleted under load); once
// it has the slot and is done, the heartbeats stop.
func TestALogoAttemptHeartbeatsWhileItWaitsForADecodeSlot(t *testing.T) {
	var beats atomic.Int32
	interval, record := logoKeepAlive, recordHeartbeat
	logoKeepAlive = 10 * time.Millisecond
	recordHeartbeat = func(ctx context.Context, details ...any) {
		beats.Add(1)
		record(ctx, details...)
	}
	t.Cleanup(func() { logoKeepAlive, recordHeartbeat = interval, record })

	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	// Every slot is taken: the attempt waits, and must heartbeat meanwhile.
	for range cap(decodeSlots) {
		decodeSlots <- struct{}{}
	}
	released := make(chan struct{})
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for beats.Load() < 3 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		for range cap(decodeSlots) {
			<-decodeSlots
		}
		close(released)
	}()
	waitForSlot := func(ctx context.Context) error {
		defer keepAlive(ctx, logoKeepAlive)()
		select {
		case decodeSlots <- struct{}{}:
			<-decodeSlots
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	env.RegisterActivityWithOptions(waitForSlot, activity.RegisterOptions{Name: "WaitForSlot"})
	if _, err := env.ExecuteActivity("WaitForSlot"); err != nil {
		t.Fatal(err)
	}
	<-released
	if n := beats.Load(); n < 3 {
		t.Fatalf("%d heartbeats while waiting for the slot, want at least 3", n)
	}
	after := beats.Load()
	time.Sleep(50 * time.Millisecond)
	if n := beats.Load(); n != after {
		t.Fatalf("heartbeats went on after the step: %d then %d", after, n)
	}
}
