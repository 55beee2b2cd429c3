package workflows

import (
	"testing"

	"kudos"
)

// TestWhichUpgradeALostDisputeTakesBack: a lost dispute of an upgrade's
// payment takes back only the upgrade when it is the plan the account is on
// and nothing was bought or scheduled on top of it; otherwise the period
// counts as unpaid (disputeLost).
func TestWhichUpgradeALostDisputeTakesBack(t *testing.T) {
	three := 3
	lost := kudos.DisputeApplied{Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanPro, PlanBefore: kudos.PlanStarter}
	for _, c := range []struct {
		name string
		st   kudos.SubscriptionState
		res  kudos.DisputeApplied
		want bool
	}{
		{"the upgrade the account is on", kudos.SubscriptionState{Plan: kudos.PlanPro}, lost, true},
		{"an older upgrade: another came after it", kudos.SubscriptionState{Plan: kudos.PlanTeam}, lost, false},
		{"no paid plan before it found", kudos.SubscriptionState{Plan: kudos.PlanPro},
			kudos.DisputeApplied{Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanPro}, false},
		{"a plan before it that is not lower", kudos.SubscriptionState{Plan: kudos.PlanPro},
			kudos.DisputeApplied{Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanPro, PlanBefore: kudos.PlanTeam}, false},
		{"extra seats bought on top of it", kudos.SubscriptionState{Plan: kudos.PlanTeam, ExtraSeats: 3},
			kudos.DisputeApplied{Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanTeam, PlanBefore: kudos.PlanPro}, false},
		{"fewer seats scheduled on top of it", kudos.SubscriptionState{Plan: kudos.PlanTeam, ScheduledExtraSeats: &three},
			kudos.DisputeApplied{Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanTeam, PlanBefore: kudos.PlanPro}, false},
		{"a lower plan scheduled for the renewal", kudos.SubscriptionState{Plan: kudos.PlanPro, ScheduledPlan: kudos.PlanStarter}, lost, false},
	} {
		s := &subscription{st: c.st}
		if got := s.upgradeTakenBack(c.res); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
