package activities_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/activities"
	"kudos/internal/testenv"
	"kudos/store"
	"kudos/workflows"
)

// timelineProvider is a payment provider whose off-session charges are paid
// or declined as told, and that refunds and verifies whatever it is asked.
type timelineProvider struct {
	kudos.PaymentProvider
	decline bool
	// refuseRefunds makes the provider refuse refunds for good (a 400);
	// refundsForNow refuses them for now (its balance is short).
	refuseRefunds, refundsForNow bool
	// checkoutErr, when set, is what CreateCheckout answers.
	checkoutErr error
	// charges are the distinct charge ids charged; defaults the checkouts
	// whose payment method was made the default; refunds the refund ids
	// asked for, once per call.
	charges, defaults, refunds []string
}

func (p *timelineProvider) UseCheckoutMethod(_ context.Context, _ uuid.UUID, providerID string) error {
	p.defaults = append(p.defaults, providerID)
	return nil
}

func (p *timelineProvider) Name() string { return "fake" }

func (p *timelineProvider) CreateCheckout(_ context.Context, req kudos.CheckoutRequest) (kudos.Checkout, error) {
	if p.checkoutErr != nil {
		return kudos.Checkout{}, p.checkoutErr
	}
	return kudos.Checkout{ProviderID: "cs_" + req.CheckoutID, URL: "https://pay.example/" + req.CheckoutID}, nil
}

func (p *timelineProvider) ChargeOffSession(_ context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	if !slices.Contains(p.charges, req.ChargeID) {
		p.charges = append(p.charges, req.ChargeID)
	}
	if p.decline {
		return kudos.ChargeResult{FailureReason: "card_declined"}, nil
	}
	return kudos.ChargeResult{Paid: true, ProviderID: "ch_1"}, nil
}

func (p *timelineProvider) Refund(_ context.Context, req kudos.RefundRequest) (string, error) {
	p.refunds = append(p.refunds, req.RefundID)
	switch {
	case p.refuseRefunds:
		return "", kudos.Errorf(kudos.EInvalid, "charge already disputed")
	case p.refundsForNow:
		return "", kudos.Errorf(kudos.EUnavailable, "balance insufficient")
	}
	return "re_" + req.RefundID, nil
}

func (p *timelineProvider) VerifyPaymentMethod(context.Context, kudos.VerificationRequest) error {
	return nil
}

// timelineEnv is an account on its trial and the activities over a real
// database with timelineProvider.
type timelineEnv struct {
	t       *testing.T
	db      *store.DB
	pay     *timelineProvider
	env     *testsuite.TestActivityEnvironment
	account uuid.UUID
}

func newTimelineEnv(t *testing.T) *timelineEnv {
	db := testenv.DB(t)
	pay := &timelineProvider{}
	acts := &activities.Activities{Store: db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now}
	return &timelineEnv{t: t, db: db, pay: pay, env: activityEnv(acts), account: newAccount(t, db)}
}

// twice runs an activity, then runs it again as a retry does (the first
// attempt committed, its answer was lost).
func (e *timelineEnv) twice(name string, in any) {
	e.t.Helper()
	for range 2 {
		if _, err := e.env.ExecuteActivity(name, in); err != nil {
			e.t.Fatalf("%s: %v", name, err)
		}
	}
}

