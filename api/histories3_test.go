package api_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/workflows"
)

// The paths of the subscription workflow that issue 25's review found
// without a recorded history (workflows/testdata, replayed by
// TestReplayRecordedHistories), each run on a real Temporal and recorded.

// TestCancelCheckoutFindsItPending: the customer paid by SEPA and pressed
// cancel: the debit is settling, so the checkout stays and the answer says
// pending; the debit then settles and the plan starts.
func TestCancelCheckoutFindsItPending(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account, href := h.startPlan("cancel-pending@example.com", "STARTER")
	h.expect(h.payWith(href, sepaSucceeds), 200)
	eventually(t, "the debit to be settling", func() bool {
		var st kudos.SubscriptionState
		v, err := h.tc.QueryWorkflow(context.Background(), "subscription:"+account, "", workflows.QuerySubscription)
		return err == nil && v.Get(&st) == nil && st.Checkout != nil && st.Checkout.Pending
	})
	if r := h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription/checkout", nil, token), 200); r.str("status") != "pending" {
		t.Fatalf("cancel of a settling checkout: %s", r.Raw)
	}
	h.settleAtSandbox(account, true)
	eventually(t, "Starter", func() bool { return h.subscription(token, account)["plan"] == "STARTER" })
	h.recordHistory("subscription:"+account, "", "subscription_cancel_finds_pending.json")
}

// TestUpgradeUnderTheMinimumIsWaived: an upgrade whose prorated price is
// under the provider's minimum charge is applied at once, on a paid
// invoice of zero, without a checkout.
func TestUpgradeUnderTheMinimumIsWaived(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.Prices.Pro = h.srv.Config.Prices.Starter + 10 // ten cents a year more
	h.withTemporal(time.Hour)
	token, account := h.paidWith("waived@example.com", "STARTER", "4242424242424242")
	r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 200)
	if r.Body["applied"] != true {
		t.Fatalf("an upgrade under the minimum: %s", r.Raw)
	}
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.wantRows("invoices", account, "kind = 'UPGRADE' AND status = 'PAID' AND total_amount = 0", 1, "%d waived upgrade invoices, want 1")
	h.recordHistory("subscription:"+account, "", "subscription_upgrade_waived.json")
}

// TestAutoRenewalOffDuringDunningEndsThePlan: stopping renewal while the
// renewal is being retried ends the plan at once, its invoice due.
func TestAutoRenewalOffDuringDunningEndsThePlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Minute).withTemporal(3 * time.Second)
	token, account := h.paidWith("dunning-off@example.com", "STARTER", "4000000000000341")
	h.inDunning(token, account)
	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/subscription", nil, token), 200)
	eventually(t, "the plan to expire", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })
	h.recordHistory("subscription:"+account, "", "subscription_dunning_auto_renewal_off.json")
}

// TestPayingTheInvoiceDuringDunning: the customer pays the renewal being
// retried from the invoices page; the period keeps its renewal date.
func TestPayingTheInvoiceDuringDunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Minute).withTemporal(3 * time.Second)
	token, account := h.paidWith("dunning-pay@example.com", "STARTER", "4000000000000341")
	sub := h.inDunning(token, account)
	renewal := sub["plan_renewal_at"]
	invoice := sub["failed_payment"].(map[string]any)["invoice_id"].(string)
	run := h.currentRun("subscription:" + account)
	pay := h.expect(h.do("POST", "/v1/accounts/"+account+"/invoices/"+invoice+"/payment", nil, token), 201)
	h.expect(h.payWith(pay.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "the renewal paid", func() bool {
		s := h.subscription(token, account)
		return s["payment_retry_at"] == nil && s["plan_renewal_at"] != renewal && s["show_status"] == "active"
	})
	h.recordHistory("subscription:"+account, run, "subscription_dunning_invoice_paid.json")
}

// TestRetryClosesTheAuthenticationCheckout: a renewal whose card needs
// authentication opens a checkout for it; the next attempt closes that
// checkout at the provider before it charges again.
func TestRetryClosesTheAuthenticationCheckout(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(3*time.Second, time.Minute).withTemporal(3 * time.Second)
	token, account := h.paidWith("auth-retry@example.com", "STARTER", "4000002500003155")
	h.inDunning(token, account)
	eventually(t, "the renewal's checkout", func() bool { return h.count("checkouts", account, "purpose = 'renewal'") >= 1 })
	first := h.checkoutOf(account)
	eventually(t, "the retry to close it", func() bool { return h.count("checkouts", account, "id = '"+first+"' AND status = 'expired'") == 1 })
	h.recordHistory("subscription:"+account, "", "subscription_retry_closes_auth_checkout.json")
}

