package vatcheck

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"kudos"
)

// StandInOutage is how long the stand-in's VIES stays unavailable for an
// id ending in 999.
const StandInOutage = time.Minute

// StandIn answers like VIES for test ids (issue 30): an id ending in 000
// is invalid; one ending in 999 makes the service unavailable for Outage
// from the first time it is asked about (it remembers that moment, per id
// and per process), and valid after; any other id is valid.
type StandIn struct {
	// Outage is how long an id ending in 999 is unavailable (0:
	// StandInOutage).
	Outage time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu    sync.Mutex
	first map[string]time.Time
}

// Check implements kudos.VATChecker.
func (s *StandIn) Check(_ context.Context, _ string, vatID string) (bool, error) {
	switch {
	case strings.HasSuffix(vatID, "000"):
		return false, nil
	case strings.HasSuffix(vatID, "999"):
		now := time.Now
		if s.Now != nil {
			now = s.Now
		}
		outage := s.Outage
		if outage <= 0 {
			outage = StandInOutage
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.first == nil {
			s.first = map[string]time.Time{}
		}
		at, ok := s.first[vatID]
		if !ok {
			at = now()
			s.first[vatID] = at
		}
		if now().Sub(at) < outage {
			return false, fmt.Errorf("%w: the stand-in is down for %s", kudos.ErrVATCheckUnavailable, vatID)
		}
	}
	return true, nil
}

// processStandIn is the one stand-in of a process: the api and the worker
// of `kudos dev` share its memory, so an id ending in 999 is down for one
// StandInOutage, not one for each of them.
var processStandIn = &StandIn{}

// New is the configured checker: "vies" asks VIES at viesURL, anything else
// is the process's stand-in (config refuses it in production).
func New(kind, viesURL string) kudos.VATChecker {
	if kind == "vies" {
		return &VIES{BaseURL: viesURL}
	}
	return processStandIn
}
