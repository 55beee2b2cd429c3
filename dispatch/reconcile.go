package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// ReconcileStore is the part of the store the reconciliation uses.
type ReconcileStore interface {
	SubscriptionStatuses(ctx context.Context) ([]store.SubscriptionStatus, error)
	Enqueue(ctx context.Context, entries ...store.OutboxEntry) error
	StaleUnappliedEvents(ctx context.Context, age time.Duration) ([]kudos.PaymentEvent, error)
	AbandonedCheckouts(ctx context.Context, purpose kudos.CheckoutPurpose, before time.Time) ([]kudos.CheckoutRecord, error)
	SetCheckoutStatus(ctx context.Context, id, status string) error
	RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) store.OutboxEntry) (bool, error)
	PurgeExpired(ctx context.Context) (store.Purged, error)
	DueDeferredRefunds(ctx context.Context, before time.Time, limit int) ([]store.DeferredRefund, error)
	AccountErased(ctx context.Context, accountID uuid.UUID) (bool, error)
}

// Reconciler compares the read model with the running subscription
// workflows (the reconcile activity calls it on the Schedule's beat).
type Reconciler struct {
	Temporal client.Client
	DB       ReconcileStore
	Log      *slog.Logger
	// Kick, when set, has the relay deliver the starts at once.
	Kick func()
	// Payments, when set, is asked how abandoned payment-method checkouts
	// ended (nil: they are left alone).
	Payments kudos.PaymentProvider
	// Refund, when set, tries a deferred refund again (the RefundCheckout
	// activity's work) for an account whose workflow has ended, on the
	// schedule RefundRetries (empty: kudos.DefaultRefundRetries); nil:
	// deferred refunds are left to the workflows.
	Refund        func(ctx context.Context, in workflows.RefundInput) error
	RefundRetries []time.Duration
}

// UnappliedAge is how long a stored payment event may wait, delivered and
// not applied, before the reconciliation delivers it again: far longer
// than applying one takes, even through an outage's retries of a few
// minutes.
const UnappliedAge = 15 * time.Minute

// AbandonedGrace is how long past its expiry a payment-method checkout
// (opened by the api, not by a workflow) may stay open before the
// reconciliation closes it.
const AbandonedGrace = time.Hour

// needsWorkflow reports whether a subscription in status s has timers or a
// checkout that only a running workflow serves (an expired trial or plan
// waits for the customer, whose update starts it).
func needsWorkflow(s kudos.ShowStatus) bool {
	return s == kudos.StatusActive || s == kudos.StatusProcessing
}