// TestTheFirstRunAfterAnOldOne: a run recorded by an older version of the
// lifecycle (a worker deployed before it, here one that prefers version 2)
// hands its state to a run of the new version at its first turn run by new
// code, which then goes on: the checkout opened meanwhile is paid.
func TestTheFirstRunAfterAnOldOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.worker.Stop()
	old := worker.New(h.tc, h.queue, worker.Options{PreferredVersionProvider: func(in worker.PreferredVersionProviderInput) *worker.VersionPreference {
		switch {
		case in.ChangeID == "billing-lifecycle":
			return &worker.VersionPreference{Version: 2}
		case strings.HasPrefix(in.ChangeID, "retire-run-"): // the old code had no such turn
			return &worker.VersionPreference{Version: workflow.DefaultVersion}
		}
		return nil
	}})
	old.RegisterWorkflow(workflows.Subscription)
	old.RegisterActivity(h.acts)
	if err := old.Start(); err != nil {
		t.Fatal(err)
	}
	var stopOld sync.Once
	t.Cleanup(func() { stopOld.Do(old.Stop) })
	token, account := h.signedUpUser("old-run@example.com")
	wf := "subscription:" + account
	eventually(t, "the old run", func() bool { return h.running(wf) })
	time.Sleep(time.Second) // its first task done
	// An api deployed before the worker started it: its state names no
	// version (today's dispatcher names one), so the old worker's marker
	// decides.
	ctx := context.Background()
	q, err := h.tc.QueryWorkflow(ctx, wf, "", workflows.QuerySubscription)
	if err != nil {
		t.Fatal(err)
	}
	var st kudos.SubscriptionState
	if err := q.Get(&st); err != nil {
		t.Fatal(err)
	}
	st.LifecycleVersion = 0
	h.terminate(account)
	if _, err := h.tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: wf, TaskQueue: h.queue,
		TypedSearchAttributes: temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(account))}, workflows.Subscription, st); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // its first task done
	oldRun := h.currentRun(wf)
	stopOld.Do(old.Stop)
	h.startWorker(h.acts)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	eventuallyWithin(t, 30*time.Second, "the old run to retire", func() bool { return h.currentRun(wf) != oldRun })
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.recordHistory(wf, oldRun, "subscription_old_run_retired.json")
	h.recordHistory(wf, "", "subscription_first_run_after_an_old_one.json")
}

// TestContinueAsNewWhenSuggested: a run whose history grows long (here
// past KUDOS_TEST_SUGGEST_CAN events: payment events of checkouts it does
// not know) continues as new when the server suggests it, every event
// applied once.
func TestContinueAsNewWhenSuggested(t *testing.T) {
	t.Parallel()
	limit := testenv.SuggestContinueAsNew(t)
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("long-history@example.com")
	wf := "subscription:" + account
	eventually(t, "the trial's run", func() bool { return h.running(wf) })
	first := h.currentRun(wf)
	ctx := context.Background()
	n := limit/4 + 20 // each event adds about five events to the history
	for i := range n {
		ev := kudos.PaymentEvent{EventID: fmt.Sprintf("evt_long_%03d_%s", i, uuid.NewString()[:8]), Provider: "sandbox",
			CheckoutID: "co_unknown", AccountID: uuid.MustParse(account), Outcome: kudos.PaymentFailed, OccurredAt: time.Now()}
		if _, err := h.db.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
			t.Fatal(err)
		}
	}
	h.srv.Outbox.Kick()
	eventuallyWithin(t, 90*time.Second, "every event applied", func() bool { return h.count("payment_events", account, "applied_at IS NULL") == 0 })
	if h.currentRun(wf) == first {
		t.Fatalf("%d events and the run did not continue as new (is the server's suggestContinueAsNew %d?)", n, limit)
	}
	if s := h.subscription(token, account); s["plan"] != "TRIAL" || s["show_status"] != "active" {
		t.Fatalf("after continuing as new: %v", s)
	}
	h.recordHistory(wf, first, "subscription_continue_as_new_suggested.json")
}

// failingCharges is a payment provider whose off-session charges fail
// (an outage: a retryable error) until released.
type failingCharges struct {
	kudos.PaymentProvider
	mu      sync.Mutex
	failing bool
}

func (f *failingCharges) ChargeOffSession(ctx context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	f.mu.Lock()
	failing := f.failing
	f.mu.Unlock()
	if failing {
		return kudos.ChargeResult{}, fmt.Errorf("the provider is down")
	}
	return f.PaymentProvider.ChargeOffSession(ctx, req)
}

// TestThePauseBetweenRetryWindows: a renewal charge that keeps failing
// (the provider down) is retried for a window, then the workflow waits on
// a timer and tries a new window; once the provider is back the renewal
// goes through, nothing skipped. Windows and pause are shortened from
// 6 h and 10 min.
func TestThePauseBetweenRetryWindows(t *testing.T) {
	t.Parallel()
	t.Cleanup(workflows.SetTransitionTiming(3*time.Second, 2*time.Second))
	h := newHarness(t).withDunning().withTemporal(4 * time.Second)
	h.worker.Stop()
	acts := *h.acts
	down := &failingCharges{PaymentProvider: acts.Payments, failing: true}
	acts.Payments = down
	h.startWorker(&acts)
	token, account := h.paidWith("provider-down@example.com", "STARTER", "4242424242424242")
	renewal := h.subscription(token, account)["plan_renewal_at"]
	run := h.currentRun("subscription:" + account)
	time.Sleep(12 * time.Second) // the renewal date, a window, a pause, the next window
	if s := h.subscription(token, account); s["plan_renewal_at"] != renewal {
		t.Fatalf("renewed while the provider was down: %v", s)
	}
	down.mu.Lock()
	down.failing = false
	down.mu.Unlock()
	eventuallyWithin(t, 30*time.Second, "the renewal once the provider is back", func() bool {
		return h.subscription(token, account)["plan_renewal_at"] != renewal
	})
	// One charge per renewal. A 4 s period may renew again meanwhile, and a
	// charge is made a moment before its invoice is marked paid: the two
	// counts are compared once they settle (a second charge for one renewal
	// would have no invoice of its own, and they would never agree).
	var renewals, charges int
	eventuallyWithin(t, 20*time.Second, "one paid charge per paid renewal", func() bool {
		renewals = h.count("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'")
		charges = h.count("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND paid")
		return renewals > 0 && charges == renewals
	})
	h.recordHistory("subscription:"+account, run, "subscription_pause_between_retry_windows.json")
}
