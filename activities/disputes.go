package activities

import (
	"context"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// booking is the store.Booking of a ledger activity's input: the event
// marked applied with the booking (AppliedEvent: runs from before the
// change "ledger-applied-last"), or kept unapplied for the workflow to
// mark with the last write of what it does (Event).
func booking(event, applied string) store.Booking {
	if applied != "" {
		return store.Booking{Event: applied, Mark: true}
	}
	return store.Booking{Event: event}
}

// RecordDispute books a dispute's event (store.DB.RecordDispute): opened,
// won, or lost with the credit note that reverses the sale. A status it
// does not know is refused for good (ErrTypeProviderRefused). Run again
// for an event booked and not yet applied, it reports the first booking.
// A lost dispute of an upgrade or extra seats reports the account's
// members too, so that the workflow takes back only what still leaves
// room for them.
func (a *Activities) RecordDispute(ctx context.Context, in workflows.DisputeInput) (kudos.DisputeApplied, error) {
	res, err := a.Store.RecordDispute(ctx, in.AccountID, in.Dispute, in.At, booking(in.Event, in.AppliedEvent))
	if err != nil {
		return res, refused(err)
	}
	if res.Status == kudos.DisputeLost && (res.Kind == kudos.InvoiceUpgrade || res.Kind == kudos.InvoiceSeats) {
		if res.Members, err = a.Store.MemberCount(ctx, in.AccountID); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ReturnPayment books a payment taken back by the bank after it succeeded
// (store.DB.ReturnPayment): the invoice it paid is due again. It tells
// whether the account's deletion is scheduled (read after the booking).
// Run again for an event booked and not yet applied, it reports the
// invoice the first booking made due.
func (a *Activities) ReturnPayment(ctx context.Context, in workflows.ReturnInput) (workflows.ReturnResult, error) {
	inv, err := a.Store.ReturnPayment(ctx, in.AccountID, in.Return, in.At, booking(in.Event, in.AppliedEvent))
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