// events returns the account's timeline of each type.
func (e *timelineEnv) events() map[kudos.BillingEventType][]kudos.BillingEvent {
	e.t.Helper()
	evs, err := e.db.BillingTimeline(context.Background(), e.account, 100, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[kudos.BillingEventType][]kudos.BillingEvent{}
	for _, ev := range evs {
		out[ev.Type] = append(out[ev.Type], ev)
	}
	return out
}

// once fails unless the timeline holds exactly one event of typ, and
// returns it.
func (e *timelineEnv) once(typ kudos.BillingEventType) kudos.BillingEvent {
	e.t.Helper()
	got := e.events()[typ]
	if len(got) != 1 {
		e.t.Fatalf("%d %s events, want exactly 1: %+v", len(got), typ, got)
	}
	return got[0]
}

// paid fails unless ev carries invoice id and its total.
func (e *timelineEnv) paid(ev kudos.BillingEvent, invoice uuid.UUID) {
	e.t.Helper()
	inv, err := e.db.Invoice(context.Background(), e.account, invoice)
	if err != nil {
		e.t.Fatal(err)
	}
	if ev.InvoiceID == nil || *ev.InvoiceID != invoice || ev.Amount == nil || *ev.Amount != inv.Total || inv.Total == 0 || ev.Currency != "EUR" {
		e.t.Fatalf("%s: invoice %v amount %v %s, want %s %d EUR", ev.Type, ev.InvoiceID, ev.Amount, ev.Currency, invoice, inv.Total)
	}
}

func (e *timelineEnv) open(id string, purpose kudos.CheckoutPurpose, plan kudos.Plan, invoice uuid.UUID) workflows.OpenCheckoutInput {
	in := workflows.OpenCheckoutInput{AccountID: e.account, CheckoutID: id, Purpose: purpose, Plan: plan, InvoiceID: invoice,
		ExpiresAt: time.Now().Add(time.Hour)}
	if purpose == kudos.CheckoutUpgrade {
		in.FromPlan, in.Remaining, in.Period = kudos.PlanPro, 180*24*time.Hour, 365*24*time.Hour
	}
	e.twice(workflows.ActivityOpenCheckout, in)
	return in
}

func (e *timelineEnv) write(r kudos.Subscription) {
	e.t.Helper()
	e.twice(workflows.ActivityWriteSubscription, workflows.WriteSubscriptionInput{AccountID: e.account, Record: r})
}

// TestTrialEventsOnce: sign-up starts the trial; its expiry, written again
// by a retry, is one event.
func TestTrialEventsOnce(t *testing.T) {
	e := newTimelineEnv(t)
	if ev := e.once(kudos.EventTrialStarted); ev.Plan != kudos.PlanTrial {
		t.Fatalf("trial_started %+v", ev)
	}
	end := time.Now().Add(-time.Minute)
	e.write(kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusProcessing, TrialExpiresAt: &end})
	if n := len(e.events()[kudos.EventTrialExpired]); n != 0 {
		t.Fatalf("%d trial_expired while a checkout is open", n)
	}
	e.write(kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusTrialExpired, TrialExpiresAt: &end})
	e.once(kudos.EventTrialExpired)
}

