package workflows_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/workflows"
)

// TestRestartFromTheReadModelChargesTheNextPeriod: a workflow rebuilt from
// Postgres (terminated, lost history, namespace move) must charge the next
// period under a key of its own. With a counter that the restart resets,
// the provider finds last year's charge under the same key and the renewal
// is marked paid without any money moving.
func TestRestartFromTheReadModelChargesTheNextPeriod(t *testing.T) {
	e := newSubEnv(t)
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
	var can *workflow.ContinueAsNewError
	if err := e.GetWorkflowError(); !errors.As(err, &can) || len(e.acts.renewals) != 1 {
		t.Fatalf("first renewal: %v, %+v", err, e.acts.renewals)
	}
	first := e.acts.renewals[0]
	renewed := e.acts.lastWrite()

	// The history is lost; the workflow is started again from the row.
	e2 := newSubEnv(t)
	e2.SetStartTime(*renewed.PeriodStartedAt)
	st := kudos.StateFromRecord(first.AccountID, kudos.SubscriptionReadModel{Subscription: renewed}, period, 24*time.Hour, kudos.Lifecycle{}, *renewed.PeriodStartedAt)
	e2.ExecuteWorkflow(workflows.Subscription, st)
	if err := e2.GetWorkflowError(); !errors.As(err, &can) || len(e2.acts.renewals) != 1 {
		t.Fatalf("renewal after the restart: %v, %+v", err, e2.acts.renewals)
	}
	second := e2.acts.renewals[0]
	if second.ChargeID == first.ChargeID {
		t.Fatalf("both periods charged under key %q: the second renewal would reuse the first year's charge", first.ChargeID)
	}
	if second.InvoiceID == first.InvoiceID {
		t.Fatalf("both periods billed on invoice %s", first.InvoiceID)
	}
}

// TestRenewalKeysDeriveFromThePeriod: a restart in the middle of a
// renewal (after the charge, before the row was written) charges and bills
// the same period under the same key and invoice: nothing twice.
func TestRenewalKeysDeriveFromThePeriod(t *testing.T) {
	run := func() workflows.RenewalInput {
		e := newSubEnv(t)
		e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, time.Hour))
		if len(e.acts.renewals) != 1 {
			t.Fatalf("renewals %+v", e.acts.renewals)
		}
		return e.acts.renewals[0]
	}
	a, b := run(), run()
	if a.ChargeID != b.ChargeID || a.InvoiceID != b.InvoiceID {
		t.Fatalf("one period, two keys: %+v / %+v", a, b)
	}
}

