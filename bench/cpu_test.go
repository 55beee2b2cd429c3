package bench

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSettledWaitsForAQuietWindow: a process busy for two windows, then
// quiet, is settled after the third; one that stays busy is an error once
// the timeout has passed; a process that cannot be read is an error.
func TestSettledWaitsForAQuietWindow(t *testing.T) {
	window := 10 * time.Millisecond
	var reads int
	busyThenQuiet := func(int) (time.Duration, error) {
		reads++
		if reads <= 3 { // the first read and two busy windows: a whole CPU each
			return time.Duration(reads) * window, nil
		}
		return 3 * window, nil
	}
	if err := settled(1, busyThenQuiet, window, 0.1, time.Second); err != nil {
		t.Fatalf("settled: %v", err)
	}
	if reads != 4 {
		t.Fatalf("settled after %d reads, want 4 (the first, two busy windows, one quiet)", reads)
	}

	var spent time.Duration
	alwaysBusy := func(int) (time.Duration, error) { spent += window; return spent, nil }
	err := settled(1, alwaysBusy, window, 0.1, 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "still used 100 % of a CPU") {
		t.Fatalf("a busy process: %v, want it still busy", err)
	}

	gone := errors.New("no such process")
	if err := settled(1, func(int) (time.Duration, error) { return 0, gone }, window, 0.1, time.Second); !errors.Is(err, gone) {
		t.Fatalf("an unreadable process: %v", err)
	}
}
