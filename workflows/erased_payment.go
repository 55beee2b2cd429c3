package workflows

import (
	"errors"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// ErasedPaymentWorkflowID is the ID of the workflow that answers one
// payment event of an erased account: erased-payment:<account>:<event id>
// (a second delivery of the event finds it and starts nothing).
func ErasedPaymentWorkflowID(ev kudos.PaymentEvent) string {
	return "erased-payment:" + ev.AccountID.String() + ":" + ev.EventID
}

// Outcomes of a payment event for an erased account
// (ErasedPaymentResult.Outcome).
const (
	// ErasedPaymentRefunded: the payment was given back in full.
	ErasedPaymentRefunded = "refunded"
	// ErasedPaymentRefused: the provider refused the refund for good; it
	// is recorded as refused for an operator (kudos_refunds_refused).
	ErasedPaymentRefused = "refused"
	// ErasedPaymentNothing: nothing to give back (not a payment, a method
	// saved, paid before the erasure, or refunded already).
	ErasedPaymentNothing = "nothing"
)

// ErasedPaymentResult tells how a payment event of an erased account ended.
type ErasedPaymentResult struct {
	Outcome    string
	CheckoutID string
}

// erasedRefundReason is the reason recorded with the refund (refunds.reason,
// shown by `kudos ops account`).
const erasedRefundReason = "paid after the account was erased"

// ErasedPayment answers a payment event that arrived for an erased account
// (issue 34): no subscription workflow runs for such an account (its read
// model is gone, the dispatcher never starts one), so nothing applies the
// payment; instead its checkout's payment is refunded in full and recorded
// (a refunds row, the refund on the timeline, a refusal for good recorded
// for an operator), retried on kudos.DefaultRefundRetries while the
// provider refuses it for now, and the event is marked applied. A checkout
// paid before the erasure (a duplicate event), one refunded already, or one
// that only saved a payment method is left as it is.
func ErasedPayment(ctx workflow.Context, ev kudos.PaymentEvent) (ErasedPaymentResult, error) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, AccountIDKey.ValueSet(ev.AccountID.String())); err != nil {
		return ErasedPaymentResult{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, deletionSteps)
	log := workflow.GetLogger(ctx)
	res := ErasedPaymentResult{Outcome: ErasedPaymentNothing, CheckoutID: ev.CheckoutID}
	markApplied := func() error {
		return workflow.ExecuteActivity(ctx, ActivityMarkEventsApplied,
			MarkEventsAppliedInput{AccountID: ev.AccountID, EventIDs: []string{ev.EventID}}).Get(ctx, nil)
	}
	if ev.Outcome != kudos.PaymentPaid {
		return res, markApplied()
	}
	ref := CheckoutRef{AccountID: ev.AccountID, CheckoutID: ev.CheckoutID}
	var rec kudos.CheckoutRecord
	if err := workflow.ExecuteActivity(ctx, ActivityLoadCheckout, ref).Get(ctx, &rec); err != nil {
		log.Error("payment for an erased account's checkout the read model does not know: needs an operator", "account", ev.AccountID,
			"event", ev.EventID, "checkout", ev.CheckoutID, "err", err)
		return res, markApplied()
	}
	if rec.Status == "paid" || rec.Status == "refunded" || rec.Purpose == kudos.CheckoutPaymentMethod || rec.InvoiceID == nil {
		log.Info("payment event for an erased account: nothing to give back", "account", ev.AccountID, "checkout", rec.ID,
			"status", rec.Status, "purpose", rec.Purpose)
		return res, markApplied()
	}
	first := workflow.Now(ctx)
	schedule := kudos.DefaultRefundRetries
	for i := 0; ; i++ {
		in := RefundInput{CheckoutRef: ref, Deferrable: i < len(schedule), Reason: erasedRefundReason}
		err := workflow.ExecuteActivity(ctx, ActivityRefundCheckout, in).Get(ctx, nil)
		var app *temporal.ApplicationError
		if errors.As(err, &app) && app.Type() == ErrTypeRefundDeferred {
			log.Info("the provider refused the refund of an erased account's payment for now: tried again later", "account", ev.AccountID,
				"checkout", rec.ID, "reason", app.Message())
			if wait := first.Add(schedule[i]).Sub(workflow.Now(ctx)); wait > 0 {
				if err := workflow.Sleep(ctx, wait); err != nil {
					return res, err
				}
			}
			continue
		}
		if err != nil {
			log.Error("the provider refused the refund of an erased account's payment: needs an operator", "account", ev.AccountID,
				"checkout", rec.ID, "err", err)
			res.Outcome = ErasedPaymentRefused
		} else {
			log.Warn("a payment arrived for an erased account: refunded in full", "account", ev.AccountID, "checkout", rec.ID)
			res.Outcome = ErasedPaymentRefunded
		}
		return res, markApplied()
	}
}
