package api_test

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

// Issue 34, items 1 and 3: no payment is kept for an erased account.

// TestDeletionClosesTheOpenCheckout: scheduling a deletion closes the open
// hosted checkouts at the provider (the plan's, and the one adding a
// payment method): the pages can no longer be paid, and the plan stays the
// trial.
func TestDeletionClosesTheOpenCheckout(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account, href := h.startPlan("closing-checkout@example.com", "PRO")
	method := h.expect(h.do("POST", "/v1/accounts/"+account+"/billing/payment-methods", nil, token), 201).str("checkout_href")
	h.scheduleDeletion(token, account)
	for _, link := range []string{href, method} {
		if r := h.payWith(link, "4242424242424242"); r.Status != 409 {
			t.Fatalf("paying a checkout of an account being deleted: %d %s", r.Status, r.Raw)
		}
	}
	h.wantRows("checkouts", account, "status = 'open'", 0, "%d checkouts open after the deletion was scheduled")
	if s := h.subscription(token, account); s["plan"] != "TRIAL" {
		t.Fatalf("subscription %v", s)
	}
	h.recordHistory("subscription:"+account, "", "subscription_prepare_deletion.json")
}

// erasedPaymentOutcome waits for the ErasedPayment workflow of event ev
// and returns its result.
func (h *harness) erasedPaymentOutcome(ev kudos.PaymentEvent) workflows.ErasedPaymentResult {
	h.t.Helper()
	id := workflows.ErasedPaymentWorkflowID(ev)
	eventually(h.t, "the erased payment's workflow", func() bool {
		_, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
		return err == nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res workflows.ErasedPaymentResult
	if err := h.srv.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		h.t.Fatalf("workflow %s: %v", id, err)
	}
	return res
}

// TestPaymentForAnErasedAccountIsRefunded: a payment of the erased
// account's checkout that still arrives (the provider's event of a payment
// made just before the checkout closed) starts no subscription run and is
// not applied: it is refunded in full, recorded (refund row, timeline,
// `kudos ops account`), and the account stays erased.
func TestPaymentForAnErasedAccountIsRefunded(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account, _ := h.startPlan("erased-payer@example.com", "PRO")
	checkout := h.checkoutOf(account)
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("deletion %+v", res)
	}
	ev := kudos.PaymentEvent{EventID: "evt_erased_" + uuid.NewString(), Provider: "sandbox", CheckoutID: checkout,
		AccountID: uuid.MustParse(account), Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	if _, err := h.db.RecordPaymentEvent(context.Background(), ev, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	h.srv.Outbox.Kick()
	eventually(t, "the payment refunded", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	if res := h.erasedPaymentOutcome(ev); res.Outcome != workflows.ErasedPaymentRefunded {
		t.Fatalf("erased payment %+v", res)
	}
	h.wantRows("refunds", account, "checkout_id = '"+checkout+"' AND reason = 'paid after the account was erased'", 1,
		"%d refunds of the erased account's checkout, want 1")
	h.wantRows("sandbox_charges", account, "refunded", 1, "%d refunded charges at the provider, want 1")
	h.wantRows("invoices", account, "status = 'PAID'", 0, "%d paid invoices of an erased account")
	h.wantRows("checkouts", account, "id = '"+checkout+"' AND status = 'refunded'", 1, "%d refunded checkouts, want 1")
	h.wantRows("billing_events", account, "type = 'refund'", 1, "%d refund events on the timeline, want 1")
	h.wantRows("payment_events", account, "applied_at IS NOT NULL", 1, "%d payment events answered, want 1")
	if h.running("subscription:" + account) {
		t.Fatal("a payment started the erased account's subscription workflow")
	}
	if h.accountLeft(account) {
		t.Fatal("the account came back")
	}
	if _, err := h.acts.ReconcileSubscriptions(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.running("subscription:" + account) {
		t.Fatal("the reconciliation started the erased account's subscription workflow")
	}
	ops, err := h.db.OpsAccount(context.Background(), uuid.MustParse(account))
	if err != nil || len(ops.Refunds) != 1 || ops.Refunds[0].Reason != "paid after the account was erased" {
		t.Fatalf("ops account refunds %+v (%v)", ops, err)
	}
	h.recordHistory(workflows.ErasedPaymentWorkflowID(ev), "", "erased_payment_refunded.json")
}

// TestDeletionRefusedWhileARenewalSettles (item 3): a SEPA renewal debit
// that is processing cannot be cancelled at the bank (Stripe refuses to
// cancel a processing PaymentIntent), so the deletion is refused with 409
// naming it; once it has settled, the deletion can be scheduled.
func TestDeletionRefusedWhileARenewalSettles(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(2*time.Second).withPending(time.Second, time.Hour)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(5 * time.Second)
	token, account, renewal := h.renewalDebitSettling("deleting-while-settling@example.com", false)
	r := h.expect(h.do("DELETE", "/v1/accounts/"+account, map[string]any{"current_password": "Secret1!"}, token), 409)
	if msg := r.Raw; !strings.Contains(msg, "settling") || !strings.Contains(msg, "SEPA") {
		t.Fatalf("refusal %s", r.Raw)
	}
	h.wantRows("billing_events", account, "type = 'deletion_scheduled'", 0, "%d deletions scheduled while the renewal settles")
	h.settleAtSandbox(account, true)
	eventually(t, "the renewed period", func() bool { return h.subscription(token, account)["plan_renewal_at"] != renewal })
	h.scheduleDeletion(token, account)
}

// TestReconcileRedeliversAnErasedAccountsPayment: the ErasedPayment run of
// an erased account's payment was lost (terminated) before it answered
// the event; the reconciliation delivers the event again, which runs the
// refund (and still starts no subscription workflow).
func TestReconcileRedeliversAnErasedAccountsPayment(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account, _ := h.startPlan("erased-lost@example.com", "STARTER")
	checkout := h.checkoutOf(account)
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("deletion %+v", res)
	}
	h.worker.Stop()
	ev := kudos.PaymentEvent{EventID: "evt_lost_" + uuid.NewString(), Provider: "sandbox", CheckoutID: checkout,
		AccountID: uuid.MustParse(account), Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	if _, err := h.db.RecordPaymentEvent(context.Background(), ev, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	h.srv.Outbox.Kick()
	id := workflows.ErasedPaymentWorkflowID(ev)
	eventually(t, "the erased payment's workflow", func() bool {
		_, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
		return err == nil
	})
	if err := h.srv.Temporal.TerminateWorkflow(context.Background(), id, "", "lost"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{ // received and delivered an hour ago, as the reconciliation finds a lost one
		`UPDATE payment_events SET received_at = received_at - interval '1 hour' WHERE event_id = $1`,
		`UPDATE outbox SET delivered_at = delivered_at - interval '1 hour' WHERE kind = 'payment_event' AND payload->>'event_id' = $1`,
	} {
		if _, err := h.db.Pool.Exec(context.Background(), q, ev.EventID); err != nil {
			t.Fatal(err)
		}
	}
	h.worker = h.startWorker(h.acts)
	if _, err := h.acts.ReconcileSubscriptions(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the payment refunded", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	if res := h.erasedPaymentOutcome(ev); res.Outcome != workflows.ErasedPaymentRefunded {
		t.Fatalf("erased payment %+v", res)
	}
	h.wantRows("payment_events", account, "applied_at IS NOT NULL", 1, "%d payment events answered, want 1")
	if h.running("subscription:" + account) {
		t.Fatal("the reconciliation started the erased account's subscription workflow")
	}
}

// TestDeletionRefusedWhileACheckoutSettles (item 3): the plan's checkout
// was paid by SEPA and its debit settles: the deletion is refused (409,
// naming the checkout) rather than erasing an account whose payment is
// still coming; once it has settled the plan starts and the deletion can
// be scheduled, auto-renewal off.
func TestDeletionRefusedWhileACheckoutSettles(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withPending(time.Hour, 24*time.Hour)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(time.Hour)
	token, account, href := h.startPlan("deleting-while-debit-settles@example.com", "PRO")
	h.expect(h.payWith(href, sepaSucceeds), 200)
	eventually(t, "the debit to be settling", func() bool { return h.subscription(token, account)["show_status"] == "processing" })
	r := h.expect(h.do("DELETE", "/v1/accounts/"+account, map[string]any{"current_password": "Secret1!"}, token), 409)
	if !strings.Contains(r.Raw, h.checkoutOf(account)) || !strings.Contains(r.Raw, "SEPA") {
		t.Fatalf("refusal %s", r.Raw)
	}
	h.settleAtSandbox(account, true)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.scheduleDeletion(token, account)
	if s := h.subscription(token, account); s["start_next_period"] != false {
		t.Fatalf("auto-renewal after the deletion was scheduled: %v", s)
	}
}
