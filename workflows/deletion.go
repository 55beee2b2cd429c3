package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// UpdateDeletionCancelled tells an account deletion's workflow that the
// owner cancelled it (Postgres already says so): the workflow ends. The
// account's subscription workflow takes the same update (with a
// DeletionCancelRequest): it lifts the refusals of a deletion under way.
const UpdateDeletionCancelled = "deletion_cancelled"

// AccountDeletionWorkflowID is the ID of one scheduled deletion of an
// account: deletion:account:<account id>:<unix time of its end>, so that a
// deletion scheduled again after a cancel is a workflow of its own.
func AccountDeletionWorkflowID(accountID uuid.UUID, at time.Time) string {
	return fmt.Sprintf("deletion:account:%s:%d", accountID, at.Unix())
}

// AccountDeletionInput starts an account deletion's workflow: the account
// and when its grace period ends.
type AccountDeletionInput struct {
	AccountID uuid.UUID
	At        time.Time
}

// Outcomes of an account deletion (AccountDeletionResult.Outcome).
const (
	DeletionOutcomeCancelled = "cancelled"
	DeletionOutcomeDeleted   = "deleted"
)

// AccountDeletionResult tells how an account deletion ended.
type AccountDeletionResult struct {
	Outcome string
	// Objects counts the stored files removed (logo, exports).
	Objects int
}

// deletionSteps retry for as long as it takes: the provider, storage or
// Postgres being away delays the erasure, never skips a part of it.
var deletionSteps = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
}

// AccountDeletion is the durable deletion of one account (issue 28): it
// waits out the grace period with a timer (a cancel arrives as an update
// and ends it), asks Postgres whether the deletion still stands (a cancel
// whose update was lost is seen there), then erases the account's personal
// data in Postgres, ends its subscription workflow, cancels the charges
// its customer could still complete (runs since "cancel-open-charges"),
// deletes the customer and its payment methods at the provider and
// removes the stored files.
// Each step is retried until it succeeds; Postgres is erased first, so a
// deletion that cannot reach the provider for a while has already taken the
// account from its members.
func AccountDeletion(ctx workflow.Context, in AccountDeletionInput) (AccountDeletionResult, error) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, AccountIDKey.ValueSet(in.AccountID.String())); err != nil {
		return AccountDeletionResult{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, deletionSteps)
	g, err := newDeletionGrace(ctx)
	if err != nil {
		return AccountDeletionResult{}, err
	}
	var erased AccountErased
	for {
		if due, err := g.awaitDue(ctx, in.At, ActivityAccountDeletionAt, AccountRef{AccountID: in.AccountID}); err != nil || !due {
			return AccountDeletionResult{Outcome: DeletionOutcomeCancelled}, err
		}
		erased = AccountErased{} // decoded afresh: NotDue is left out when false
		if err := workflow.ExecuteActivity(ctx, ActivityEraseAccount, AccountRef{AccountID: in.AccountID}).Get(ctx, &erased); err != nil {
			return AccountDeletionResult{}, err
		}
		if !erased.NotDue {
			break
		}
		// Cancelled (or moved later) between the due check and the
		// erasure: Postgres is asked again, which ends it as cancelled or
		// waits for the new date.
		workflow.GetLogger(ctx).Info("the deletion was not due at its erasure: asked again", "account", in.AccountID)
	}
	if err := workflow.ExecuteActivity(ctx, ActivityEndSubscription, AccountRef{AccountID: in.AccountID}).Get(ctx, nil); err != nil {
		return AccountDeletionResult{}, err
	}
	customer := CustomerRef{AccountID: in.AccountID, CustomerID: erased.CustomerID}
	if workflow.GetVersion(ctx, "cancel-open-charges", workflow.DefaultVersion, 1) == 1 {
		// A renewal charge waiting on the customer's authentication could
		// still be completed by them after the erasure: cancelled at the
		// provider first (one that settles all the same is refunded by
		// ErasedPayment).
		if err := workflow.ExecuteActivity(ctx, ActivityCancelOpenCharges, customer).Get(ctx, nil); err != nil {
			return AccountDeletionResult{}, err
		}
	}
	if err := workflow.ExecuteActivity(ctx, ActivityDeleteCustomer, customer).Get(ctx, nil); err != nil {
		return AccountDeletionResult{}, err
	}
	for _, key := range erased.Objects {
		if err := workflow.ExecuteActivity(ctx, ActivityDeleteObject, key).Get(ctx, nil); err != nil {
			return AccountDeletionResult{}, err
		}
	}
	return AccountDeletionResult{Outcome: DeletionOutcomeDeleted, Objects: len(erased.Objects)}, nil
}