// TestCheckoutEventsOnce: a checkout opened, then expired, cancelled or
// failed, each through activities run twice, is one event each, with its
// amount; the dropped draft invoice is not linked.
func TestCheckoutEventsOnce(t *testing.T) {
	e := newTimelineEnv(t)
	ends := []struct {
		outcome kudos.PaymentOutcome
		typ     kudos.BillingEventType
	}{
		{kudos.PaymentExpired, kudos.EventCheckoutExpired},
		{kudos.PaymentCancelled, kudos.EventCheckoutCancelled},
		{kudos.PaymentFailed, kudos.EventPaymentFailed},
	}
	for i, end := range ends {
		in := e.open("co_"+string(end.outcome), kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
		if n := len(e.events()[kudos.EventCheckoutOpened]); n != i+1 {
			t.Fatalf("%d checkout_opened after %d checkouts", n, i+1)
		}
		inv, err := e.db.Invoice(context.Background(), e.account, in.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		e.twice(workflows.ActivityCloseCheckout, workflows.CloseCheckoutInput{AccountID: e.account, CheckoutID: in.CheckoutID,
			ProviderID: "cs_" + in.CheckoutID, Purpose: in.Purpose, InvoiceID: in.InvoiceID, Outcome: end.outcome})
		ev := e.once(end.typ)
		if ev.Plan != kudos.PlanPro || ev.Amount == nil || *ev.Amount != inv.Total || ev.InvoiceID != nil {
			t.Fatalf("%s %+v: want PRO, %d, no invoice (dropped)", end.typ, ev, inv.Total)
		}
	}
	// A payment method's checkout bills nothing: no checkout event.
	if err := e.db.RecordCheckout(context.Background(), kudos.CheckoutRecord{ID: "pm_1", AccountID: e.account,
		Purpose: kudos.CheckoutPaymentMethod, Provider: "fake", ProviderID: "cs_pm_1", URL: "https://pay.example/pm_1",
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.events()[kudos.EventCheckoutOpened]); n != len(ends) {
		t.Fatalf("%d checkout_opened, want %d", n, len(ends))
	}
}

// TestPlanEventsOnce: a paid plan, an upgrade, auto-renewal off and on, a
// paid renewal, a declined one, its retries scheduled and the plan's
// expiry, each settled by activities run twice, are one event each.
func TestPlanEventsOnce(t *testing.T) {
	e := newTimelineEnv(t)
	trialEnd := time.Now().Add(24 * time.Hour)
	start := time.Now().UTC()
	renewal := start.Add(365 * 24 * time.Hour)
	sub := kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, TrialExpiresAt: &trialEnd,
		PeriodStartedAt: &start, PlanRenewalAt: &renewal, StartNextPeriod: true}

	buy := e.open("co_buy", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	e.twice(workflows.ActivitySettlePaidCheckout, workflows.SettlePaidInput{AccountID: e.account, CheckoutID: buy.CheckoutID,
		Purpose: buy.Purpose, InvoiceID: buy.InvoiceID, Record: sub})
	e.paid(e.once(kudos.EventPaymentSucceeded), buy.InvoiceID)
	if ev := e.once(kudos.EventPlanStarted); ev.Plan != kudos.PlanPro || ev.InvoiceID == nil || *ev.InvoiceID != buy.InvoiceID {
		t.Fatalf("plan_started %+v", ev)
	}

	up := e.open("co_up", kudos.CheckoutUpgrade, kudos.PlanTeam, uuid.New())
	sub.Plan = kudos.PlanTeam
	e.twice(workflows.ActivitySettlePaidCheckout, workflows.SettlePaidInput{AccountID: e.account, CheckoutID: up.CheckoutID,
		Purpose: up.Purpose, InvoiceID: up.InvoiceID, Record: sub})
	if n := len(e.events()[kudos.EventPaymentSucceeded]); n != 2 {
		t.Fatalf("%d payment_succeeded after two payments", n)
	}
	if ev := e.once(kudos.EventPlanUpgraded); ev.Plan != kudos.PlanTeam || ev.InvoiceID == nil || *ev.InvoiceID != up.InvoiceID {
		t.Fatalf("plan_upgraded %+v", ev)
	}

	sub.StartNextPeriod = false
	e.write(sub)
	e.once(kudos.EventAutoRenewalStopped)
	sub.StartNextPeriod = true
	e.write(sub)
	e.once(kudos.EventAutoRenewalRestarted)

	renewed := kudos.PeriodInvoiceID(e.account, renewal)
	e.twice(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: e.account, Plan: kudos.PlanTeam, InvoiceID: renewed,
		ChargeID: kudos.RenewalChargeID(e.account, renewal)})
	e.paid(e.once(kudos.EventRenewalSucceeded), renewed)
	next := renewal.Add(365 * 24 * time.Hour)
	sub.PeriodStartedAt, sub.PlanRenewalAt = &renewal, &next
	e.write(sub)
	if n := len(e.events()[kudos.EventPlanStarted]); n != 1 {
		t.Fatalf("%d plan_started: a renewed period is no new plan", n)
	}

	e.pay.decline = true
	declined := kudos.PeriodInvoiceID(e.account, next)
	e.twice(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: e.account, Plan: kudos.PlanTeam, InvoiceID: declined,
		ChargeID: kudos.RenewalChargeID(e.account, next)})
	e.paid(e.once(kudos.EventRenewalFailed), declined)
	// Dunning: two attempts scheduled, each one event (written twice).
	inv, err := e.db.Invoice(context.Background(), e.account, declined)
	if err != nil {
		t.Fatal(err)
	}
	sub.FailedPayment = &kudos.FailedPayment{InvoiceID: declined, Amount: kudos.Money{Amount: inv.Total, Currency: inv.Currency}}
	for i, after := range []time.Duration{72 * time.Hour, 120 * time.Hour} {
		retry := next.Add(after)
		sub.PaymentRetryAt = &retry
		e.write(sub)
		retries := e.events()[kudos.EventPaymentRetryScheduled]
		if len(retries) != i+1 {
			t.Fatalf("%d payment_retry_scheduled after %d attempts scheduled", len(retries), i+1)
		}
		e.paid(retries[0], declined)
	}
	sub.ShowStatus, sub.PaymentRetryAt, sub.FailedPayment = kudos.StatusPlanExpired, nil, nil
	e.write(sub)
	e.paid(e.once(kudos.EventPlanExpired), declined)

	// Continued with the plan: the due invoice paid starts a new period.
	again := time.Now().UTC().Add(time.Hour)
	againEnd := again.Add(365 * 24 * time.Hour)
	cont := e.open("co_due", kudos.CheckoutInvoice, kudos.PlanTeam, declined)
	sub.ShowStatus, sub.PeriodStartedAt, sub.PlanRenewalAt = kudos.StatusActive, &again, &againEnd
	e.twice(workflows.ActivitySettlePaidCheckout, workflows.SettlePaidInput{AccountID: e.account, CheckoutID: cont.CheckoutID,
		Purpose: cont.Purpose, InvoiceID: declined, Record: sub})
	evs := e.events()
	if len(evs[kudos.EventPaymentSucceeded]) != 3 || len(evs[kudos.EventPlanStarted]) != 2 {
		t.Fatalf("%d payment_succeeded, %d plan_started after continuing: want 3 and 2", len(evs[kudos.EventPaymentSucceeded]),
			len(evs[kudos.EventPlanStarted]))
	}
}

// TestRefundAndPaymentMethodEventsOnce: a late payment refunded and a new
// payment method verified, each by an activity run twice, are one event.
func TestRefundAndPaymentMethodEventsOnce(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	late := e.open("co_late", kudos.CheckoutSubscription, kudos.PlanStarter, uuid.New())
	inv, err := e.db.Invoice(ctx, e.account, late.InvoiceID)
	if err != nil {
		t.Fatal(err)
	}
	e.twice(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false))
	if ev := e.once(kudos.EventRefund); ev.Amount == nil || *ev.Amount != inv.Total || ev.Plan != kudos.PlanStarter {
		t.Fatalf("refund %+v, want %d", ev, inv.Total)
	}

	if err := e.db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "pm_2", AccountID: e.account, Purpose: kudos.CheckoutPaymentMethod,
		Provider: "fake", ProviderID: "cs_pm_2", URL: "https://pay.example/pm_2", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	e.twice(workflows.ActivityVerifyPaymentMethod, workflows.CheckoutRef{AccountID: e.account, CheckoutID: "pm_2"})
	if ev := e.once(kudos.EventPaymentMethodAdded); ev.Amount != nil || ev.InvoiceID != nil {
		t.Fatalf("payment_method_added %+v", ev)
	}
}

