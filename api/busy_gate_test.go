package api_test

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of this package mostly wait on Temporal's timers and task
// round trips, so several can run at once — but not while the machine's
// two cores are busy with other work: `make test` runs them beside the
// UI's checks, the fault tests and three browsers, and there two at a time
// starved the logo's image work and an invitation's timer into timeouts
// (while two of these tests each burned minutes of CPU in the contract
// check, since cut: e0e6e6a). scripts/test.sh names a file
// (KUDOS_TEST_BUSY_FILE) that exists while that other work runs: until it
// is gone at most KUDOS_TEST_BUSY_PARALLEL tests (default 1) hold a
// harness; after, as many as go test's -parallel lets run. Without the
// file's variable the gate is open and -parallel alone decides.

// busyGate is the set of top-level tests holding a harness.
var busyGate = struct {
	sync.Mutex
	held map[string]bool
}{held: map[string]bool{}}

// machineBusy reports whether other work still runs beside these tests.
func machineBusy() bool {
	f := os.Getenv("KUDOS_TEST_BUSY_FILE")
	if f == "" {
		return false
	}
	_, err := os.Stat(f)
	return err == nil
}

// busyParallel is how many top-level tests may hold a harness at once
// while the machine is busy: KUDOS_TEST_BUSY_PARALLEL, 1 unless set to a
// larger number.
func busyParallel() int {
	n, err := strconv.Atoi(os.Getenv("KUDOS_TEST_BUSY_PARALLEL"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// holdBusyGate waits, while the machine is busy, until fewer than
// busyParallel other tests hold a harness, then holds it for t's top-level test (its subtests share it)
// until t ends. The wait comes before the test's own deadlines start.
func holdBusyGate(t *testing.T) {
	root, _, _ := strings.Cut(t.Name(), "/")
	for {
		busyGate.Lock()
		if busyGate.held[root] {
			busyGate.Unlock()
			return
		}
		if len(busyGate.held) < busyParallel() || !machineBusy() {
			busyGate.held[root] = true
			busyGate.Unlock()
			t.Cleanup(func() {
				busyGate.Lock()
				delete(busyGate.held, root)
				busyGate.Unlock()
			})
			return
		}
		busyGate.Unlock()
		time.Sleep(200 * time.Millisecond)
	}
}
