package workflows

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// afterFour are the subscription workflow's changes made after lifecycle
// version 4: each keeps its own version marker, also in runs of version 4.
// A new change goes here (or into a new lifecycle version), never into
// roundFourChanges, which runs of version 4 take without a marker.
var afterFour = map[string]bool{
	"disputed-extras":             true, // a lost dispute of extra seats takes back the seats, not the plan
	"disputed-after-refund":       true, // a dispute lost on a payment refunded in full before changes nothing
	"returned-extras":             true, // a returned debit of extra seats or an upgrade, paid later, keeps the period
	"returned-owed":               true, // a returned debit that no dunning retries is owed: told, payable, the plan untouched
	"returned-while-deleting":     true, // a debit returned during a deletion's grace is owed, not collected again
	"deletion-lock":               true, // money requests are refused from the deletion's preparation until it is cancelled
	"restart-in-dunning":          true, // auto-renewal turned back on during a returned debit's retries keeps the plan
	"stopped-while-settling":      true, // a renewal debit that fails after auto-renewal was stopped ends the plan, no dunning
	"late-payment-terms":          true, // a late payment keeps its checkout's promotion and seats
	"stop-while-checkout-settles": true, // auto-renewal stopped while the renewal's checkout debit settles: its outcome decides
	"late-while-deleting":         true, // a late payment during a deletion's grace is refunded, unless it settles an owed debt
	"stop-asks-the-checkout":      true, // stopping auto-renewal in dunning asks the provider about the renewal's open checkout first
	"ledger-applied-last":         true, // a dispute's or a returned debit's event is marked applied with what it does, not with its booking
	"late-priced-from":            true, // a late upgrade or seats payment priced from a plan or seats the account no longer has is refunded
	"owed-collected":              true, // an owed invoice of the running period is collected (dunning) once nothing holds it owed
	"dispute-ends-dunning":        true, // a lost dispute of the period ends a returned debit's dunning of it: its invoice is held owed
	"returned-due-plan":           true, // a returned invoice left unpaid by its dunning is due for the plan it bills, not one upgraded to since
	"deletion-holds-returned":     true, // scheduling a deletion stops a returned debit's dunning (auto-renewal off before): its invoice is held owed
	"stray-charge-own-attempts":   true, // a returned debit's retries are keyed by its invoice; only they pay it, another charge is refunded
	"waived-promotion":            true, // a promotion code that brought an upgrade or seats under the minimum charge is the account's, as when paid
	"disputed-extras-outgrown":    true, // a lost dispute of an upgrade or seats the members outgrew the rest of leaves the period unpaid
}

// changeIDUse finds the change ids the subscription workflow names:
// s.newer(ctx, "id") and s.runFolded(ctx, "id", …).
var changeIDUse = regexp.MustCompile(`\b(?:newer|runFolded)\(ctx, "([^"]+)"`)

// TestEveryChangeIsPlaced (issue 39): every change id the subscription
// workflow names is one that runs of version 4 take without a marker
// (preLifecycleChanges, roundFourChanges) or one made after it
// (afterFour). A run of version 4 records no marker for the first kind, so
// a change left out of both would silently record one again, and one
// wrongly listed in roundFourChanges would change the path of runs
// recorded before it.
func TestEveryChangeIsPlaced(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range changeIDUse.FindAllStringSubmatch(string(src), -1) {
			id := m[1]
			seen[id] = true
			placed := 0
			for _, set := range []map[string]bool{preLifecycleChanges, roundFourChanges, afterFour} {
				if set[id] {
					placed++
				}
			}
			if placed != 1 {
				t.Errorf("%s: change %q is in %d of preLifecycleChanges, roundFourChanges and afterFour, want exactly one", f, id, placed)
			}
		}
	}
	for _, set := range []map[string]bool{preLifecycleChanges, roundFourChanges, afterFour} {
		for id := range set {
			if !seen[id] {
				t.Errorf("change %q is listed but no code names it", id)
			}
		}
	}
}
