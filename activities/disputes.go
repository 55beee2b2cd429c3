package activities

import (
	"context"

	"kudos"
	"kudos/workflows"
)

// RecordDispute books a dispute's event (store.DB.RecordDispute): opened,
// won, or lost with the credit note that reverses the sale. A status it
// does not know is refused for good (ErrTypeProviderRefused).
func (a *Activities) RecordDispute(ctx context.Context, in workflows.DisputeInput) (kudos.DisputeApplied, error) {
	res, err := a.Store.RecordDispute(ctx, in.AccountID, in.Dispute, in.At, in.AppliedEvent)
	return res, refused(err)
}

// ReturnPayment books a payment taken back by the bank after it succeeded
// (store.DB.ReturnPayment): the invoice it paid is due again. It tells
// whether the account's deletion is scheduled (read after the booking).
func (a *Activities) ReturnPayment(ctx context.Context, in workflows.ReturnInput) (workflows.ReturnResult, error) {
	inv, err := a.Store.ReturnPayment(ctx, in.AccountID, in.Return, in.At, in.AppliedEvent)
	if err != nil || inv == nil {
		return workflows.ReturnResult{}, refused(err)
	}
	deletion, err := a.Store.AccountDeletionAt(ctx, in.AccountID)
	if err != nil && kudos.ErrorCode(err) != kudos.ENotFound { // ENotFound: erased
		return workflows.ReturnResult{}, err
	}
	return workflows.ReturnResult{InvoiceID: &inv.ID, Amount: kudos.Money{Amount: inv.Total, Currency: inv.Currency},
		Service: inv.Service, Kind: inv.Kind, Plan: inv.Plan, Number: inv.Number, Deleting: deletion != nil}, nil
}
