package activities

import (
	"context"

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
