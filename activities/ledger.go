package activities

import (
	"context"

	"go.temporal.io/sdk/activity"

	"kudos"
	"kudos/workflows"
)

// BookRefund books a refund the provider reports (issue 36: made by ops,
// or in the provider's dashboard) with its credit note, then stores the
// credit note's PDF and queues the customer's refund_issued mail that names
// it. Each step is idempotent by the refund's id: a retry, or the same
// refund reported again (ops, then the provider's event), books, renders
// and mails nothing new. A refund the store refuses (more than was paid)
// is a business failure, for an operator.
func (a *Activities) BookRefund(ctx context.Context, in workflows.BookRefundInput) error {
	b, err := a.Store.BookRefund(ctx, in.AccountID, in.Event)
	if err != nil {
		return refused(err)
	}
	cn, err := a.refundCreditNote(ctx, in.AccountID, b.ID)
	if err != nil {
		return err
	}
	var plan kudos.Plan
	if cn != nil {
		plan = cn.Plan
	}
	return a.queueRefundMail(ctx, in.AccountID, b.ID, cn, plan, *in.Event.Amount, true)
}

// RefundErasedCharge gives back, in full, an off-session charge that
// settled after its account was erased (a renewal the customer
// authenticated then): refunded at the provider under the refund id
// refund:<charge key> (one refund per charge, however many times its
// event comes), found there by the provider's payment id (the customer is
// gone), and recorded as RefundCheckout records a checkout's (a refunds
// row, the timeline's refund event; no credit note: the charge paid no
// invoice, the erased account's renewal never started). Refusals go as for
// RefundCheckout.
func (a *Activities) RefundErasedCharge(ctx context.Context, in workflows.ChargeRefundInput) error {
	req := kudos.RefundRequest{RefundID: "refund:" + in.ChargeID, AccountID: in.AccountID, Amount: in.Amount, ChargeID: in.ChargeID,
		PaymentID: in.PaymentID}
	return a.giveBack(ctx, workflows.RefundInput{CheckoutRef: workflows.CheckoutRef{AccountID: in.AccountID}, Deferrable: in.Deferrable,
		Reason: in.Reason}, req, in.ChargeID)
}

// RefundStrayCharge gives back, in full, an off-session renewal charge
// that the customer completed after the renewal stopped waiting on it (a
// charge needing authentication, completed once the renewal was paid on
// its checkout or the plan had ended), unless an invoice was paid by it
// (the renewal it was made for: a repeat of its event). The refund goes as
// RefundErasedCharge's (refund:<charge key>, its row, the timeline's
// refund event, no credit note: the charge paid no invoice), and the
// customer gets its receipt. A refusal is recorded as refused, for an
// operator (`kudos ops refund`): the workflow does not wait on it.
func (a *Activities) RefundStrayCharge(ctx context.Context, in workflows.StrayChargeInput) (workflows.StrayChargeResult, error) {
	paid, err := a.Store.InvoicePaidBy(ctx, in.AccountID, in.ChargeID)
	if err != nil || paid {
		return workflows.StrayChargeResult{}, err
	}
	in.Deferrable = false
	if err := a.RefundErasedCharge(ctx, in.ChargeRefundInput); err != nil {
		return workflows.StrayChargeResult{}, err
	}
	refundID := "refund:" + in.ChargeID
	return workflows.StrayChargeResult{Refunded: true}, a.queueRefundMail(ctx, in.AccountID, refundID, nil, in.Plan, in.Amount, false)
}

// RecordRefundFailure records a refund that failed at the provider after
// it was made (store.RecordRefundFailure): failed, on the timeline, its
// credit note standing, and the money owed to the customer counted by the
// gauge kudos_refunds_failed for an operator to refund again.
func (a *Activities) RecordRefundFailure(ctx context.Context, in workflows.RefundFailureInput) error {
	changed, err := a.Store.RecordRefundFailure(ctx, in.AccountID, in.Event)
	if err != nil {
		return refused(err)
	}
	if changed {
		activity.GetLogger(ctx).Warn("a refund failed at the provider: the customer is owed it, refund again with `kudos ops refund --failed <refund>`",
			"account", in.AccountID, "refund", in.Event.LedgerRefundID(), "reason", in.Event.Reason)
	}
	return nil
}

// CancelOpenCharges cancels, at an account's erasure, the off-session
// charges its customer could still complete (kudos.PaymentProvider's
// CancelOpenCharges), before the customer is deleted.
func (a *Activities) CancelOpenCharges(ctx context.Context, in workflows.CustomerRef) error {
	ids, err := a.Payments.CancelOpenCharges(ctx, in.AccountID, in.CustomerID)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		activity.GetLogger(ctx).Info("charges the erased account's customer could still complete were cancelled", "account", in.AccountID,
			"charges", ids)
	}
	return nil
}
