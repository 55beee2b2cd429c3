package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// erasedEnv runs ErasedPayment on the time-skipping test server against a
// checkout in memory and a provider that refuses refunds for now the
// first refusals times.
func erasedEnv(t *testing.T, status string, refusals int, forGood bool) (*testsuite.TestWorkflowEnvironment, *[]time.Duration, *[]string) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	e := suite.NewTestWorkflowEnvironment()
	start := e.Now()
	invoice := uuid.New()
	var tries []time.Duration
	var applied []string
	e.RegisterWorkflow(workflows.ErasedPayment)
	e.RegisterActivityWithOptions(func(_ context.Context, in workflows.CheckoutRef) (kudos.CheckoutRecord, error) {
		return kudos.CheckoutRecord{ID: in.CheckoutID, AccountID: in.AccountID, Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanPro,
			InvoiceID: &invoice, Status: status}, nil
	}, activity.RegisterOptions{Name: workflows.ActivityLoadCheckout})
	e.RegisterActivityWithOptions(func(_ context.Context, in workflows.RefundInput) error {
		tries = append(tries, e.Now().Sub(start))
		if in.Reason != "paid after the account was erased" {
			t.Errorf("refund reason %q", in.Reason)
		}
		switch {
		case len(tries) <= refusals && in.Deferrable:
			return temporal.NewNonRetryableApplicationError("balance_insufficient", workflows.ErrTypeRefundDeferred, nil)
		case len(tries) <= refusals || forGood:
			return temporal.NewNonRetryableApplicationError("charge_disputed", "ProviderRefused", nil)
		}
		return nil
	}, activity.RegisterOptions{Name: workflows.ActivityRefundCheckout})
	e.RegisterActivityWithOptions(func(_ context.Context, in workflows.MarkEventsAppliedInput) error {
		applied = append(applied, in.EventIDs...)
		return nil
	}, activity.RegisterOptions{Name: workflows.ActivityMarkEventsApplied})
	return e, &tries, &applied
}

// erasedPaid is a paid event of an erased account's checkout.
func erasedPaid() kudos.PaymentEvent {
	return kudos.PaymentEvent{EventID: "evt_1", Provider: "sandbox", CheckoutID: "co_1", AccountID: uuid.New(), Outcome: kudos.PaymentPaid}
}

