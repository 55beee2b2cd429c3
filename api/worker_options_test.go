package api_test

import (
	"time"

	kworker "kudos/worker"
)

// The SDK fails a workflow task as a potential deadlock (TMPRL1101) when a
// workflow goroutine runs for more than its DeadlockDetectionTimeout (one
// second by default) without yielding, and then goes on while that
// goroutine still runs: under -race, on two cores shared with browsers and
// builds (load average 15), the race detector reported that as a data race
// inside the SDK's dispatcher (an e-mail workflow's local activity being
// scheduled) and failed whichever tests were running. It is the machine's
// slowness, not a deadlock: the tests' workers allow ten seconds. The
// product keeps the SDK's one second.
func init() {
	kworker.MainOptions.DeadlockDetectionTimeout = 10 * time.Second
	kworker.LogoOptions.DeadlockDetectionTimeout = 10 * time.Second
}
