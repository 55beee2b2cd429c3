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
// that only saved a payment method is left as it is. The events of money
// that moved outside a checkout (off-session charges, refunds and their
// failures) are answered by erasedMovement (runs since
// "erased-movements"); a dispute or a returned debit is booked (runs since
// "erased-disputes").
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
	if ev.Movement != "" && workflow.GetVersion(ctx, "erased-movements", workflow.DefaultVersion, 1) == 1 {
		return erasedMovement(ctx, ev, res, markApplied)
	}
	if (ev.Dispute != nil || ev.Return != nil) && workflow.GetVersion(ctx, "erased-disputes", workflow.DefaultVersion, 1) == 1 {
		// Money the bank took back from an erased account's payment: booked
		// as for any account (the disputes row and timeline, a lost
		// dispute's credit note; a returned debit's invoice due again),
		// with no plan to change.
		var err error
		if ev.Dispute != nil {
			var booked kudos.DisputeApplied
			err = workflow.ExecuteActivity(ctx, ActivityRecordDispute, DisputeInput{AccountID: ev.AccountID, Dispute: *ev.Dispute,
				At: ev.OccurredAt, AppliedEvent: ev.EventID}).Get(ctx, &booked)
			if err == nil && booked.CreditNoteID != nil && workflow.GetVersion(ctx, "erased-dispute-pdf", workflow.DefaultVersion, 1) == 1 {
				// The lost sale's credit note is kept as a document, as the
				// refunds' are (drawn for the invoice's buyer snapshot).
				if perr := workflow.ExecuteActivity(ctx, ActivityRenderInvoicePDF, InvoicePDFInput{AccountID: ev.AccountID,
					InvoiceID: *booked.CreditNoteID}).Get(ctx, nil); perr != nil {
					log.Error("the credit note of an erased account's lost dispute has no PDF: needs an operator", "account", ev.AccountID,
						"credit_note", *booked.CreditNoteID, "err", perr)
				}
			}
		} else {
			err = workflow.ExecuteActivity(ctx, ActivityReturnPayment, ReturnInput{AccountID: ev.AccountID, Return: *ev.Return,
				At: ev.OccurredAt, AppliedEvent: ev.EventID}).Get(ctx, nil)
		}
		if err != nil {
			log.Error("a dispute or returned debit of an erased account could not be booked: needs an operator", "account", ev.AccountID,
				"event", ev.EventID, "err", err)
		}
		return res, markApplied()
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
	var err error
	res.Outcome, err = refundErased(ctx, ev, "checkout", rec.ID, ActivityRefundCheckout, func(deferrable bool) any {
		return RefundInput{CheckoutRef: ref, Deferrable: deferrable, Reason: erasedRefundReason}
	})
	if err != nil {
		return res, err
	}
	return res, markApplied()
}

// refundErased gives back an erased account's payment (named by kind and
// id in the logs) with the refund activity name, whose input input makes
// for a try (deferrable: a refusal for now may be tried again), on
// kudos.DefaultRefundRetries while the provider refuses it for now. It
// returns ErasedPaymentRefunded, or ErasedPaymentRefused once the refusal
// is for good (the activity recorded it for an operator).
func refundErased(ctx workflow.Context, ev kudos.PaymentEvent, kind, id, name string, input func(deferrable bool) any) (string, error) {
	log := workflow.GetLogger(ctx)
	first := workflow.Now(ctx)
	schedule := kudos.DefaultRefundRetries
	for i := 0; ; i++ {
		err := workflow.ExecuteActivity(ctx, name, input(i < len(schedule))).Get(ctx, nil)
		var app *temporal.ApplicationError
		if errors.As(err, &app) && app.Type() == ErrTypeRefundDeferred {
			log.Info("the provider refused the refund of an erased account's payment for now: tried again later", "account", ev.AccountID,
				kind, id, "reason", app.Message())
			if wait := first.Add(schedule[i]).Sub(workflow.Now(ctx)); wait > 0 {
				if err := workflow.Sleep(ctx, wait); err != nil {
					return ErasedPaymentNothing, err
				}
			}
			continue
		}
		if err != nil {
			log.Error("the provider refused the refund of an erased account's payment: needs an operator", "account", ev.AccountID,
				kind, id, "err", err)
			return ErasedPaymentRefused, nil
		}
		log.Warn("a payment arrived for an erased account: refunded in full", "account", ev.AccountID, kind, id)
		return ErasedPaymentRefunded, nil
	}
}

// erasedMovement answers a movement's event of an erased account (runs
// since "erased-movements"; issue 36 × 34): an off-session charge that
// settled after the erasure (a renewal the customer authenticated then) is
// refunded in full by its charge key, exactly once (the refund's id is the
// charge's); a refund made at the provider is booked as any refund — its
// row, the timeline's refund event and the credit note of the invoice it
// corrects (kept by law: the books are kept 10 years; no mail, the account
// has no address); a refund that failed at the provider is recorded as
// failed. Each event is then marked applied.
func erasedMovement(ctx workflow.Context, ev kudos.PaymentEvent, res ErasedPaymentResult,
	markApplied func() error) (ErasedPaymentResult, error) {
	log := workflow.GetLogger(ctx)
	switch ev.Movement {
	case kudos.MovementCharge:
		if ev.Outcome != kudos.PaymentPaid {
			log.Info("charge event of an erased account that moved no money: nothing to give back", "account", ev.AccountID,
				"charge", ev.ChargeID, "outcome", ev.Outcome)
			break
		}
		if ev.Amount == nil || ev.ChargeID == "" {
			log.Error("a charge settled for an erased account without its amount or key: needs an operator (refund it in the provider's dashboard)",
				"account", ev.AccountID, "event", ev.EventID, "payment", ev.PaymentID)
			break
		}
		var err error
		res.Outcome, err = refundErased(ctx, ev, "charge", ev.ChargeID, ActivityRefundErasedCharge, func(deferrable bool) any {
			return ChargeRefundInput{AccountID: ev.AccountID, ChargeID: ev.ChargeID, PaymentID: ev.PaymentID, Amount: *ev.Amount,
				Deferrable: deferrable, Reason: erasedRefundReason}
		})
		if err != nil {
			return res, err
		}
	case kudos.MovementRefund:
		err := workflow.ExecuteActivity(ctx, ActivityBookRefund, BookRefundInput{AccountID: ev.AccountID, Event: ev}).Get(ctx, nil)
		if err != nil {
			log.Error("a refund made at the provider for an erased account could not be booked: needs an operator", "account", ev.AccountID,
				"event", ev.EventID, "refund", ev.ProviderRefundID, "err", err)
		}
	case kudos.MovementRefundFailed:
		err := workflow.ExecuteActivity(ctx, ActivityRecordRefundFailure, RefundFailureInput{AccountID: ev.AccountID, Event: ev}).Get(ctx, nil)
		if err != nil {
			log.Error("a refund's failure for an erased account could not be recorded: needs an operator", "account", ev.AccountID,
				"event", ev.EventID, "refund", ev.ProviderRefundID, "err", err)
		}
	default:
		log.Info("movement event of an erased account this run does not know: nothing done", "account", ev.AccountID,
			"event", ev.EventID, "movement", ev.Movement)
	}
	return res, markApplied()
}