// erasedOutcome runs the workflow to its end and returns its result.
func erasedOutcome(t *testing.T, e *testsuite.TestWorkflowEnvironment, ev kudos.PaymentEvent) workflows.ErasedPaymentResult {
	t.Helper()
	e.ExecuteWorkflow(workflows.ErasedPayment, ev)
	if !e.IsWorkflowCompleted() || e.GetWorkflowError() != nil {
		t.Fatalf("workflow completed %t: %v", e.IsWorkflowCompleted(), e.GetWorkflowError())
	}
	var res workflows.ErasedPaymentResult
	if err := e.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestErasedPaymentRefundRefusedForNowIsRetried: a refund the provider
// refuses for now is tried again on the refund schedule (1 h, 6 h after
// the first refusal) until it is made; the event is marked applied once.
func TestErasedPaymentRefundRefusedForNowIsRetried(t *testing.T) {
	e, tries, applied := erasedEnv(t, "cancelled", 2, false)
	if res := erasedOutcome(t, e, erasedPaid()); res.Outcome != workflows.ErasedPaymentRefunded {
		t.Fatalf("result %+v", res)
	}
	want := []time.Duration{0, kudos.DefaultRefundRetries[0], kudos.DefaultRefundRetries[1]}
	if len(*tries) != len(want) {
		t.Fatalf("refund tried at %v, want %v", *tries, want)
	}
	for i, at := range *tries {
		if at < want[i] || at > want[i]+time.Minute {
			t.Fatalf("refund tried at %v, want %v", *tries, want)
		}
	}
	if len(*applied) != 1 {
		t.Fatalf("applied %v", *applied)
	}
}

// TestErasedPaymentRefusedForGoodIsLeftToAnOperator: past the schedule's
// last retry the refusal is final (the activity records it as refused).
func TestErasedPaymentRefusedForGoodIsLeftToAnOperator(t *testing.T) {
	e, tries, applied := erasedEnv(t, "expired", 100, false)
	if res := erasedOutcome(t, e, erasedPaid()); res.Outcome != workflows.ErasedPaymentRefused {
		t.Fatalf("result %+v", res)
	}
	if len(*tries) != len(kudos.DefaultRefundRetries)+1 || len(*applied) != 1 {
		t.Fatalf("tries %v, applied %v", *tries, *applied)
	}
}

// TestErasedPaymentOfAPaidCheckoutIsLeftAlone: a duplicate event of a
// checkout applied before the erasure, or one refunded already, refunds
// nothing.
func TestErasedPaymentOfAPaidCheckoutIsLeftAlone(t *testing.T) {
	for _, status := range []string{"paid", "refunded"} {
		e, tries, applied := erasedEnv(t, status, 0, false)
		if res := erasedOutcome(t, e, erasedPaid()); res.Outcome != workflows.ErasedPaymentNothing || len(*tries) != 0 || len(*applied) != 1 {
			t.Fatalf("%s: result %+v, tries %v, applied %v", status, res, *tries, *applied)
		}
	}
}

// erasedMovementEnv runs ErasedPayment against activities that record
// what they are asked, by activity name (decoded loosely, as JSON maps).
func erasedMovementEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, map[string][]map[string]any) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	e := suite.NewTestWorkflowEnvironment()
	calls := map[string][]map[string]any{}
	e.RegisterWorkflow(workflows.ErasedPayment)
	for _, name := range []string{workflows.ActivityLoadCheckout, workflows.ActivityRefundCheckout, workflows.ActivityMarkEventsApplied,
		"RefundErasedCharge", "BookRefund", "RecordRefundFailure", "RecordDispute", "ReturnPayment"} {
		e.RegisterActivityWithOptions(func(_ context.Context, in map[string]any) error {
			calls[name] = append(calls[name], in)
			if name == workflows.ActivityLoadCheckout {
				return temporal.NewNonRetryableApplicationError("no such checkout", "NoCheckout", nil)
			}
			return nil
		}, activity.RegisterOptions{Name: name})
	}
	return e, calls
}

// TestErasedPaymentOfARenewalChargeIsRefunded (issue 36 × 34): an
// off-session renewal charge that the customer authenticated after the
// erasure settles as a charge movement with no checkout: it is refunded in
// full by its charge key (and the provider's payment id: the customer is
// gone at the provider), never only logged and marked applied.
func TestErasedPaymentOfARenewalChargeIsRefunded(t *testing.T) {
	e, calls := erasedMovementEnv(t)
	ev := kudos.PaymentEvent{EventID: "evt_pi", Provider: "sandbox", AccountID: uuid.New(), Outcome: kudos.PaymentPaid,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: "renewal:a:2026-01-01:retry:x", PaymentID: "pi_1",
			Amount: &kudos.Money{Amount: 1210, Currency: "EUR"}}}
	if res := erasedOutcome(t, e, ev); res.Outcome != workflows.ErasedPaymentRefunded {
		t.Fatalf("result %+v", res)
	}
	refunds := calls["RefundErasedCharge"]
	if len(refunds) != 1 || refunds[0]["ChargeID"] != ev.ChargeID || refunds[0]["PaymentID"] != "pi_1" ||
		refunds[0]["Reason"] != "paid after the account was erased" || len(calls[workflows.ActivityRefundCheckout]) != 0 {
		t.Fatalf("calls %v", calls)
	}
	if len(calls[workflows.ActivityMarkEventsApplied]) != 1 {
		t.Fatalf("applied %v", calls[workflows.ActivityMarkEventsApplied])
	}
}