// TestRestartKeepsTheDueInvoicePayable: a plan_expired account whose
// workflow is rebuilt from Postgres can still pay its due invoice.
func TestRestartKeepsTheDueInvoicePayable(t *testing.T) {
	e := newSubEnv(t)
	due := uuid.New()
	renewal := start.Add(-time.Hour)
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusPlanExpired, PlanRenewalAt: &renewal},
		Due:          &kudos.DueInvoice{ID: due, Plan: kudos.PlanPro},
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, kudos.Lifecycle{}, start)
	var pay *updateOutcome
	e.at(time.Hour, func() { pay = e.update(workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: due}) })
	e.at(2*time.Hour, func() {
		if pay == nil || pay.rejected != nil || pay.failed != nil || pay.result.CheckoutHref == "" {
			t.Errorf("paying the due invoice after a restart: %+v", pay)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// TestRestartContinuesTheOpenCheckout: a checkout open when the workflow
// was lost stays the account's checkout: a payment for it is applied, not
// dropped.
func TestRestartContinuesTheOpenCheckout(t *testing.T) {
	e := newSubEnv(t)
	exp := start.Add(24 * time.Hour)
	inv := uuid.New()
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusProcessing, TrialExpiresAt: &exp},
		Checkout: &kudos.CheckoutRecord{ID: "co_lost", Provider: "sandbox", ProviderID: "cs_lost", URL: "https://pay.example/co_lost",
			Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanTeam, InvoiceID: &inv, ExpiresAt: exp},
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, kudos.Lifecycle{}, start)
	e.at(time.Hour, func() { e.sendEvent("ev-after-restart", "co_lost", kudos.PaymentPaid) })
	e.at(2*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanTeam || s.Status != kudos.StatusActive || s.Checkout != nil {
			t.Errorf("a payment of the checkout open before the restart: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// TestARebuiltRunTriesItsDeferredRefunds (issue 34 item 2): a refund the
// provider refused for now is in the read model (refunds deferred); the
// run rebuilt from it tries it at its retry_at, on the schedule measured
// from its first refusal, each refusal for now with its next try for the
// row (RetryAt), and the last try without.
func TestARebuiltRunTriesItsDeferredRefunds(t *testing.T) {
	e := newSubEnv(t)
	e.acts.refundRefusals = []string{"temporary", "temporary"}
	renewal := start.Add(300 * 24 * time.Hour)
	first := start.Add(-2 * time.Hour) // the schedule: 1 h, 6 h, 24 h, 72 h from it
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, PlanRenewalAt: &renewal,
			StartNextPeriod: true},
		Refunds: []kudos.PendingRefund{{CheckoutID: "co_dup", FirstRefusedAt: first, RetryAt: first.Add(6 * time.Hour),
			Reason: "balance_insufficient"}},
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, kudos.Lifecycle{}, start)
	e.at(3*time.Hour, func() {
		if len(e.acts.refundInputs) != 0 {
			t.Errorf("tried before its retry_at: %+v", e.acts.refundInputs)
		}
	})
	e.at(5*24*time.Hour, func() {
		in := e.acts.refundInputs
		if len(in) != 3 || in[0].CheckoutID != "co_dup" || !in[0].RetryAt.Equal(first.Add(24*time.Hour)) ||
			!in[1].RetryAt.Equal(first.Add(72*time.Hour)) || in[2].Deferrable || !in[2].RetryAt.IsZero() {
			t.Errorf("the rebuilt run's tries: %+v", in)
		}
		if s := e.state(); len(s.Refunds) != 0 {
			t.Errorf("still pending after the last try: %+v", s.Refunds)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// TestARebuiltReturnedDebitKeepsItsPeriodAndSchedule: a paid period whose
// debit came back is being retried (dunning measured from the return) when
// its run is lost. The run rebuilt from the read model retries the same
// period on the same schedule: its next slot after a declined retry is the
// return's, not the renewal date's a year on, and a retry that succeeds
// leaves the period as it was, never starting a new year at the renewal
// date.
func TestARebuiltReturnedDebitKeepsItsPeriodAndSchedule(t *testing.T) {
	e := newSubEnv(t)
	e.acts.renewalResults = []workflows.RenewalResult{{Paid: false, FailureReason: "card_declined"}}
	schedule := []time.Duration{time.Hour, 6 * time.Hour, 24 * time.Hour}
	e.acts.lifecycle = kudos.Lifecycle{DunningSchedule: schedule}
	// The return happened at returned and was applied by the run at base
	// (its clock), which its schedule is measured from.
	began, returned := start.Add(-30*24*time.Hour), start.Add(-2*time.Hour-3*time.Second)
	base := start.Add(-2 * time.Hour)
	renewal, retry := began.Add(period), base.Add(6*time.Hour) // the retry an hour after the return failed
	inv := uuid.New()
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, PeriodStartedAt: &began,
			PlanRenewalAt: &renewal, StartNextPeriod: true, PaymentRetryAt: &retry,
			FailedPayment: &kudos.FailedPayment{InvoiceID: inv, Amount: kudos.Money{Amount: 21780, Currency: "EUR"}}},
		FailedKind: kudos.InvoiceSubscription, FailedReturnedAt: &returned,
		Returned: []kudos.OwedInvoice{{ID: inv, Plan: kudos.PlanStarter, Service: &kudos.ServicePeriod{From: began, To: renewal}}},
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, e.acts.lifecycle, start)
	if d := st.Dunning; d == nil || !d.PeriodStart.Equal(began) || !d.Base().Equal(base) || d.Attempts != 2 || !d.Returned {
		t.Fatalf("the rebuilt dunning %+v, want the period begun %v retried from the return %v after 2 attempts, returned", d, began, base)
	}
	// The plan the returned invoice bills (a Starter year, upgraded since)
	// and the period it paid, as the lost run kept them: unpaid, it is
	// due for that plan; held as owed by a deletion, it is collected again.
	if d := st.Dunning; d.Plan != kudos.PlanStarter || d.Service == nil || !d.Service.From.Equal(began) || len(st.Owed) != 0 {
		t.Fatalf("the rebuilt dunning %+v (owed %+v), want the Starter invoice's plan and period, nothing else owed", d, st.Owed)
	}
	e.at(5*time.Hour, func() {
		if d := e.state().Dunning; d == nil || !d.RetryAt.Equal(base.Add(24*time.Hour)) {
			t.Errorf("after the declined retry: %+v, want the next at %v", d, base.Add(24*time.Hour))
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	next := e.nextRun() // the paid retry: the run continues as new with the period paid
	if len(e.acts.renewals) != 2 || next.Dunning != nil || !next.PeriodStartedAt.Equal(began) || !next.RenewalAt.Equal(renewal) {
		t.Fatalf("after the paid retry (%d charges): dunning %+v, period %v–%v, want %v–%v", len(e.acts.renewals), next.Dunning,
			next.PeriodStartedAt, next.RenewalAt, began, renewal)
	}
}

// TestARebuiltDunningKeepsItsShiftedSchedule: a renewal's charge settled
// for days before it failed (a SEPA debit), so its retries are measured
// from then (Dunning.RetryBase), when its run is lost. The run rebuilt from
// the read model (payment_retry_base) keeps that schedule: after a declined
// retry the next comes at the shifted slot, not at the renewal date's,
// which had passed (the schedule would have ended at once, the plan
// expiring two retries early).
func TestARebuiltDunningKeepsItsShiftedSchedule(t *testing.T) {
	e := newSubEnv(t)
	e.acts.declineRenewal = true
	schedule := []time.Duration{24 * time.Hour, 72 * time.Hour, 120 * time.Hour}
	e.acts.lifecycle = kudos.Lifecycle{DunningSchedule: schedule}
	renewal := start.Add(-6 * 24 * time.Hour)
	began, base := renewal.Add(-period), renewal.Add(5*24*time.Hour) // settled five days, then failed
	retry := base.Add(72 * time.Hour)                                // the first retry, a day after, failed too
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, PeriodStartedAt: &began,
			PlanRenewalAt: &renewal, StartNextPeriod: true, PaymentRetryAt: &retry, PaymentRetryBase: &base,
			FailedPayment: &kudos.FailedPayment{InvoiceID: uuid.New(), Amount: kudos.Money{Amount: 21780, Currency: "EUR"}}},
		FailedKind: kudos.InvoiceRenewal,
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, e.acts.lifecycle, start)
	if d := st.Dunning; d == nil || !d.PeriodStart.Equal(renewal) || !d.Base().Equal(base) || d.Attempts != 2 {
		t.Fatalf("the rebuilt dunning %+v, want the renewal of %v retried from %v after 2 attempts", d, renewal, base)
	}
	e.at(retry.Sub(start)+time.Hour, func() {
		if d := e.state().Dunning; d == nil || !d.RetryAt.Equal(base.Add(120*time.Hour)) || e.state().Status != kudos.StatusActive {
			t.Errorf("after the declined retry: %+v (%s), want the next at %v", d, e.state().Status, base.Add(120*time.Hour))
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// TestARebuiltReturnedDebitKeepsItsSettlingRetry: during a returned
// debit's retries a charge of it settles (an extra attempt after a new
// SEPA method, or a scheduled one), when the run is lost. The rebuilt run
// kept a settling charge only when it was for the renewal date, never for
// the period running now that a returned debit retries: it charged again
// under a new key at the next slot (a second debit), and a stop of
// auto-renewal ended the plan with the valid payment refunded when it
// landed. It is waited on like any settling charge.
func TestARebuiltReturnedDebitKeepsItsSettlingRetry(t *testing.T) {
	began, returned := start.Add(-30*24*time.Hour), start.Add(-2*time.Hour)
	renewal, retry := began.Add(period), start.Add(4*time.Hour)
	inv := uuid.New()
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, PeriodStartedAt: &began,
			PlanRenewalAt: &renewal, StartNextPeriod: true, PaymentRetryAt: &retry,
			FailedPayment: &kudos.FailedPayment{InvoiceID: inv, Amount: kudos.Money{Amount: 21780, Currency: "EUR"}},
			PendingRenewal: &kudos.PendingCharge{PeriodStart: began, InvoiceID: inv, ChargeID: "renewal:x:method:co_x",
				Attempt: "method:co_x"}},
		FailedKind: kudos.InvoiceSubscription, FailedReturnedAt: &returned,
	}
	lifecycle := kudos.Lifecycle{DunningSchedule: []time.Duration{time.Hour, 6 * time.Hour, 24 * time.Hour}}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, lifecycle, start)
	if st.Dunning == nil || !st.Dunning.Returned {
		t.Fatalf("the rebuilt dunning %+v, want the returned debit's", st.Dunning)
	}
	if p := st.PendingRenewal; p == nil || p.ChargeID != "renewal:x:method:co_x" {
		t.Fatalf("the rebuilt run's settling charge %+v, want the returned debit's retry waited on", p)
	}
}

// TestARebuiltOwedInvoiceStaysOwedBesideAnUpgrade: a debit of an ended
// period came back (its invoice owed, the plan active), and the owner
// opened an upgrade checkout (the row reads processing) when the run was
// lost. The rebuilt run took the owed invoice for an expired plan's due
// one: the plan read plan_expired, the upgrade's payment was refunded as
// no longer owed, and no renewal was charged. The owed invoice stays owed,
// and the plan active under its checkout.
func TestARebuiltOwedInvoiceStaysOwedBesideAnUpgrade(t *testing.T) {
	began := start.Add(-30 * 24 * time.Hour)
	renewal := began.Add(period)
	owed, upgrade := uuid.New(), uuid.New()
	rm := kudos.SubscriptionReadModel{
		Subscription: kudos.Subscription{Plan: kudos.PlanStarter, ShowStatus: kudos.StatusProcessing, PeriodStartedAt: &began,
			PlanRenewalAt: &renewal, StartNextPeriod: true},
		Due:      &kudos.DueInvoice{ID: owed, Plan: kudos.PlanStarter},
		Returned: []kudos.OwedInvoice{{ID: owed, Plan: kudos.PlanStarter}},
		Checkout: &kudos.CheckoutRecord{ID: "co_up", Purpose: kudos.CheckoutUpgrade, Plan: kudos.PlanPro, InvoiceID: &upgrade,
			ExpiresAt: start.Add(time.Hour), Status: "open"},
	}
	st := kudos.StateFromRecord(uuid.New(), rm, period, 24*time.Hour, kudos.Lifecycle{}, start)
	if st.Status != kudos.StatusActive || st.Due != nil || !st.Owes(owed) || st.Checkout == nil {
		t.Fatalf("rebuilt: status %s, due %+v, owed %+v, checkout %+v; want active, nothing due, the invoice owed, the upgrade open",
			st.Status, st.Due, st.Owed, st.Checkout)
	}
}
