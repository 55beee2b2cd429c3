package workflows_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/workflows"
)

// Money, round 3 (issue 25): each test here failed on the code before it
// (lifecycle version 2), and passes since version 3.

// nextEnv is a fresh environment running the state the run of e handed on,
// with e's read model of checkouts.
func (e *subEnv) nextEnv(t *testing.T) (*subEnv, kudos.SubscriptionState) {
	next := e.nextRun()
	n := newSubEnv(t)
	n.acts.lifecycle, n.acts.checkouts, n.acts.expireOutcome = e.acts.lifecycle, e.acts.checkouts, e.acts.expireOutcome
	return n, next
}

// Item 1: an upgrade paid by SEPA that is still settling at the renewal
// belongs to the period it was priced for. The renewal charges the plan the
// customer has (Starter); when the upgrade's payment then settles it is
// refunded, and the new year stays Starter.
func TestSettlingUpgradeAtTheRenewalIsRefunded(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.expireOutcome = kudos.PaymentPending // asked meanwhile, the provider says it settles
	e.at(time.Hour, func() { e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-pending", e.openedID(0), kudos.PaymentPending) })
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, 2*day))
	upgrade := e.openedID(0)
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != kudos.PlanStarter {
		t.Fatalf("renewals %+v: want one, of Starter", e.acts.renewals)
	}
	n, next := e.nextEnv(t)
	n.at(time.Hour, func() { n.sendEvent("ev-settled", upgrade, kudos.PaymentPaid) })
	n.at(2*time.Hour, func() {
		s := n.state()
		if s.Plan != kudos.PlanStarter || s.Checkout != nil || len(n.acts.refunds) != 1 || n.acts.refunds[0].CheckoutID != upgrade {
			t.Errorf("the upgrade settled after the renewal: plan %s, checkout %+v, refunds %+v; want Starter, refunded",
				s.Plan, s.Checkout, n.acts.refunds)
		}
		if len(n.acts.settlements) != 0 {
			t.Errorf("the upgrade was settled as paid: %+v", n.acts.settlements)
		}
		n.CancelWorkflow()
	})
	n.ExecuteWorkflow(workflows.Subscription, next)
	assertCanceled(t, n)
}

