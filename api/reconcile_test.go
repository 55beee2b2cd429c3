package api_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
)

// TestReconcileRestartsAMissingWorkflow: a trial whose workflow is gone
// (terminated, lost) would never expire. Reconciliation, without anybody
// acting, starts it again from the read model through the outbox.
func TestReconcileRestartsAMissingWorkflow(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("reconcile@example.com")
	wf := "subscription:" + account
	eventually(t, "the workflow to start", func() bool { return h.running(wf) })
	h.terminate(account)
	eventually(t, "the workflow to end", func() bool { return !h.running(wf) })

	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick}
	eventually(t, "reconciliation to see the workflow missing", func() bool {
		rep, err := r.Reconcile(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(rep.Started, account)
	})
	eventually(t, "the workflow to run again", func() bool { return h.running(wf) })
	if s := h.subscription(token, account); s["plan"] != "TRIAL" || s["show_status"] != "active" {
		t.Fatalf("after reconciliation: %v", s)
	}
	h.recordHistory(wf, "", "subscription_reconciled.json")
}

// running reports whether workflow id has a running execution.
func (h *harness) running(id string) bool {
	d, err := h.tc.DescribeWorkflowExecution(context.Background(), id, "")
	return err == nil && d.WorkflowExecutionInfo.GetStatus().String() == "Running"
}

// TestReconcileClosesAbandonedPaymentMethodCheckouts (issue 25 item 7): a
// payment-method checkout (the api opens it; no workflow has a timer for
// it) left open past its expiry is closed by the reconciliation, which asks
// the provider first: one abandoned is expired; one paid whose event was
// lost gets its event, and the workflow verifies and keeps the card.
func TestReconcileClosesAbandonedPaymentMethodCheckouts(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.paidWith("abandoned@example.com", "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	abandoned := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201).str("checkout_href")
	paid := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201).str("checkout_href")
	ctx := context.Background()
	// The second was paid at the provider, its event lost; both expired.
	if _, err := h.db.Pool.Exec(ctx, `UPDATE sandbox_checkouts SET status = 'paid' WHERE id = $1`, sandboxID(paid)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `UPDATE checkouts SET expires_at = now() - interval '2 hours' WHERE purpose = 'payment_method'`); err != nil {
		t.Fatal(err)
	}
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick,
		Payments: h.srv.Payments}
	rep, err := r.Reconcile(ctx)
	if err != nil || len(rep.Closed) != 2 {
		t.Fatalf("reconcile: %+v %v, want two checkouts closed", rep, err)
	}
	h.wantRows("checkouts", account, "purpose = 'payment_method' AND status = 'expired' AND provider_id = '"+sandboxID(abandoned)+"'", 1,
		"%d abandoned checkouts expired, want 1")
	eventually(t, "the paid one verified", func() bool {
		return h.count("checkouts", account, "purpose = 'payment_method' AND status = 'paid'") == 1
	})
	if rep, _ := r.Reconcile(ctx); len(rep.Closed) != 0 {
		t.Fatalf("closed again: %+v", rep)
	}
}

// TestAPaymentEventOfNoKnownAccountDoesNotStopTheSweep: a payment event
// stored for an account Postgres does not have (a second deployment on the
// same Stripe account, a database restored from before the sign-up) was
// selected again by every sweep, whose look-up of the account then failed
// and ended the sweep before it restarted a workflow or closed a checkout:
// one foreign event stopped the safety net for everyone. It is set aside
// (marked applied, logged) and the sweep goes on.
func TestAPaymentEventOfNoKnownAccountDoesNotStopTheSweep(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	stranger := uuid.New()
	ev := kudos.PaymentEvent{EventID: "evt_foreign", Provider: "stripe", AccountID: stranger, CheckoutID: "co_elsewhere",
		Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	if _, err := h.db.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `UPDATE payment_events SET received_at = now() - interval '2 hours' WHERE event_id = 'evt_foreign'`); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `UPDATE outbox SET dead_at = now() - interval '1 hour' WHERE key LIKE '%evt_foreign%'`); err != nil {
		t.Fatal(err)
	}
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick}
	if _, err := r.Reconcile(ctx); err != nil {
		t.Fatalf("the sweep with a foreign event waiting: %v", err)
	}
	var applied bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT applied_at IS NOT NULL FROM payment_events WHERE event_id = 'evt_foreign'`).Scan(&applied); err != nil || !applied {
		t.Fatalf("the foreign event set aside: %v (%v), want marked applied", applied, err)
	}
}
