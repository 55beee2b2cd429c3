package api_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"kudos/dispatch"
)

// deferredRefund has the sandbox refuse refunds for now and pays a first
// checkout late, after a second one bought Pro: its refund is refused for
// now (balance short). It waits for the deferred refund's row (issue 34
// item 2: recorded, not only workflow state) and returns its retry_at.
func (h *harness) deferredRefund(email string) (token, account, checkout string, retryAt time.Time) {
	h.t.Helper()
	token, account, href := h.startPlan(email, "PRO")
	checkout = h.checkoutOf(account)
	h.expect(h.do("POST", strings.TrimPrefix(href, "http://127.0.0.1:8080")+"/cancel", nil, ""), 303)
	eventually(h.t, "the cancel", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	co := h.expect(h.do("POST", "/v1/accounts/"+account+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	eventually(h.t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.expect(h.do("POST", "/dev/sandbox/refunds", map[string]any{"account_id": account, "refuse": "temporary"}, ""), 204)
	h.latePaidEvent(account, checkout)
	eventually(h.t, "the refund deferred in Postgres", func() bool {
		return h.count("refunds", account, "status = 'deferred' AND retry_at IS NOT NULL AND checkout_id = '"+checkout+"'") == 1
	})
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT retry_at FROM refunds WHERE account_id = $1`, account).Scan(&retryAt); err != nil {
		h.t.Fatal(err)
	}
	return token, account, checkout, retryAt
}

// TestADeferredRefundSurvivesARebuiltRun (issue 34 item 2): a refund the
// provider refused for now is a refunds row (deferred, retry_at); the run
// holding it is terminated, the reconciliation rebuilds the account's run
// from Postgres, and that run makes the refund at its next try. Without
// the row, the rebuilt run knew nothing of it and the money stayed kept.
func TestADeferredRefundSurvivesARebuiltRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.Lifecycle.RefundRetries = []time.Duration{4 * time.Second, time.Minute}
	h.withTemporal(time.Hour)
	_, account, _, _ := h.deferredRefund("deferred-rebuilt@example.com")
	first := h.currentRun("subscription:" + account)
	h.terminate(account)
	h.recordHistory("subscription:"+account, first, "subscription_deferred_refund_terminated.json")
	h.expect(h.do("POST", "/dev/sandbox/refunds", map[string]any{"account_id": account, "refuse": ""}, ""), 204)
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick}
	// The list of running workflows (Temporal's visibility) shows the
	// terminate a moment after it (TestReconcileRestartsAMissingWorkflow):
	// until then the run is taken as running and nothing is started.
	eventually(t, "the reconciliation to start the account's run again", func() bool {
		rep, err := r.Reconcile(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(rep.Started) == 1
	})
	eventually(t, "the rebuilt run to make the refund", func() bool { return h.count("refunds", account, "status = 'refunded'") == 1 })
	h.wantRows("refunds", account, "retry_at IS NOT NULL", 0, "%d refunds still with a next try")
	h.recordHistory("subscription:"+account, "", "subscription_deferred_refund_rebuilt.json")
}

// TestADeferredRefundOfAnEndedWorkflowIsRetried (issue 34 item 2): the
// account's workflow ends (terminated by the account's deletion) while a
// refund waits for its next try; nothing starts the run again, and the
// reconciliation retries the refund when its try is due. Ops see it
// meanwhile: the gauge counts it and `kudos ops account` lists it deferred.
func TestADeferredRefundOfAnEndedWorkflowIsRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// The first try is due 8 s after the refusal: long enough that a loaded
	// machine still reconciles once before it is due.
	h.srv.Config.Lifecycle.RefundRetries = []time.Duration{8 * time.Second, time.Minute}
	h.withTemporal(time.Hour)
	ctx := context.Background()
	_, account, _, retryAt := h.deferredRefund("deferred-ended@example.com")
	h.terminate(account)
	if _, err := h.db.Pool.Exec(ctx, `UPDATE accounts SET deleted_at = now() WHERE id = $1`, account); err != nil {
		t.Fatal(err)
	}
	if n, _, err := h.db.DeferredRefunds(ctx, time.Now()); err != nil || n < 1 {
		t.Fatalf("the deferred refunds gauge: %d (%v)", n, err)
	}
	h.expect(h.do("POST", "/dev/sandbox/refunds", map[string]any{"account_id": account, "refuse": ""}, ""), 204)
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Kick: h.srv.Outbox.Kick,
		Refund: h.acts.RefundCheckout, RefundRetries: h.srv.Config.Lifecycle.RefundRetries}
	if rep, err := r.Reconcile(ctx); err != nil || len(rep.Refunded) != 0 || len(rep.Started) != 0 {
		t.Fatalf("reconcile before the try is due: %+v (%v)", rep, err)
	}
	time.Sleep(time.Until(retryAt) + 100*time.Millisecond)
	rep, err := r.Reconcile(ctx)
	if err != nil || len(rep.Refunded) != 1 || len(rep.Started) != 0 {
		t.Fatalf("reconcile after the try is due: %+v (%v), want the refund retried and no run started", rep, err)
	}
	h.wantRows("refunds", account, "status = 'refunded' AND retry_at IS NULL", 1, "%d refunds made")
}
