package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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
	SubscriptionStatusPage(ctx context.Context, after uuid.UUID, limit int) ([]store.SubscriptionStatus, error)
	Enqueue(ctx context.Context, entries ...store.OutboxEntry) error
	StaleUnappliedEvents(ctx context.Context, age time.Duration) ([]kudos.PaymentEvent, error)
	AbandonedCheckouts(ctx context.Context, purpose kudos.CheckoutPurpose, before time.Time) ([]kudos.CheckoutRecord, error)
	SetCheckoutStatus(ctx context.Context, id, status string) error
	RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) store.OutboxEntry) (bool, error)
	PurgeExpired(ctx context.Context) (store.Purged, error)
	DueDeferredRefunds(ctx context.Context, before time.Time, limit int) ([]store.DeferredRefund, error)
	AccountErased(ctx context.Context, accountID uuid.UUID) (bool, error)
	MarkPaymentEventsApplied(ctx context.Context, accountID uuid.UUID, ids []string) error
	// FinishSweep records that a sweep walked its last page (the gauge
	// kudos_subscriptions_reconciled_age_seconds).
	FinishSweep(ctx context.Context, name string, at time.Time) error
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
	// PageSize and PagesPerRun bound the sweep's pages (0:
	// ReconcilePageSize and ReconcilePagesPerRun; tests make them small).
	PageSize, PagesPerRun int
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

// Reconcile runs one whole sweep in this call: the housekeeping, then every
// page of accounts (Walk) until the last. The Reconcile workflow runs the
// same steps as activities, a bounded number of pages per run (issue 39);
// this is the sweep of runs started before it, and of tests.
func (r *Reconciler) Reconcile(ctx context.Context) (workflows.ReconcileReport, error) {
	p := workflows.ReconcileProgress{Since: time.Now()}
	rep, err := r.Housekeep(ctx, p.Since)
	if err != nil {
		return rep, err
	}
	p.Report = rep
	for !p.Done {
		if p, err = r.Walk(ctx, p, nil); err != nil {
			return p.Report, err
		}
	}
	return p.Report, nil
}

// Housekeep is the sweep's bounded work besides the accounts: it purges the
// expired rows of the store (store.PurgeExpired, in batches), delivers
// again the payment events a lost run never applied, closes the abandoned
// payment-method checkouts and tries again the deferred refunds of
// accounts whose workflow has ended (retryDeferredRefunds): the Schedule
// is the one periodic beat every deployment runs once. Each step reads at
// most a fixed number of rows (store's limits), and asks visibility only
// about their accounts. since keys the starts of this sweep in the outbox.
func (r *Reconciler) Housekeep(ctx context.Context, since time.Time) (workflows.ReconcileReport, error) {
	purged, err := r.DB.PurgeExpired(ctx)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	if purged.Total() > 0 {
		r.Log.Info("reconcile: expired rows purged", "rate_limits", purged.RateLimits, "oidc_flows", purged.OIDCFlows, "mfa_challenges", purged.MFAChallenges,
			"sessions", purged.Sessions, "user_tokens", purged.UserTokens, "webauthn_ceremonies", purged.WebAuthnCeremonies,
			"vat_answers", purged.VATAnswers, "sent_mails", purged.SentMails)
	}
	rep := workflows.ReconcileReport{Purged: purged.Total()}
	now := time.Now()
	redeliveries, err := r.unapplied(ctx, &rep, since, now)
	if err != nil {
		return workflows.ReconcileReport{}, err
	}
	if len(redeliveries) > 0 {
		if err := r.DB.Enqueue(ctx, redeliveries...); err != nil {
			return workflows.ReconcileReport{}, err
		}
		if r.Kick != nil {
			r.Kick()
		}
	}
	if err := r.closeAbandoned(ctx, now, &rep); err != nil {
		return rep, err
	}
	return rep, r.retryDeferredRefunds(ctx, now, &rep)
}