// Reconcile starts, through the outbox, the workflow of every account that
// needs one and has none running, and reports the rows whose running
// workflow shows another plan or status (visibility lags a few seconds, so
// a report right after a change is expected now and then).
//
// It also purges the expired rows of the store (store.PurgeExpired), and
// tries again the deferred refunds of accounts whose workflow has ended
// (retryDeferredRefunds): the Schedule is the one periodic beat every
// deployment runs once.
func (r *Reconciler) Reconcile(ctx context.Context) (workflows.ReconcileReport, error) {
	purged, err := r.DB.PurgeExpired(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	if purged.Total() > 0 {
		r.Log.Info("reconcile: expired rows purged", "rate_limits", purged.RateLimits, "oidc_flows", purged.OIDCFlows, "mfa_challenges", purged.MFAChallenges,
			"sessions", purged.Sessions, "user_tokens", purged.UserTokens, "webauthn_ceremonies", purged.WebAuthnCeremonies)
	}
	running, err := r.running(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	rows, err := r.DB.SubscriptionStatuses(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	rep := workflows.ReconcileReport{Purged: purged.Total()}
	var starts []store.OutboxEntry
	now := time.Now()
	for _, row := range rows {
		wf, ok := running[workflows.SubscriptionWorkflowID(row.AccountID)]
		switch {
		case ok && (wf.plan != string(row.Plan) || wf.status != string(row.ShowStatus)):
			rep.Disagree = append(rep.Disagree, row.AccountID.String())
			r.Log.Warn("reconcile: read model and workflow disagree", "account", row.AccountID,
				"row_plan", row.Plan, "row_status", row.ShowStatus, "workflow_plan", wf.plan, "workflow_status", wf.status)
		case !ok && needsWorkflow(row.ShowStatus):
			rep.Started = append(rep.Started, row.AccountID.String())
			starts = append(starts, ReconcileStart(row.AccountID, now))
			r.Log.Warn("reconcile: subscription workflow missing, starting it from the read model", "account", row.AccountID)
		}
		if needsWorkflow(row.ShowStatus) {
			rep.Checked++
		}
	}
	redeliveries, err := r.unapplied(ctx, running, &rep, now)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	for _, id := range rep.Redelivered {
		if !slices.Contains(rep.Started, id) && !running[workflows.SubscriptionWorkflowID(uuid.MustParse(id))].ok {
			rep.Started = append(rep.Started, id)
			starts = append(starts, ReconcileStart(uuid.MustParse(id), now))
		}
	}
	if entries := append(starts, redeliveries...); len(entries) > 0 {
		if err := r.DB.Enqueue(ctx, entries...); err != nil {
			return workflows.ReconcileReport{}, err
		}
		if r.Kick != nil {
			r.Kick()
		}
	}
	if err := r.closeAbandoned(ctx, now, &rep); err != nil {
		return rep, err
	}
	return rep, r.retryDeferredRefunds(ctx, running, now, &rep)
}

// unapplied finds the payment events a lost run accepted and never applied
// (stored, delivered UnappliedAge ago, not marked applied) and returns
// their deliveries again: to the running workflow of their account, as a
// new update; an account whose workflow does not run is started from the
// read model instead (by the caller), which applies them first. An erased
// account's event is delivered again as it is: the dispatcher hands it to
// its ErasedPayment workflow (no subscription run is started for it).
func (r *Reconciler) unapplied(ctx context.Context, running map[string]runningWorkflow, rep *workflows.ReconcileReport,
	now time.Time) ([]store.OutboxEntry, error) {
	events, err := r.DB.StaleUnappliedEvents(ctx, UnappliedAge)
	if err != nil {
		return nil, err
	}
	var out []store.OutboxEntry
	for _, ev := range events {
		erased, err := r.DB.AccountErased(ctx, ev.AccountID)
		if err != nil {
			return nil, err
		}
		if erased {
			r.Log.Warn("reconcile: a payment event of an erased account was never answered, delivering it again to be refunded",
				"account", ev.AccountID, "event", ev.EventID)
			out = append(out, PaymentEventAgain(ev, now))
			continue
		}
		r.Log.Warn("reconcile: a payment event was never applied, delivering it again", "account", ev.AccountID, "event", ev.EventID)
		if !slices.Contains(rep.Redelivered, ev.AccountID.String()) {
			rep.Redelivered = append(rep.Redelivered, ev.AccountID.String())
		}
		if running[workflows.SubscriptionWorkflowID(ev.AccountID)].ok {
			out = append(out, PaymentEventAgain(ev, now))
		}
	}
	return out, nil
}

// closeAbandoned closes the payment-method checkouts left open past their
// expiry (the api opens them; no workflow has a timer for them), asking
// the provider how each ended, as a workflow does at a checkout's
// deadline: one found paid gets its payment event (the workflow verifies
// the new method), one settling is left for the next round.
func (r *Reconciler) closeAbandoned(ctx context.Context, now time.Time, rep *workflows.ReconcileReport) error {
	if r.Payments == nil {
		return nil
	}
	open, err := r.DB.AbandonedCheckouts(ctx, kudos.CheckoutPaymentMethod, now.Add(-AbandonedGrace))
	if err != nil {
		return err
	}
	for _, c := range open {
		outcome, err := r.Payments.ExpireCheckout(ctx, c.ProviderID)
		switch {
		case kudos.ErrorCode(err) == kudos.ENotFound:
			outcome = kudos.PaymentExpired
		case err != nil:
			r.Log.Warn("reconcile: could not close an abandoned checkout", "checkout", c.ID, "err", err)
			continue
		}
		switch outcome {
		case kudos.PaymentPending:
			continue
		case kudos.PaymentPaid:
			ev := kudos.PaymentEvent{EventID: "reconcile:" + c.ID + ":paid", Provider: c.Provider, CheckoutID: c.ID,
				AccountID: c.AccountID, Outcome: kudos.PaymentPaid, OccurredAt: now}
			if _, err := r.DB.RecordPaymentEvent(ctx, ev, PaymentEvent); err != nil {
				return err
			}
			if r.Kick != nil {
				r.Kick()
			}
		default:
			if err := r.DB.SetCheckoutStatus(ctx, c.ID, string(outcome)); err != nil {
				return err
			}
		}
		rep.Closed = append(rep.Closed, c.ID)
	}
	return nil
}

// runningWorkflow is what visibility shows of a running subscription
// workflow (ok: it runs).
type runningWorkflow struct {
	plan, status string
	ok           bool
}

// running lists the running subscription workflows by ID.
func (r *Reconciler) running(ctx context.Context) (map[string]runningWorkflow, error) {
	out := map[string]runningWorkflow{}
	var token []byte
	for {
		res, err := r.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query:    fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", "Subscription"),
			PageSize: 1000, NextPageToken: token,
		})
		if err != nil {
			return nil, fmt.Errorf("reconcile: list running workflows: %w", err)
		}
		for _, ex := range res.GetExecutions() {
			wf := runningWorkflow{ok: true}
			fields := ex.GetSearchAttributes().GetIndexedFields()
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchPlan], &wf.plan)
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchSubscriptionStatus], &wf.status)
			out[ex.GetExecution().GetWorkflowId()] = wf
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return out, nil
		}
	}
}

// EndSubscription ends a deleted account's subscription workflow (issue
// 28): terminated, as the account it served is gone (the reconciliation
// no longer lists it, so nothing starts it again). One that does not run
// is no error.
func (r *Reconciler) EndSubscription(ctx context.Context, accountID uuid.UUID) error {
	err := r.Temporal.TerminateWorkflow(ctx, workflows.SubscriptionWorkflowID(accountID), "", "account deleted")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil
	}
	return err
}
