package ops_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testenv"
	"kudos/ops"
	"kudos/store"
)

// TestOpsPromoCreatesListsAndDeactivatesCodes: `kudos ops promo create`
// stores a code in upper case with its terms (percent or amount in the
// price list's currency, its duration, cap, last day and plans), refuses a
// code that exists and malformed flags with what is wrong, `list` shows
// each code with its state, and `deactivate` withdraws it.
func TestOpsPromoCreatesListsAndDeactivatesCodes(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := ops.Promo(ctx, db, kudos.PriceList{Starter: 18000, Pro: 46800, Team: 118800, Currency: "EUR"}, args, &out)
		return out.String(), err
	}
	if _, err := run("create", "spring20", "--percent", "20", "--duration", "years:2", "--max-redemptions", "100",
		"--expires", "2099-03-31", "--plans", "team,pro"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("create", "Fifty", "--amount", "50", "--duration", "once"); err != nil {
		t.Fatal(err)
	}
	p, err := db.Promotion(ctx, "Spring20")
	if err != nil {
		t.Fatal(err)
	}
	if p.Code != "SPRING20" || p.PercentOff != 20 || p.Duration != kudos.PromotionYears || p.Years != 2 || p.MaxRedemptions == nil ||
		*p.MaxRedemptions != 100 || !p.Active || len(p.Plans) != 2 || p.Plans[0] != kudos.PlanTeam || p.Plans[1] != kudos.PlanPro ||
		p.ExpiresAt == nil || !p.ExpiresAt.Equal(time.Date(2099, 4, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("spring20 = %+v", p)
	}
	if f, err := db.Promotion(ctx, "FIFTY"); err != nil || f.AmountOff != 5000 || f.Currency != "EUR" || f.Duration != kudos.PromotionOnce {
		t.Fatalf("fifty = %+v, %v", f, err)
	}
	if _, err := run("create", "SPRING20", "--percent", "10", "--duration", "once"); kudos.ErrorCode(err) != kudos.EConflict {
		t.Fatalf("a code that exists: %v", err)
	}
	for _, bad := range [][]string{
		{"create", "X1", "--percent", "10", "--duration", "once"},                            // too short
		{"create", "BOTH", "--percent", "10", "--amount", "5", "--duration", "once"},         // both
		{"create", "NONE", "--duration", "once"},                                             // neither
		{"create", "PCT", "--percent", "120", "--duration", "once"},                          // over 100
		{"create", "DUR", "--percent", "10", "--duration", "years:0"},                        // no years
		{"create", "DUR2", "--percent", "10", "--duration", "monthly"},                       // unknown
		{"create", "PLAN", "--percent", "10", "--duration", "once", "--plans", "trial"},      // not paid
		{"create", "DATE", "--percent", "10", "--duration", "once", "--expires", "31/03/27"}, // not a date
		{"create", "FREE", "--percent", "100", "--duration", "forever"},                      // nothing left to charge
		{"create", "STARTERGONE", "--amount", "179.80", "--duration", "once"},                // Starter under the minimum
	} {
		if _, err := run(bad...); !errors.Is(err, ops.ErrPromoUsage) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
	out, err := run("list")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SPRING20") || !strings.Contains(out, "20% off, years:2, plans team,pro, 0 of 100 used, accepted until 2099-03-31") ||
		!strings.Contains(out, "EUR 50.00 off, once") {
		t.Fatalf("list:\n%s", out)
	}
	if _, err := run("deactivate", "spring20"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("deactivate", "NOSUCH"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("deactivate unknown: %v", err)
	}
	if out, _ = run("list"); !strings.Contains(out, "deactivated") {
		t.Fatalf("list after deactivate:\n%s", out)
	}
	if p, _ = db.Promotion(ctx, "SPRING20"); p.Active || p.Unusable(time.Now(), "EUR") != kudos.FPromotionExpired {
		t.Fatalf("deactivated code: %+v", p)
	}
}

// TestTextReportShowsTheRunningPromotion: `kudos ops account` shows the
// account's promotion under the read model and the workflow's state, with
// what it takes off and the renewals it still discounts, and the promotion
// an open checkout was priced with.
func TestTextReportShowsTheRunningPromotion(t *testing.T) {
	forever := &kudos.Discount{Code: "LOYAL", PercentOff: 20, Duration: kudos.PromotionForever, RenewalsLeft: -1}
	years := &kudos.Discount{Code: "TWO", AmountOff: 5000, Currency: "EUR", Duration: kudos.PromotionYears, Years: 3, RenewalsLeft: 2}
	r := &ops.Report{
		Account: &store.OpsAccount{Name: "Promoted", Subscription: &kudos.Subscription{Plan: kudos.PlanPro, Promotion: forever}},
		State: &kudos.SubscriptionState{Plan: kudos.PlanPro, Promotion: years,
			Checkout: &kudos.OpenCheckout{ID: "co_1", Purpose: kudos.CheckoutUpgrade, Plan: kudos.PlanTeam, Promotion: years}},
	}
	var out bytes.Buffer
	if err := ops.WriteText(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"promotion LOYAL: 20% off, every renewal", "promotion TWO: EUR 50.00 off, 2 more renewal(s)",
		"open checkout priced with promotion TWO"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