// UserDeletionWorkflowID is the ID of one scheduled deletion of a user:
// deletion:user:<user id>:<unix time of its end>.
func UserDeletionWorkflowID(userID uuid.UUID, at time.Time) string {
	return fmt.Sprintf("deletion:user:%s:%d", userID, at.Unix())
}

// UserDeletionInput starts a user deletion's workflow.
type UserDeletionInput struct {
	UserID uuid.UUID
	At     time.Time
}

// UserDeletionBlockedRetry is how long a due user deletion waits when the
// user owns an account again (it became theirs during the grace period)
// before it looks again.
const UserDeletionBlockedRetry = 24 * time.Hour

// UserDeletion is the durable deletion of a user by themself (issue 28): it
// waits out the grace period (a cancel is an update), asks Postgres whether
// the deletion still stands, erases the user (waiting, a day at a time,
// while they own an account again) and removes their stored files.
func UserDeletion(ctx workflow.Context, in UserDeletionInput) (AccountDeletionResult, error) {
	ctx = workflow.WithActivityOptions(ctx, deletionSteps)
	g, err := newDeletionGrace(ctx)
	if err != nil {
		return AccountDeletionResult{}, err
	}
	at := in.At
	for {
		if due, err := g.awaitDue(ctx, at, ActivityUserDeletionAt, UserRef{UserID: in.UserID}); err != nil || !due {
			return AccountDeletionResult{Outcome: DeletionOutcomeCancelled}, err
		}
		var erased UserErased
		if err := workflow.ExecuteActivity(ctx, ActivityEraseUser, UserRef{UserID: in.UserID}).Get(ctx, &erased); err != nil {
			return AccountDeletionResult{}, err
		}
		if erased.NotDue { // cancelled or moved later after its due check: asked again
			continue
		}
		if erased.Blocked != "" {
			at = workflow.Now(ctx).Add(UserDeletionBlockedRetry)
			continue
		}
		for _, key := range erased.Objects {
			if err := workflow.ExecuteActivity(ctx, ActivityDeleteObject, key).Get(ctx, nil); err != nil {
				return AccountDeletionResult{}, err
			}
		}
		return AccountDeletionResult{Outcome: DeletionOutcomeDeleted, Objects: len(erased.Objects)}, nil
	}
}

// deletionGrace is what the account's and the user's deletions share: a
// cancel that arrives as an update, and the wait until the deletion is due,
// checked against Postgres.
type deletionGrace struct {
	cancelled bool
}

// newDeletionGrace registers the cancel update.
func newDeletionGrace(ctx workflow.Context) (*deletionGrace, error) {
	g := &deletionGrace{}
	return g, workflow.SetUpdateHandler(ctx, UpdateDeletionCancelled, func(workflow.Context) error {
		g.cancelled = true
		return nil
	})
}

// awaitDue waits on a timer until at (a cancel update ends the wait), then
// asks Postgres through the activity check whether the deletion still
// stands: a cancel whose update was lost is seen there, and a later date
// is waited for. It reports whether the deletion is due (or its erasure
// already done), false when it was cancelled.
func (g *deletionGrace) awaitDue(ctx workflow.Context, at time.Time, check string, arg any) (bool, error) {
	for {
		if wait := at.Sub(workflow.Now(ctx)); wait > 0 {
			if _, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return g.cancelled }); err != nil {
				return false, err
			}
		}
		if g.cancelled {
			return false, nil
		}
		var due DeletionDue
		if err := workflow.ExecuteActivity(ctx, check, arg).Get(ctx, &due); err != nil {
			return false, err
		}
		switch {
		case due.Deleted:
			return true, nil
		case due.At == nil:
			return false, nil
		case !due.At.After(workflow.Now(ctx)):
			return true, nil
		}
		at = *due.At
	}
}