// unapplied finds the payment events a lost run accepted and never applied
// (stored, delivered UnappliedAge ago, not marked applied) and returns
// their deliveries again: to the running workflow of their account, as a
// new update; an account whose workflow does not run is started from the
// read model instead, which applies them first. An erased account's event
// is delivered again as it is: the dispatcher hands it to its
// ErasedPayment workflow (no subscription run is started for it).
func (r *Reconciler) unapplied(ctx context.Context, rep *workflows.ReconcileReport, since, now time.Time) ([]store.OutboxEntry, error) {
	events, err := r.DB.StaleUnappliedEvents(ctx, UnappliedAge)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, 0, len(events))
	for _, ev := range events {
		ids = append(ids, ev.AccountID)
	}
	running, err := r.runningOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []store.OutboxEntry
	for _, ev := range events {
		erased, err := r.DB.AccountErased(ctx, ev.AccountID)
		if kudos.ErrorCode(err) == kudos.ENotFound {
			// An account Postgres never had (another deployment on the same
			// provider account, a database restored from before it): set
			// aside, never selected again, so that it cannot stop the sweep
			// nor hold a place in the queue of events to deliver again.
			r.Log.Error("reconcile: a payment event of no known account was set aside: check it in the provider's dashboard",
				"account", ev.AccountID, "event", ev.EventID, "checkout", ev.CheckoutID, "charge", ev.ChargeID)
			if err := r.DB.MarkPaymentEventsApplied(ctx, ev.AccountID, []string{ev.EventID}); err != nil {
				return nil, err
			}
			continue
		} else if err != nil {
			return nil, err
		}
		if erased {
			r.Log.Warn("reconcile: a payment event of an erased account was never answered, delivering it again to be refunded",
				"account", ev.AccountID, "event", ev.EventID)
			out = append(out, PaymentEventAgain(ev, now))
			continue
		}
		r.Log.Warn("reconcile: a payment event was never applied, delivering it again", "account", ev.AccountID, "event", ev.EventID)
		id := ev.AccountID.String()
		first := !slices.Contains(rep.Redelivered, id)
		if first {
			rep.Redelivered = append(rep.Redelivered, id)
		}
		switch {
		case running[workflows.SubscriptionWorkflowID(ev.AccountID)].ok:
			out = append(out, PaymentEventAgain(ev, now))
		case first: // its run, started anew, applies every one
			rep.Started = append(rep.Started, id)
			out = append(out, ReconcileStart(ev.AccountID, since))
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

// runningOf lists, by workflow ID, the running subscription workflows of
// accounts (at most a few hundred at a time: asked in chunks by ID).
func (r *Reconciler) runningOf(ctx context.Context, accounts []uuid.UUID) (map[string]runningWorkflow, error) {
	out := map[string]runningWorkflow{}
	for chunk := range slices.Chunk(accounts, 100) {
		ids := make([]string, len(chunk))
		for i, a := range chunk {
			ids[i] = "'" + workflows.SubscriptionWorkflowID(a) + "'"
		}
		if err := r.listRunning(ctx, "WorkflowId IN ("+strings.Join(ids, ", ")+")", out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// listRunning adds to out the running subscription workflows that match
// filter, a page of visibility at a time.
func (r *Reconciler) listRunning(ctx context.Context, filter string, out map[string]runningWorkflow) error {
	var token []byte
	for {
		res, err := r.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query:    fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND %s", "Subscription", filter),
			PageSize: 1000, NextPageToken: token,
		})
		if err != nil {
			return fmt.Errorf("reconcile: list running workflows: %w", err)
		}
		for _, ex := range res.GetExecutions() {
			wf := runningWorkflow{ok: true}
			fields := ex.GetSearchAttributes().GetIndexedFields()
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchPlan], &wf.plan)
			_ = converter.GetDefaultDataConverter().FromPayload(fields[workflows.SearchSubscriptionStatus], &wf.status)
			out[ex.GetExecution().GetWorkflowId()] = wf
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return nil
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