// TestRefusedRefundIsRecorded: a refund the provider refuses for good is
// not only logged: it is recorded as refused (for ops, the gauge and the
// alert), once, and a later successful refund of the same payment turns it
// into a refund.
func TestRefusedRefundIsRecorded(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	late := e.open("co_refused", kudos.CheckoutSubscription, kudos.PlanStarter, uuid.New())
	e.pay.refuseRefunds = true
	for range 2 {
		_, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false))
		if err == nil || !strings.Contains(err.Error(), workflows.ErrTypeProviderRefused) {
			t.Fatalf("a refused refund: %v", err)
		}
	}
	var status, reason string
	var n int
	if err := e.db.Pool.QueryRow(ctx, `SELECT count(*), min(status), min(reason) FROM refunds WHERE checkout_id = $1`, late.CheckoutID).
		Scan(&n, &status, &reason); err != nil || n != 1 || status != "refused" || !strings.Contains(reason, "charge already disputed") {
		t.Fatalf("refunds rows %d %q %q %v, want one refused with the provider's reason", n, status, reason, err)
	}
	if refused, err := e.db.RefusedRefunds(ctx); err != nil || refused != 1 {
		t.Fatalf("refused refunds %d %v", refused, err)
	}
	if len(e.events()[kudos.EventRefund]) != 0 {
		t.Fatal("a refused refund is on the customer's timeline as a refund")
	}
	e.pay.refuseRefunds = false // an operator retries once the provider allows it
	e.twice(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false))
	if err := e.db.Pool.QueryRow(ctx, `SELECT count(*), min(status) FROM refunds WHERE checkout_id = $1`, late.CheckoutID).Scan(&n, &status); err != nil ||
		n != 1 || status != "refunded" {
		t.Fatalf("after the refund: %d %q %v", n, status, err)
	}
	e.once(kudos.EventRefund)
}
