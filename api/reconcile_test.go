package api_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"kudos/dispatch"
)

// TestReconcileRestartsAMissingWorkflow: a trial whose workflow is gone
// (terminated, lost) would never expire. Reconciliation, without anybody
// acting, starts it again from the read model through the outbox.
func TestReconcileRestartsAMissingWorkflow(t *testing.T) {
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
