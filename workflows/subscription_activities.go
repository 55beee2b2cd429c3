package workflows

// How the subscription workflow runs its activities: their options, the
// retry windows of background transitions, and the ways of starting one
// (an activity, a local activity, folded into the workflow task).

import (
	"errors"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// activityOptions are those of every subscription activity: short attempts,
// retried with backoff until they succeed (the database or the provider
// coming back); business failures are non-retryable errors.
var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    30 * time.Second,
	ScheduleToCloseTimeout: TransitionRetryWindow,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		NonRetryableErrorTypes: []string{ErrTypeNoPrice, ErrTypeInvoiceNotFinal, ErrTypeProviderRefused, ErrTypeNoCheckout},
	},
}

// updateActivityOptions are those of the activities an update waits for
// (opening a checkout while the customer waits for its link): they give up
// before the api stops waiting, so a provider that is down answers 503 at
// once and holds nothing (the lock, timers) for longer.
var updateActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    10 * time.Second,
	ScheduleToCloseTimeout: 15 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:        500 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        4 * time.Second,
		NonRetryableErrorTypes: activityOptions.RetryPolicy.NonRetryableErrorTypes,
	},
}

// TransitionRetryWindow is how long one attempt at a background transition
// (recording, settling, renewing) is retried; past it the workflow waits
// TransitionPause on a timer and tries again, forever: an outage of any
// length delays the transition and loses nothing.
const TransitionRetryWindow = 6 * time.Hour

// TransitionPause is the wait between two retry windows of a transition.
const TransitionPause = 10 * time.Minute

// transitionWindowNs and transitionPauseNs hold TransitionRetryWindow and
// TransitionPause as runs use them: only tests that record the pause
// between two windows from a real server shorten them (neither a timer's
// length nor an activity's timeout is compared on replay). They are
// atomic: such a test restores them while other tests' workflows run on
// the same worker.
var transitionWindowNs, transitionPauseNs = atomicDuration(TransitionRetryWindow), atomicDuration(TransitionPause)

// atomicDuration is an atomic holding d.
func atomicDuration(d time.Duration) *atomic.Int64 {
	var a atomic.Int64
	a.Store(int64(d))
	return &a
}

// transitionWindow is the retry window of background transitions now.
func transitionWindow() time.Duration { return time.Duration(transitionWindowNs.Load()) }

// transitionPause is the pause between two retry windows now.
func transitionPause() time.Duration { return time.Duration(transitionPauseNs.Load()) }

// SetTransitionTiming shortens the retry window and the pause of
// background transitions, for a test that records them on a real server;
// it returns the function that restores them.
func SetTransitionTiming(window, pause time.Duration) (restore func()) {
	w := transitionWindowNs.Swap(int64(window))
	p := transitionPauseNs.Swap(int64(pause))
	return func() { transitionWindowNs.Store(w); transitionPauseNs.Store(p) }
}

// activity runs an activity with the given options (update handlers get a
// context without any, so every call goes through here or run).
func (s *subscription) activity(ctx workflow.Context, opts workflow.ActivityOptions, name string, in any) workflow.Future {
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), name, in)
}

// run carries out the activity of a background transition until it
// succeeds, into out. It runs in a disconnected context, so cancelling the
// workflow (an operator) never interrupts a transition half way. Failures
// worth retrying are retried for TransitionRetryWindow, then again after
// each TransitionPause on a durable timer: no workflow task fails, nothing
// is skipped, and nothing needs resetting after an outage. A business
// failure (non-retryable) is returned to the caller, logged.
func (s *subscription) run(ctx workflow.Context, name string, in, out any) error {
	opts := activityOptions
	opts.ScheduleToCloseTimeout = transitionWindow()
	return s.retried(ctx, name, func(dctx workflow.Context) workflow.Future { return s.activity(dctx, opts, name, in) }, out)
}

// localActivityOptions are those of the short Postgres writes run as
// local activities (in the workflow task, no round trip through the
// server): attempts as for activities, retried by the SDK for the same
// window.
var localActivityOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout:    10 * time.Second,
	ScheduleToCloseTimeout: TransitionRetryWindow,
	RetryPolicy:            activityOptions.RetryPolicy,
}

// runShort is run for short work (a Postgres write, the PDF): a local
// activity in runs with the billing lifecycle, in the workflow task with no
// round trip through the server; an activity in runs from before, which
// replay as they were recorded.
func (s *subscription) runShort(ctx workflow.Context, name string, in, out any) error {
	if s.billing {
		return s.runLocal(ctx, name, in, out)
	}
	return s.run(ctx, name, in, out)
}

// runFolded is run for work that runs in the workflow task itself (a
// local activity) in runs since the change changeID, and as an activity
// in runs from before, which replay as they were recorded. It is for one
// short Postgres transaction, idempotent by its key, that the workflow
// waits for before anything else (issue 39, round 3): a refund's or a
// dispute's booking. Folded, it saves an activity task and a workflow
// task: a third of the Temporal server's CPU per ledger event in the
// intake benchmark. (A renewal's charge was tried too: less CPU, but a
// burst of them took three times as long; docs/performance.md.)
func (s *subscription) runFolded(ctx workflow.Context, changeID, name string, in, out any) error {
	if s.billing && s.newer(ctx, changeID) {
		return s.runLocal(ctx, name, in, out)
	}
	return s.run(ctx, name, in, out)
}

// runLocal is run for a local activity: a short write to Postgres that
// needs no activity worker nor a round trip through the server.
func (s *subscription) runLocal(ctx workflow.Context, name string, in, out any) error {
	opts := localActivityOptions
	opts.ScheduleToCloseTimeout = transitionWindow()
	return s.retried(ctx, name, func(dctx workflow.Context) workflow.Future {
		return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(dctx, opts), name, in)
	}, out)
}

// retried is the loop of run and runLocal around one way of starting the
// activity.
func (s *subscription) retried(ctx workflow.Context, name string, start func(workflow.Context) workflow.Future, out any) error {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	for {
		err := start(dctx).Get(dctx, out)
		var app *temporal.ApplicationError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &app) && app.NonRetryable():
			s.log.Error("transition refused", "activity", name, "err", err)
			return err
		}
		s.log.Error("transition still failing, trying again later", "activity", name, "retry_in", transitionPause(), "err", err)
		if err := workflow.Sleep(dctx, transitionPause()); err != nil {
			return err
		}
	}
}
