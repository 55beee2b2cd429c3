package api_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"

	"kudos"
	"kudos/dispatch"
	kworker "kudos/worker"
	"kudos/workflows"
)

// startWorkerWith replaces the harness's worker by one whose activities
// named in overrides run the given functions instead (the others are the
// real ones): a test's way of making an activity fail after its work is
// done, as a worker that dies before reporting does.
func (h *harness) startWorkerWith(overrides map[string]any) {
	h.t.Helper()
	h.worker.Stop()
	w := kworker.New(h.tc, h.queue, h.acts)
	for name, fn := range overrides {
		w.Worker.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name, DisableAlreadyRegisteredCheck: true})
	}
	if err := w.Start(); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(w.Stop)
}

// afterTheBooking is how a run dies right after a ledger booking committed
// and before the workflow acted on it.
type afterTheBooking int

const (
	// theReportIsLost: the worker dies before reporting the activity's
	// result, so Temporal runs the activity again.
	theReportIsLost afterTheBooking = iota
	// theRunIsLost: the run is terminated (its history lost) and rebuilt
	// from the read model by the subscription sweep.
	theRunIsLost
)

// dieAfter is what happens after a booking that committed, in case how:
// an error for the activity to be retried, or the run terminated.
func (h *harness) dieAfter(how afterTheBooking, account string) error {
	if how == theRunIsLost {
		if err := h.tc.TerminateWorkflow(context.Background(), "subscription:"+account, "", "test: the run is lost after the booking"); err != nil {
			return err
		}
	}
	return errors.New("test: the worker died after the booking committed")
}

// dyingAfter is booking (a ledger activity) as a worker that dies after
// its commit runs it: the first booking whose input passes when (died
// then set) ends as how says.
func dyingAfter[I, O any](h *harness, how afterTheBooking, account string, died *atomic.Bool,
	booking func(context.Context, I) (O, error), when func(I) bool) func(context.Context, I) (O, error) {
	return func(ctx context.Context, in I) (O, error) {
		res, err := booking(ctx, in)
		if err == nil && when(in) && died.CompareAndSwap(false, true) {
			return res, h.dieAfter(how, account)
		}
		return res, err
	}
}

// rebuildIfLost has the subscription sweep restart the account's
// workflow from the read model when how lost its run (run: the run
// before; a request may have restarted it already).
func (h *harness) rebuildIfLost(how afterTheBooking, account, run string) {
	h.t.Helper()
	if how != theRunIsLost {
		return
	}
	eventually(h.t, "the run terminated", func() bool {
		d, err := h.tc.DescribeWorkflowExecution(context.Background(), "subscription:"+account, run)
		return err == nil && d.WorkflowExecutionInfo.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED
	})
	sweep := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := sweep.Reconcile(context.Background()); err != nil {
		h.t.Fatal(err)
	}
}

// TestALostDisputeIsAppliedWhenTheRunDiesAfterItsBooking: a dispute lost
// was marked applied in the transaction that booked it, before the
// workflow acted on it. When the worker died before reporting the
// booking, the activity ran again and found the dispute decided (nothing
// changed); when the run was lost, the rebuilt run never saw the event
// again. Either way the plan went on, paid by money the card network took
// back. Now the event is applied with the consequence's last write, and a
// booking run again for the same event reports what it booked.
func TestALostDisputeIsAppliedWhenTheRunDiesAfterItsBooking(t *testing.T) {
	t.Parallel()
	for name, how := range map[string]afterTheBooking{"report lost": theReportIsLost, "run lost": theRunIsLost} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t).withTemporal(time.Hour)
			email := "dispute-crash-" + map[afterTheBooking]string{theReportIsLost: "report", theRunIsLost: "run"}[how] + "@example.com"
			token, account := h.paidWith(email, "STARTER", "4242424242424242")
			invoice := h.paidInvoiceID(account)
			run := h.currentRun("subscription:" + account)
			var died atomic.Bool
			h.startWorkerWith(map[string]any{workflows.ActivityRecordDispute: dyingAfter(h, how, account, &died, h.acts.RecordDispute,
				func(in workflows.DisputeInput) bool { return in.Dispute.Status == kudos.DisputeLost })})
			h.expect(h.dispute(account, invoice, "open"), 200)
			eventually(t, "the dispute opened", func() bool { return h.count("disputes", account, "status = 'open'") == 1 })
			h.expect(h.dispute(account, invoice, "lost"), 200)
			eventually(t, "the booking", func() bool { return died.Load() })
			h.rebuildIfLost(how, account, run)
			eventually(t, "the plan expired by the lost dispute", func() bool {
				return h.subscription(token, account)["show_status"] == "plan_expired"
			})
			if n := h.invoiceCount(account, "kind = 'PAYMENTDUE' AND status = 'DUE_PAYMENT'"); n != 1 {
				t.Fatalf("%d due invoices, want the one the lost period leaves", n)
			}
			if n := h.invoiceCount(account, "kind = 'CREDIT_NOTE'"); n != 1 {
				t.Fatalf("%d credit notes, want one", n)
			}
			eventually(t, "the event applied", func() bool { return h.count("payment_events", account, "applied_at IS NULL") == 0 })
			if how == theReportIsLost {
				h.recordHistory("subscription:"+account, "", "subscription_ledger_applied_last_dispute.json")
			}
		})
	}
}

// TestAReturnedDebitIsAppliedWhenTheRunDiesAfterItsBooking: as for a lost
// dispute, a returned debit's booking made its invoice due again and
// marked the event applied, and a repeat found no paid invoice ("nothing
// to do"): no dunning, the plan running on a payment the bank took back.
func TestAReturnedDebitIsAppliedWhenTheRunDiesAfterItsBooking(t *testing.T) {
	t.Parallel()
	for name, how := range map[string]afterTheBooking{"report lost": theReportIsLost, "run lost": theRunIsLost} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t).withDunning(time.Hour, 2*time.Hour).withTemporal(time.Hour)
			email := "return-crash-" + map[afterTheBooking]string{theReportIsLost: "report", theRunIsLost: "run"}[how] + "@example.com"
			token, account := h.paidWith(email, "STARTER", "4242424242424242")
			invoice := h.paidInvoiceID(account)
			run := h.currentRun("subscription:" + account)
			var died atomic.Bool
			h.startWorkerWith(map[string]any{workflows.ActivityReturnPayment: dyingAfter(h, how, account, &died, h.acts.ReturnPayment,
				func(workflows.ReturnInput) bool { return true })})
			h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
			eventually(t, "the booking", func() bool { return died.Load() })
			h.rebuildIfLost(how, account, run)
			sub := h.inDunning(token, account)
			if failed, _ := sub["failed_payment"].(map[string]any); sub["show_status"] != "active" || failed == nil || failed["invoice_id"] != invoice {
				t.Fatalf("after the return: %v, want dunning on the invoice", sub)
			}
			eventually(t, "the payment_failed mail", func() bool {
				return len(h.sent.to(email)) > 0 && h.sent.purposes(email)[len(h.sent.purposes(email))-1] == kudos.MailPaymentFailed
			})
			eventually(t, "the event applied", func() bool { return h.count("payment_events", account, "applied_at IS NULL") == 0 })
			if how == theRunIsLost {
				h.recordHistory("subscription:"+account, "", "subscription_ledger_applied_last_return.json")
			}
		})
	}
}