// TestErasedPaymentOfAChargeNotPaidRefundsNothing: a charge that failed or
// is still processing moved no money to give back.
func TestErasedPaymentOfAChargeNotPaidRefundsNothing(t *testing.T) {
	for _, outcome := range []kudos.PaymentOutcome{kudos.PaymentFailed, kudos.PaymentPending} {
		e, calls := erasedMovementEnv(t)
		ev := kudos.PaymentEvent{EventID: "evt_pi", Provider: "sandbox", AccountID: uuid.New(), Outcome: outcome,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: "renewal:a", PaymentID: "pi_1"}}
		if res := erasedOutcome(t, e, ev); res.Outcome != workflows.ErasedPaymentNothing || len(calls["RefundErasedCharge"]) != 0 ||
			len(calls[workflows.ActivityMarkEventsApplied]) != 1 {
			t.Fatalf("%s: result %+v, calls %v", outcome, res, calls)
		}
	}
}

// TestErasedPaymentRefundMadeAtTheProviderIsBooked (issue 36 item 2 ×
// erasure): a refund made in the provider's dashboard of an erased
// account's payment is booked as any refund (its row, its credit note:
// the books are kept 10 years), not only marked applied; and a refund that
// failed at the provider is recorded as failed.
func TestErasedPaymentRefundMadeAtTheProviderIsBooked(t *testing.T) {
	amount := &kudos.Money{Amount: 500, Currency: "EUR"}
	for movement, activityName := range map[kudos.Movement]string{"refund": "BookRefund", "refund_failed": "RecordRefundFailure"} {
		e, calls := erasedMovementEnv(t)
		ev := kudos.PaymentEvent{EventID: "evt_re", Provider: "sandbox", AccountID: uuid.New(), CheckoutID: "co_1", Outcome: kudos.PaymentPaid,
			LedgerMovement: kudos.LedgerMovement{Movement: movement, ProviderRefundID: "re_1", Amount: amount}}
		if res := erasedOutcome(t, e, ev); res.Outcome != workflows.ErasedPaymentNothing {
			t.Fatalf("%s: result %+v", movement, res)
		}
		if len(calls[activityName]) != 1 || len(calls[workflows.ActivityRefundCheckout]) != 0 || len(calls[workflows.ActivityMarkEventsApplied]) != 1 {
			t.Fatalf("%s: calls %v", movement, calls)
		}
	}
}

// TestErasedPaymentDisputeAndReturnAreBooked: a dispute (chargeback) or a
// returned debit of an erased account's payment is booked as for any
// account (the disputes row, the timeline, a lost dispute's credit note;
// the invoice a returned debit paid due again), never only marked applied:
// the books are kept 10 years and must say where the money went.
func TestErasedPaymentDisputeAndReturnAreBooked(t *testing.T) {
	money := kudos.Money{Amount: 1210, Currency: "EUR"}
	for name, ev := range map[string]kudos.PaymentEvent{
		"RecordDispute": {Dispute: &kudos.DisputeEvent{ID: "dp_1", Status: "lost", Amount: money, Payment: "co_1"}},
		"ReturnPayment": {Return: &kudos.ReturnEvent{ID: "py_1", Amount: money, Payment: "co_1"}},
	} {
		e, calls := erasedMovementEnv(t)
		ev.EventID, ev.Provider, ev.AccountID = "evt_"+name, "sandbox", uuid.New()
		if res := erasedOutcome(t, e, ev); res.Outcome != workflows.ErasedPaymentNothing {
			t.Fatalf("%s: result %+v", name, res)
		}
		if len(calls[name]) != 1 || calls[name][0]["AppliedEvent"] != ev.EventID || len(calls[workflows.ActivityMarkEventsApplied]) != 1 {
			t.Fatalf("%s: calls %v", name, calls)
		}
	}
}