// Item 1, in dunning: an upgrade that settles while the renewal (priced
// for Starter) is being retried is refunded; the retry then renews
// Starter, never a year of Pro for Starter's price.
func TestSettlingUpgradeDuringDunningIsRefunded(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.expireOutcome = kudos.PaymentPending
	e.acts.renewalResults = []workflows.RenewalResult{declined(), {Paid: true}}
	e.at(time.Hour, func() { e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-pending", e.openedID(0), kudos.PaymentPending) })
	e.at(2*day+time.Hour, func() {
		if s := e.state(); s.Dunning == nil {
			t.Fatalf("no dunning after the declined renewal: %+v", s)
		}
		e.sendEvent("ev-settled", e.openedID(0), kudos.PaymentPaid)
	})
	e.at(2*day+2*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanStarter || len(e.acts.refunds) != 1 {
			t.Errorf("an upgrade settling during dunning: plan %s, refunds %+v; want Starter, refunded", s.Plan, e.acts.refunds)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, 2*day))
	e.nextRun()
	if len(e.acts.renewals) != 2 || e.acts.renewals[1].Plan != kudos.PlanStarter || e.acts.lastWrite().Plan != kudos.PlanStarter {
		t.Fatalf("the retry %+v renewed %s; want Starter", e.acts.renewals, e.acts.lastWrite().Plan)
	}
}

// Item 2: a checkout left settling is asked about every day: the payment
// found there starts the plan though its final event never came.
func TestSettlingCheckoutIsFollowedUp(t *testing.T) {
	e := newSubEnv(t)
	e.acts.expireOutcome = kudos.PaymentPending
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-pending", e.openedID(0), kudos.PaymentPending) })
	e.at(30*time.Hour, func() {
		if len(e.acts.expired) != 1 {
			t.Errorf("asked %d times in the first day, want once", len(e.acts.expired))
		}
		e.acts.mu.Lock()
		e.acts.expireOutcome = kudos.PaymentPaid // settled; its webhook is lost
		e.acts.mu.Unlock()
	})
	e.at(3*day, func() {
		if s := e.state(); s.Plan != kudos.PlanPro || s.Status != kudos.StatusActive || s.Checkout != nil {
			t.Errorf("a payment settled without its event: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)
}

// Item 2: still settling after 14 days, the checkout counts as failed and
// the account is no longer processing.
func TestSettlingCheckoutFailsAfterItsLimit(t *testing.T) {
	e := newSubEnv(t)
	e.acts.expireOutcome = kudos.PaymentPending
	e.at(time.Hour, func() { e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-pending", e.openedID(0), kudos.PaymentPending) })
	e.at(13*day, func() {
		if s := e.state(); s.Checkout == nil || s.DisplayStatus() != kudos.StatusProcessing {
			t.Errorf("before the limit: %+v", s)
		}
	})
	e.at(15*day, func() {
		s := e.state()
		if s.Checkout != nil || s.DisplayStatus() != kudos.StatusActive || s.Plan != kudos.PlanPro ||
			len(e.acts.closed) != 1 || e.acts.closed[0].Outcome != kudos.PaymentFailed {
			t.Errorf("after the limit: %+v, closed %+v", s, e.acts.closed)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, 100*day))
	assertCanceled(t, e)
}

// Item 3: a renewal charge left processing (SEPA) is waited for on a timer,
// the lock free: an update meanwhile is answered at once; the charge is
// asked about daily under its own key, and its success starts the period.
func TestProcessingRenewalIsWaitedForOnATimer(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	pending := workflows.RenewalResult{Pending: true}
	e.acts.renewalResults = []workflows.RenewalResult{pending, pending, {Paid: true}}
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	var off *updateOutcome
	e.at(day+time.Hour, func() {
		s := e.state()
		if s.PendingRenewal == nil || s.Dunning != nil || s.Status != kudos.StatusActive || workflows.PaymentStateOf(&s) != workflows.PaymentPending {
			t.Errorf("a renewal charge processing: %+v", s)
		}
		off = e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: false})
	})
	e.at(day+time.Hour+time.Minute, func() {
		if off == nil || !off.done || off.rejected != nil || off.failed != nil {
			t.Errorf("an update while the renewal charge processes: %+v; want it answered at once", off)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if len(e.acts.renewals) != 3 {
		t.Fatalf("%d charge calls, want 3 (the charge, then two asks)", len(e.acts.renewals))
	}
	for _, r := range e.acts.renewals {
		if r.ChargeID != e.acts.renewals[0].ChargeID || r.InvoiceID != e.acts.renewals[0].InvoiceID {
			t.Fatalf("asked under another key: %+v", e.acts.renewals)
		}
	}
	if next.PendingRenewal != nil || next.Dunning != nil || next.AutoRenew || !next.PeriodStartedAt.Equal(renewal) {
		t.Fatalf("after the charge settled: %+v", next)
	}
}

// Item 3: while a retry of the renewal is processing, its invoice cannot
// be paid again from the invoices page (that could take the money twice).
func TestInvoiceOfAProcessingRetryCannotBePaidAgain(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{declined(), {Pending: true}, {Pending: true}, {Pending: true}}
	var pay *updateOutcome
	e.at(5*day, func() { // after the first retry (3 days after the renewal), which is processing
		s := e.state()
		if s.Dunning == nil || s.PendingRenewal == nil {
			t.Fatalf("a retry processing: %+v", s)
		}
		pay = e.update(workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: s.Dunning.InvoiceID})
	})
	e.at(5*day+time.Minute, func() {
		if pay == nil || pay.rejected == nil || len(e.acts.opened) != 0 {
			t.Errorf("paying the invoice of a processing retry: %+v, %d checkouts opened", pay, len(e.acts.opened))
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, day))
	assertCanceled(t, e)
}

// Item 3: a charge still processing after the limit is cancelled at the
// provider, then counts as failed (dunning); one the provider will not
// cancel is waited for: charging again could take the money twice.
func TestProcessingRenewalPastItsLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cancel  workflows.RenewalResult
		dunning bool
	}{
		{"cancelled", workflows.RenewalResult{FailureReason: "canceled"}, true},
		{"not cancellable", workflows.RenewalResult{Pending: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newSubEnv(t)
			e.acts.lifecycle = dunningOnly
			for range 20 {
				e.acts.renewalResults = append(e.acts.renewalResults, workflows.RenewalResult{Pending: true})
			}
			e.acts.cancelResult = tc.cancel
			e.at(16*day, func() {
				s := e.state()
				if (s.Dunning != nil) != tc.dunning || (s.PendingRenewal == nil) != tc.dunning || len(e.acts.cancels) == 0 {
					t.Errorf("past the limit: dunning %+v, pending %+v, %d cancels", s.Dunning, s.PendingRenewal, len(e.acts.cancels))
				}
				for _, r := range e.acts.renewals {
					if r.ChargeID != e.acts.renewals[0].ChargeID {
						t.Errorf("a second charge while the first may settle: %+v", r)
					}
				}
				e.CancelWorkflow()
			})
			e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, day))
			assertCanceled(t, e)
		})
	}
}

// Item 4: a reset re-applies the update that opened a checkout under its
// id: the same checkout and invoice, not a second checkout at the provider.
func TestCheckoutIDDerivesFromTheUpdate(t *testing.T) {
	var ids [2]workflows.OpenCheckoutInput
	for i := range ids {
		e := newSubEnv(t)
		e.at(time.Hour, func() {
			e.updateWithID("upd-1", workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
		})
		e.at(2*time.Hour, func() { e.CancelWorkflow() })
		e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
		assertCanceled(t, e)
		ids[i] = e.acts.opened[0]
	}
	if ids[0].CheckoutID != ids[1].CheckoutID || ids[0].InvoiceID != ids[1].InvoiceID {
		t.Fatalf("the same update opened %s (%s) and %s (%s)", ids[0].CheckoutID, ids[0].InvoiceID, ids[1].CheckoutID, ids[1].InvoiceID)
	}
}

// Item 4: after a reset to before the checkout, its paid event comes again
// while the read model already says paid: what it paid for is still owed
// in the reset run, so it is applied, not skipped.
func TestPaidEventIsAppliedByWhatItPaidFor(t *testing.T) {
	e := newSubEnv(t)
	inv := uuid.New()
	e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_a": {ID: "co_a", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanPro,
		InvoiceID: &inv, ExpiresAt: start.Add(day), Status: "paid"}}
	e.at(time.Hour, func() { e.sendEvent("ev-paid", "co_a", kudos.PaymentPaid) })
	e.at(2*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanPro || s.Status != kudos.StatusActive || len(e.acts.refunds) != 0 {
			t.Errorf("a paid event of a checkout the row says paid: %+v, refunds %+v", s, e.acts.refunds)
		}
		// The same event again is a duplicate: nothing refunded.
		e.sendEvent("ev-paid-again", "co_a", kudos.PaymentPaid)
	})
	e.at(3*time.Hour, func() {
		if len(e.acts.refunds) != 0 || len(e.acts.settlements) != 1 {
			t.Errorf("the repeat: refunds %+v, %d settlements", e.acts.refunds, len(e.acts.settlements))
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)
}

// Item 5: every payment event is marked applied once applied; a run
// rebuilt from the read model applies first the events a lost run
// accepted and never applied.
func TestEventsAreMarkedAppliedAndARebuiltRunAppliesTheRest(t *testing.T) {
	e := newSubEnv(t)
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(2*time.Hour, func() { e.sendEvent("ev-pending", e.openedID(0), kudos.PaymentPending) })
	e.at(3*time.Hour, func() { e.sendEvent("ev-other", "co_unknown", kudos.PaymentFailed) })
	e.at(4*time.Hour, func() { e.sendEvent("ev-paid", e.openedID(0), kudos.PaymentPaid) })
	e.at(5*time.Hour, func() {
		if want := []string{"ev-pending", "ev-other", "ev-paid"}; !slices.Equal(e.acts.applied, want) {
			t.Errorf("applied %v, want %v", e.acts.applied, want)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)

	// The read model of a lost run: the checkout open, its paid event
	// accepted and never applied.
	r := newSubEnv(t)
	st := trialState(14 * day)
	inv := uuid.New()
	st.Checkout = &kudos.OpenCheckout{ID: "co_b", ProviderID: "p_co_b", Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanTeam,
		InvoiceID: inv, ExpiresAt: start.Add(day)}
	st.Inbox = []kudos.PaymentEvent{{EventID: "ev-lost", CheckoutID: "co_b", Outcome: kudos.PaymentPaid}}
	r.at(time.Minute, func() {
		if s := r.state(); s.Plan != kudos.PlanTeam || s.Checkout != nil || len(s.Inbox) != 0 || !slices.Equal(r.acts.applied, []string{"ev-lost"}) {
			t.Errorf("the rebuilt run: %+v, applied %v", s, r.acts.applied)
		}
		r.CancelWorkflow()
	})
	r.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, r)
}

// Item 8: cancelling the workflow while it drains before continuing as
// new (an update still in flight) ends the run, without spinning on the
// cancelled context.
func TestCancelDuringTheDrainEndsTheRun(t *testing.T) {
	e := newSubEnv(t)
	e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_old": {ID: "co_old", Purpose: kudos.CheckoutSubscription,
		Plan: kudos.PlanStarter, Status: "paid"}}
	e.at(time.Hour-time.Second, func() {
		// While the renewal's turn handles a late event, an upgrade comes
		// and waits for the lock; the run then drains it, and the operator
		// cancels the workflow while its checkout is being opened.
		e.acts.onLoad = func() {
			e.acts.onOpen = func() { e.CancelWorkflow() }
			e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanPro})
		}
	})
	e.at(time.Hour, func() { e.sendEvent("ev-late", "co_old", kudos.PaymentPaid) })
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
	assertCanceled(t, e)
}

// Item 10: a year is a calendar year: a period that starts on 29 February
// ends on 28 February, as Stripe bills it.
func TestAPeriodIsACalendarYear(t *testing.T) {
	leap := time.Date(2028, 2, 29, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ start, want time.Time }{
		{leap, time.Date(2029, 2, 28, 9, 0, 0, 0, time.UTC)},
		{time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC), time.Date(2028, 6, 1, 9, 0, 0, 0, time.UTC)},
		{time.Date(2028, 3, 1, 9, 0, 0, 0, time.UTC), time.Date(2029, 3, 1, 9, 0, 0, 0, time.UTC)},
	} {
		if got := kudos.PeriodEnd(tc.start, kudos.CalendarYear); !got.Equal(tc.want) {
			t.Errorf("PeriodEnd(%v) = %v, want %v", tc.start, got, tc.want)
		}
	}
	if got := kudos.PeriodEnd(leap, 45*time.Second); !got.Equal(leap.Add(45 * time.Second)) {
		t.Errorf("a short test period: %v", got)
	}
	// Bought on 1 June 2027, a plan renews on 1 June 2028, not on the
	// 31 May that 8760 h after it falls on (2028 has a 29 February).
	bought := time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)
	e := newSubEnv(t)
	e.SetStartTime(bought.Add(-time.Hour))
	e.at(0, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(time.Hour, func() { e.sendEvent("ev-paid", e.openedID(0), kudos.PaymentPaid) })
	e.at(2*time.Hour, func() {
		if s := e.state(); s.RenewalAt == nil || !s.RenewalAt.Equal(time.Date(2028, 6, 1, 9, 0, 0, 0, time.UTC)) {
			t.Errorf("bought on 1 June 2027: renews %v", s.RenewalAt)
		}
		e.CancelWorkflow()
	})
	st := trialState(14 * day)
	exp := bought.Add(10 * day)
	st.TrialExpiresAt = &exp
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// Item 11: a refund the provider refuses for now is tried again on its
// schedule (1 h, 6 h, …) before it counts as refused.
func TestRefundRefusedForNowIsRetried(t *testing.T) {
	for _, tc := range []struct {
		name     string
		refusals []string
		refunded bool
		tries    int
	}{
		{"passes on the third try", []string{"temporary", "temporary", ""}, true, 3},
		{"refused until the last try", []string{"temporary", "temporary", "temporary", "temporary", "temporary"}, false, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newSubEnv(t)
			e.acts.lifecycle = dunningOnly
			inv := uuid.New()
			e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_dup": {ID: "co_dup", Purpose: kudos.CheckoutSubscription,
				Plan: kudos.PlanPro, InvoiceID: &inv, ExpiresAt: start, Status: "expired"}}
			e.acts.refundRefusals = tc.refusals
			e.at(time.Hour, func() { e.sendEvent("ev-dup", "co_dup", kudos.PaymentPaid) }) // paid twice: not owed
			e.at(2*time.Hour, func() {
				if s := e.state(); len(s.Refunds) != 1 || len(e.acts.refunds) != 0 {
					t.Errorf("refused for now: pending refunds %+v, refunds %+v", s.Refunds, e.acts.refunds)
				}
			})
			e.at(5*day, func() {
				s := e.state()
				if len(e.acts.refundInputs) != tc.tries || (len(e.acts.refunds) == 1) != tc.refunded || len(s.Refunds) != 0 {
					t.Errorf("after the schedule: %d tries, refunds %+v, pending %+v", len(e.acts.refundInputs), e.acts.refunds, s.Refunds)
				}
				if last := e.acts.refundInputs[len(e.acts.refundInputs)-1]; !tc.refunded && last.Deferrable {
					t.Errorf("the last try may defer again: %+v", last)
				}
				e.CancelWorkflow()
			})
			e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, 300*day))
			assertCanceled(t, e)
		})
	}
}

// Item 13: a run on an older version of the billing lifecycle hands its
// state to a new run (continue-as-new) at its first turn run anew, even
// one that waits for nothing (an expired trial), so that old branches can
// be retired.
func TestAnOldRunRetiresAtItsFirstTurn(t *testing.T) {
	e := newSubEnv(t)
	e.OnGetVersion("billing-lifecycle", workflow.DefaultVersion, workflows.LifecycleVersion).Return(workflow.Version(2))
	st := trialState(-day)
	st.Status = kudos.StatusTrialExpired
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun()
	if next.Status != kudos.StatusTrialExpired || next.Plan != kudos.PlanTrial {
		t.Fatalf("the state handed on: %+v", next)
	}
}
