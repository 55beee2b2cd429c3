package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/dispatch"
	"kudos/workflows"
)

// AccountDeletionAt tells the deletion workflow whether the deletion still
// stands, and when (a cancel may have reached Postgres and not the
// workflow), or that the account is erased already.
func (a *Activities) AccountDeletionAt(ctx context.Context, in workflows.AccountRef) (workflows.DeletionDue, error) {
	at, err := a.Store.AccountDeletionAt(ctx, in.AccountID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return workflows.DeletionDue{Deleted: true}, nil
	}
	return workflows.DeletionDue{At: at}, err
}

// EraseAccount erases the account's personal data in Postgres
// (store.EraseAccount) and says what is left to remove elsewhere. A
// deletion cancelled (or moved later) since the workflow found it due is
// the result NotDue, not an error: retrying could never mend it.
func (a *Activities) EraseAccount(ctx context.Context, in workflows.AccountRef) (workflows.AccountErased, error) {
	e, err := a.Store.EraseAccount(ctx, in.AccountID)
	if kudos.ErrorCode(err) == kudos.EConflict { // cancelled or moved after the due check: a result, never retried
		return workflows.AccountErased{NotDue: true}, nil
	}
	if err != nil {
		return workflows.AccountErased{}, err
	}
	return workflows.AccountErased{Already: e.Already, CustomerID: e.CustomerID, Objects: e.Objects}, nil
}

// EndSubscription ends the deleted account's subscription workflow.
func (a *Activities) EndSubscription(ctx context.Context, in workflows.AccountRef) error {
	if a.Subscriptions == nil {
		return temporal.NewNonRetryableApplicationError("no subscription control configured", "NoSubscriptions", nil)
	}
	return a.Subscriptions.EndSubscription(ctx, in.AccountID)
}

// DeleteCustomer deletes the deleted account's customer, with its stored
// payment methods, at the payment provider.
func (a *Activities) DeleteCustomer(ctx context.Context, in workflows.CustomerRef) error {
	return a.Payments.DeleteCustomer(ctx, in.AccountID, in.CustomerID)
}

// UserDeletionAt tells a user deletion's workflow whether it still stands
// (Deleted: the user is erased already).
func (a *Activities) UserDeletionAt(ctx context.Context, in workflows.UserRef) (workflows.DeletionDue, error) {
	at, err := a.Store.UserDeletionAt(ctx, in.UserID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return workflows.DeletionDue{Deleted: true}, nil
	}
	return workflows.DeletionDue{At: at}, err
}

// EraseUser erases the user in Postgres (store.EraseUser) and says what is
// left to remove, or that the user owns an account again.
func (a *Activities) EraseUser(ctx context.Context, in workflows.UserRef) (workflows.UserErased, error) {
	// Only the invitations' updates are written (no invitation starts
	// here): the reminder's timing is not needed.
	e, err := a.Store.EraseUser(ctx, in.UserID, dispatch.Team(kudos.InvitationTiming{}))
	if kudos.ErrorCode(err) == kudos.EConflict { // cancelled or moved after the due check
		return workflows.UserErased{NotDue: true}, nil
	}
	if err != nil {
		return workflows.UserErased{}, err
	}
	return workflows.UserErased{Already: e.Already, Blocked: e.Blocked, Objects: e.Objects}, nil
}
