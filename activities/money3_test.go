package activities_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
	"kudos/workflows"
)

// Money, round 3 (issue 25), through Postgres: each test failed on the
// code before it.

// refundOf is the refund input of a checkout.
func refundOf(account uuid.UUID, checkoutID string, deferrable bool) workflows.RefundInput {
	return workflows.RefundInput{CheckoutRef: workflows.CheckoutRef{AccountID: account, CheckoutID: checkoutID}, Deferrable: deferrable}
}

// count is a count(*) of the account's rows of table matching where.
func (e *timelineEnv) count(table, where string) int {
	e.t.Helper()
	var n int
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM `+table+` WHERE account_id = $1 AND `+where, e.account).
		Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// Item 9: no phantom invoices. A checkout the provider refuses, or that
// fails, leaves no invoice; a second click after a failed first one shows
// one PROCESSING invoice, not two.
func TestNoInvoiceBeforeTheProviderOpensTheCheckout(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"refused", kudos.Errorf(kudos.EInvalid, "amount too small")},
		{"provider down", kudos.Errorf(kudos.EUnavailable, "timeout")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTimelineEnv(t)
			e.pay.checkoutErr = tc.err
			in := workflows.OpenCheckoutInput{AccountID: e.account, CheckoutID: "co_1", Purpose: kudos.CheckoutSubscription,
				Plan: kudos.PlanPro, InvoiceID: uuid.New(), ExpiresAt: time.Now().Add(time.Hour)}
			if _, err := e.env.ExecuteActivity(workflows.ActivityOpenCheckout, in); err == nil {
				t.Fatal("the provider failed, the activity succeeded")
			}
			if n := e.count("invoices", "true"); n != 0 {
				t.Fatalf("%d invoices after a checkout that never opened, want none", n)
			}
			e.pay.checkoutErr = nil // the customer clicks again: another update, another checkout
			e.open("co_2", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
			if n := e.count("invoices", "status = 'PROCESSING'"); n != 1 {
				t.Fatalf("%d PROCESSING invoices after two clicks, want 1", n)
			}
		})
	}
}

// Item 6: one period, one invoice. The renewal date as the workflow holds
// it (nanoseconds) and as a run rebuilt from Postgres reads it back
// (microseconds) derive the same invoice and the same charge: a rebuilt run
// that charges the period again books it once.
func TestOnePeriodOneInvoiceThroughPostgres(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	renewal := time.Date(2027, 3, 1, 12, 0, 0, 123456789, time.UTC) // workflow.Now carries nanoseconds
	start := renewal.AddDate(-1, 0, 0)
	if err := e.db.WriteSubscription(ctx, e.account, kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive,
		PeriodStartedAt: &start, PlanRenewalAt: &renewal, StartNextPeriod: true}); err != nil {
		t.Fatal(err)
	}
	rm, err := e.db.SubscriptionReadModel(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := *rm.PlanRenewalAt
	if rebuilt.Equal(renewal) {
		t.Fatal("Postgres kept the nanoseconds: the test proves nothing")
	}
	for _, at := range []time.Time{renewal, rebuilt} {
		e.twice(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: e.account, Plan: kudos.PlanPro,
			InvoiceID: kudos.PeriodInvoiceID(e.account, at), ChargeID: kudos.RenewalChargeID(e.account, at)})
	}
	if n := e.count("invoices", "kind = 'RENEWAL'"); n != 1 || len(e.pay.charges) != 1 {
		t.Fatalf("%d renewal invoices and %d charges for one period, want 1 and 1", n, len(e.pay.charges))
	}
	if kudos.PeriodInvoiceIDBefore3(e.account, renewal) == kudos.PeriodInvoiceIDBefore3(e.account, rebuilt) {
		t.Fatal("the old derivation agreed too: the test no longer shows the fault it guards")
	}
}

// Item 5: events are marked applied with the settlement that applies
// them; the read model hands a rebuilt run the others, in the order they
// came, and the reconciliation finds those a lost run held.
func TestAppliedEventsThroughPostgres(t *testing.T) {
	e, _ := newSettleEnv(t, 0)
	ctx := context.Background()
	buy := e.open("co_ev", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	for i, id := range []string{"ev-1", "ev-2", "ev-3"} {
		ev := kudos.PaymentEvent{EventID: id, Provider: "fake", CheckoutID: buy.CheckoutID, AccountID: e.account,
			Outcome: kudos.PaymentPaid, OccurredAt: time.Now().Add(time.Duration(i) * time.Second)}
		if _, err := e.db.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
			t.Fatal(err)
		}
	}
	in := e.proPayment(buy)
	in.AppliedEvent = "ev-2"
	e.twice(workflows.ActivitySettlePayment, in)
	e.twice(workflows.ActivityMarkEventsApplied, workflows.MarkEventsAppliedInput{AccountID: e.account, EventIDs: []string{"ev-3"}})
	rm, err := e.db.SubscriptionReadModel(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Unapplied) != 1 || rm.Unapplied[0].EventID != "ev-1" || rm.Unapplied[0].CheckoutID != buy.CheckoutID {
		t.Fatalf("unapplied %+v, want ev-1 alone", rm.Unapplied)
	}
	// Delivered long ago and still not applied: the reconciliation's.
	if _, err := e.db.Pool.Exec(ctx, `UPDATE outbox SET delivered_at = now() - interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Pool.Exec(ctx, `UPDATE payment_events SET received_at = now() - interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	stale, err := e.db.StaleUnappliedEvents(ctx, dispatch.UnappliedAge)
	if err != nil || len(stale) != 1 || stale[0].EventID != "ev-1" {
		t.Fatalf("stale unapplied %+v %v, want ev-1", stale, err)
	}
}

// Item 7: the read model gives a rebuilt run the checkout it owns (a
// renewal checkout of dunning), not a newer one that only adds a payment
// method, which the reconciliation closes once it has expired.
func TestReadModelPicksTheWorkflowsCheckout(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	renewalInvoice := uuid.New()
	if err := e.db.CreateInvoice(ctx, kudos.Invoice{ID: renewalInvoice, AccountID: e.account, Kind: kudos.InvoiceRenewal, Plan: kudos.PlanPro,
		Net: 100, Total: 121, VAT: 21, VATRate: 21, Currency: "EUR", Status: kudos.InvoiceDue}); err != nil {
		t.Fatal(err)
	}
	if err := e.db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_renewal", AccountID: e.account, Purpose: kudos.CheckoutRenewal,
		Plan: kudos.PlanPro, InvoiceID: &renewalInvoice, Provider: "fake", ProviderID: "cs_r", URL: "https://pay.example/r",
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := e.db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "pm_abandoned", AccountID: e.account, Purpose: kudos.CheckoutPaymentMethod,
		Provider: "fake", ProviderID: "cs_pm", URL: "https://pay.example/pm", ExpiresAt: time.Now().Add(-2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	rm, err := e.db.SubscriptionReadModel(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	if rm.Checkout == nil || rm.Checkout.ID != "co_renewal" {
		t.Fatalf("the read model's checkout %+v, want co_renewal", rm.Checkout)
	}
	abandoned, err := e.db.AbandonedCheckouts(ctx, kudos.CheckoutPaymentMethod, time.Now().Add(-dispatch.AbandonedGrace))
	if err != nil || len(abandoned) != 1 || abandoned[0].ID != "pm_abandoned" {
		t.Fatalf("abandoned checkouts %+v %v, want pm_abandoned", abandoned, err)
	}
}

// Item 11: a refund the provider refuses for now is not recorded as
// refused while it will be tried again; the last try records it; the
// runbook's manual fix then updates the refund, its checkout and the
// customer's timeline in one go.
func TestRefundRefusedForNowAndTheManualFix(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	late := e.open("co_later", kudos.CheckoutSubscription, kudos.PlanStarter, uuid.New())
	e.pay.refundsForNow = true
	_, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, true))
	if err == nil || !strings.Contains(err.Error(), workflows.ErrTypeRefundDeferred) {
		t.Fatalf("a refund refused for now, deferrable: %v, want %s", err, workflows.ErrTypeRefundDeferred)
	}
	if n := e.count("refunds", "true"); n != 0 {
		t.Fatalf("%d refund rows while it will be tried again, want none", n)
	}
	_, err = e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false))
	if err == nil || !strings.Contains(err.Error(), workflows.ErrTypeProviderRefused) {
		t.Fatalf("the last try: %v, want %s", err, workflows.ErrTypeProviderRefused)
	}
	if n := e.count("refunds", "status = 'refused'"); n != 1 {
		t.Fatalf("%d refused refunds after the last try, want 1", n)
	}
	if err := e.db.MarkRefundMade(ctx, "refund:"+late.CheckoutID, "re_by_hand"); err != nil {
		t.Fatal(err)
	}
	if n := e.count("refunds", "status = 'refunded' AND provider_id = 're_by_hand'"); n != 1 {
		t.Fatal("the refund row is not refunded by the manual fix")
	}
	if n := e.count("checkouts", "id = 'co_later' AND status = 'refunded'"); n != 1 {
		t.Fatal("the checkout is not refunded by the manual fix")
	}
	e.once(kudos.EventRefund)
	if refused, err := e.db.RefusedRefunds(ctx); err != nil || refused != 0 {
		t.Fatalf("refused refunds left %d %v", refused, err)
	}
	if err := e.db.MarkRefundMade(ctx, "refund:nothing", "re_x"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the manual fix of no refused refund: %v", err)
	}
}

// Item 12: the card that pays a renewal's checkout (the off-session charge
// needed authentication, or failed) becomes the default, so that next
// year's charge uses it; a first payment needs no call.
func TestTheCardThatPaysARenewalBecomesTheDefault(t *testing.T) {
	e, _ := newSettleEnv(t, 0)
	ctx := context.Background()
	first := e.open("co_first", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	e.twice(workflows.ActivitySettlePayment, e.proPayment(first))
	renewal := uuid.New()
	if err := e.db.CreateInvoice(ctx, kudos.Invoice{ID: renewal, AccountID: e.account, Kind: kudos.InvoiceRenewal, Plan: kudos.PlanPro,
		Net: 46800, VAT: 9828, VATRate: 21, Total: 56628, Currency: "EUR", Status: kudos.InvoiceDue}); err != nil {
		t.Fatal(err)
	}
	auth := e.open("co_auth", kudos.CheckoutRenewal, kudos.PlanPro, renewal)
	in := e.proPayment(auth)
	in.Receipt = nil
	e.twice(workflows.ActivitySettlePayment, in)
	if len(e.pay.defaults) != 2 || e.pay.defaults[0] != "cs_co_auth" || e.pay.defaults[1] != "cs_co_auth" {
		t.Fatalf("defaults made from %v, want the renewal checkout's (once per attempt), not the first payment's", e.pay.defaults)
	}
}

// TestADeferredRefundIsARowAndMadeByHandOnce (issue 34 item 2): a refund
// refused for now with its next try is a deferred row (retry_at), moved on
// by the next refusal for now; an operator who makes it by hand records it
// (kudos ops refund-made), and the next try then never asks the provider
// again (it would refund twice: a by-hand refund has another key).
func TestADeferredRefundIsARowAndMadeByHandOnce(t *testing.T) {
	e := newTimelineEnv(t)
	ctx := context.Background()
	late := e.open("co_deferred", kudos.CheckoutSubscription, kudos.PlanStarter, uuid.New())
	e.pay.refundsForNow = true
	next := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
	for _, at := range []time.Time{next, next.Add(5 * time.Hour)} {
		in := refundOf(e.account, late.CheckoutID, true)
		in.RetryAt = at
		if _, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, in); err == nil ||
			!strings.Contains(err.Error(), workflows.ErrTypeRefundDeferred) {
			t.Fatalf("refused for now: %v, want %s", err, workflows.ErrTypeRefundDeferred)
		}
	}
	rm, err := e.db.SubscriptionReadModel(ctx, e.account)
	if err != nil || len(rm.Refunds) != 1 || rm.Refunds[0].CheckoutID != late.CheckoutID || !rm.Refunds[0].RetryAt.Equal(next.Add(5*time.Hour)) {
		t.Fatalf("the read model's deferred refunds %+v (%v), want one, next try moved on", rm.Refunds, err)
	}
	if due, err := e.db.DueDeferredRefunds(ctx, next.Add(6*time.Hour), 10); err != nil || len(due) != 1 {
		t.Fatalf("due deferred refunds %+v (%v)", due, err)
	}
	if err := e.db.MarkRefundMade(ctx, "refund:"+late.CheckoutID, "re_by_hand"); err != nil {
		t.Fatal(err)
	}
	e.pay.refundsForNow, e.pay.refuseRefunds = false, true // asked again, the provider would answer (and could refund twice)
	if _, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, true)); err != nil {
		t.Fatalf("the next try of a refund made by hand: %v, want done without the provider", err)
	}
	if n := e.count("refunds", "status = 'refunded' AND provider_id = 're_by_hand' AND retry_at IS NULL"); n != 1 {
		t.Fatalf("%d refunds made by hand, want 1", n)
	}
	if d, _, err := e.db.DeferredRefunds(ctx, time.Now()); err != nil || d != 0 {
		t.Fatalf("deferred refunds left %d (%v)", d, err)
	}
}
