package dispatch

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// RefundsPerRound bounds the deferred refunds one reconciliation tries: the
// rest wait for the next beat, most overdue first.
const RefundsPerRound = 50

// retryDeferredRefunds tries again the deferred refunds whose try is due
// and whose account has no running subscription workflow (it ended: the
// account's deletion, an operator's terminate, a plan that expired with
// nothing to wait for), as the workflow would have: a refusal for now is
// deferred to the schedule's next try, the last try's is recorded as
// refused. An account whose workflow runs is left to it (a run rebuilt
// from the read model holds its deferred refunds). Each try is idempotent
// (the provider's key is the refund's id), so a run that starts meanwhile
// cannot refund twice.
func (r *Reconciler) retryDeferredRefunds(ctx context.Context, now time.Time, rep *workflows.ReconcileReport) error {
	if r.Refund == nil {
		return nil
	}
	due, err := r.DB.DueDeferredRefunds(ctx, now, RefundsPerRound)
	if err != nil {
		return err
	}
	ids := make([]uuid.UUID, 0, len(due))
	for _, d := range due {
		ids = append(ids, d.AccountID)
	}
	running, err := r.runningOf(ctx, ids)
	if err != nil {
		return err
	}
	schedule := kudos.Lifecycle{RefundRetries: r.RefundRetries}
	for _, d := range due {
		if running[workflows.SubscriptionWorkflowID(d.AccountID)].ok {
			continue
		}
		next, deferrable := schedule.NextRefundTry(d.FirstRefusedAt, now)
		in := workflows.RefundInput{CheckoutRef: workflows.CheckoutRef{AccountID: d.AccountID, CheckoutID: d.CheckoutID},
			Deferrable: deferrable}
		if deferrable {
			in.RetryAt = next
		}
		err := r.Refund(ctx, in)
		var app *temporal.ApplicationError
		switch {
		case err == nil:
			rep.Refunded = append(rep.Refunded, d.CheckoutID)
			r.Log.Info("reconcile: a deferred refund of an account without a running workflow was made", "account", d.AccountID,
				"checkout", d.CheckoutID)
		case errors.As(err, &app) && app.Type() == workflows.ErrTypeRefundDeferred:
			r.Log.Info("reconcile: the provider refused a deferred refund for now again", "account", d.AccountID,
				"checkout", d.CheckoutID, "next", next, "reason", app.Message())
		default: // refused for good (recorded), or not answered (tried again at the next beat)
			r.Log.Error("reconcile: a deferred refund was not made", "account", d.AccountID, "checkout", d.CheckoutID, "err", err)
		}
	}
	return nil
}
