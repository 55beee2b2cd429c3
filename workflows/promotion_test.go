package workflows_test

import (
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// buyWithCode runs a trial that buys Pro with the promotion code code
// (whose terms OpenCheckout knows as d) an hour in, pays it, and runs on to
// the first renewal (the run continues as new after it): the state it
// hands on.
func buyWithCode(t *testing.T, code string, d kudos.Discount) (*subEnv, kudos.SubscriptionState) {
	e := newSubEnv(t)
	e.acts.promotions = map[string]kudos.Discount{code: d}
	var res *updateOutcome
	e.at(time.Hour, func() {
		res = e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro, PromotionCode: code})
	})
	e.at(2*time.Hour, func() {
		if res.failed != nil || res.rejected != nil || len(e.acts.opened) != 1 || e.acts.opened[0].PromotionCode != code {
			t.Errorf("the checkout with %s: %+v, opened %+v", code, res, e.acts.opened)
		}
		e.sendEvent("ev1", e.openedID(0), kudos.PaymentPaid)
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	next := e.nextRun()
	if len(e.acts.renewals) != 1 {
		t.Fatalf("renewals %+v, want one", e.acts.renewals)
	}
	return e, next
}

// TestAForeverCodeDiscountsTheRenewal (issue 38 item 3): a plan bought with
// a forever code makes it the account's once paid: the renewal a year later
// is charged with its discount, and the run hands it on for the next.
func TestAForeverCodeDiscountsTheRenewal(t *testing.T) {
	e, next := buyWithCode(t, "ALWAYS20", kudos.Discount{Code: "ALWAYS20", PercentOff: 20, Duration: kudos.PromotionForever, RenewalsLeft: -1})
	if d := e.acts.renewals[0].Discount; d == nil || d.Code != "ALWAYS20" || d.PercentOff != 20 {
		t.Fatalf("the renewal's discount %+v, want ALWAYS20", d)
	}
	if next.Promotion == nil || next.Promotion.Code != "ALWAYS20" || next.Promotion.RenewalsLeft != -1 {
		t.Fatalf("the promotion handed on %+v, want ALWAYS20 for ever", next.Promotion)
	}
	if w := e.acts.lastWrite(); w.Promotion == nil || w.Promotion.Code != "ALWAYS20" {
		t.Fatalf("the read model's promotion %+v", w.Promotion)
	}
}

// TestAOnceCodeDoesNotDiscountTheRenewal (issue 38 item 3): a once code
// discounts the checkout it was entered with only: the renewal is charged
// in full and the account has no promotion running.
func TestAOnceCodeDoesNotDiscountTheRenewal(t *testing.T) {
	e, next := buyWithCode(t, "WELCOME", kudos.Discount{Code: "WELCOME", AmountOff: 5000, Currency: "EUR", Duration: kudos.PromotionOnce})
	if d := e.acts.renewals[0].Discount; d != nil {
		t.Fatalf("the renewal was discounted by %+v", d)
	}
	if next.Promotion != nil {
		t.Fatalf("a once code still runs: %+v", next.Promotion)
	}
}

// TestAYearsCodeDiscountsItsPeriodsOnly (issue 38 item 3): years:2
// discounts the checkout's period and one renewal: the first renewal is
// discounted and uses it up, the second is charged in full. A code that
// does not cover the plan renewed leaves that renewal undiscounted and
// still uses its period.
func TestAYearsCodeDiscountsItsPeriodsOnly(t *testing.T) {
	e, next := buyWithCode(t, "TWO", kudos.Discount{Code: "TWO", PercentOff: 10, Duration: kudos.PromotionYears, Years: 2, RenewalsLeft: 1})
	if d := e.acts.renewals[0].Discount; d == nil || d.Code != "TWO" {
		t.Fatalf("the first renewal's discount %+v, want TWO", d)
	}
	if next.Promotion != nil {
		t.Fatalf("years:2 after its second period: %+v, want none", next.Promotion)
	}
	e2 := newSubEnv(t)
	e2.ExecuteWorkflow(workflows.Subscription, next)
	e2.nextRun()
	if len(e2.acts.renewals) != 1 || e2.acts.renewals[0].Discount != nil {
		t.Fatalf("the second renewal %+v, want one in full", e2.acts.renewals)
	}

	st := paidState(kudos.PlanPro, 24*time.Hour)
	st.Promotion = &kudos.Discount{Code: "TEAMONLY", PercentOff: 10, Duration: kudos.PromotionYears, Years: 3, Plans: []kudos.Plan{kudos.PlanTeam}, RenewalsLeft: 2}
	e3 := newSubEnv(t)
	e3.ExecuteWorkflow(workflows.Subscription, st)
	after := e3.nextRun()
	if len(e3.acts.renewals) != 1 || e3.acts.renewals[0].Discount != nil {
		t.Fatalf("a Pro renewal under a Team code %+v, want it in full", e3.acts.renewals)
	}
	if after.Promotion == nil || after.Promotion.RenewalsLeft != 1 {
		t.Fatalf("the Team code after a Pro period: %+v, want one renewal left", after.Promotion)
	}
}
