package workflows

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// maxSeenEvents bounds the remembered payment event ids (the intake already
// stores each event once; this catches redelivery of the same signal).
const maxSeenEvents = 100

// subscription is the running workflow: its state plus the lock that keeps
// update handlers and the main loop from interleaving inside a transition.
type subscription struct {
	st kudos.SubscriptionState
	mu workflow.Mutex
	// inUpdate is set while an update handler holds the lock: activities
	// then use updateActivityOptions (the customer is waiting).
	inUpdate bool
	// wake tells the main loop that an update changed the state, so that it
	// recomputes its timer (buffered, one pending wake is enough).
	wake workflow.Channel
	// inbox holds payment events delivered as updates until the main
	// loop applies them (see paymentEvent).
	inbox workflow.Channel
	// spans are the trace spans of the updates whose events wait in the
	// inbox, by event id (tracedEvent).
	spans map[string]any
	log   interface {
		Info(string, ...any)
		Error(string, ...any)
	}
	// renewed is set when a renewal was paid: each period starts a fresh
	// run (continue-as-new), which keeps histories short.
	renewed bool
	// billing is set in runs that have the billing lifecycle (reminders,
	// dunning, receipts): not in those recorded before it.
	billing bool
	// settlesInOne is set in runs since version 2 of the lifecycle: a
	// payment is settled, its PDF rendered and its receipt queued in one
	// local activity.
	settlesInOne bool
	// round3 is set in runs since version 3 of the lifecycle (issue 25):
	// settling payments followed up, payments priced for their period,
	// checkout ids derived from their update, applied events marked,
	// calendar years, refunds retried.
	round3 bool
	// version is the run's version of the billing lifecycle, and turn
	// counts the main loop's turns: a run on an older version hands its
	// state to a new run at its first turn that is not replayed.
	version workflow.Version
	turn    int
	// upserted are the search attributes last upserted by this run.
	upserted *searchAttributes
	// disputeOpen is the DisputeOpen search attribute last upserted by
	// this run (nil: none).
	disputeOpen *bool
}

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

// Subscription is the entity workflow of one account's subscription
// (ARCHITECTURE §5): the trial timer, checkouts opened by updates and settled
// by payment events, renewals at plan_renewal_at, and auto-renewal on/off.
// Every transition is written to Postgres by an activity; the workflow
// continues as new after each renewal and when Temporal suggests it.
func Subscription(ctx workflow.Context, st kudos.SubscriptionState) error {
	s := &subscription{st: st, log: workflow.GetLogger(ctx), wake: workflow.NewBufferedChannel(ctx, 1), mu: workflow.NewMutex(ctx),
		inbox: workflow.NewBufferedChannel(ctx, inboxSize)}
	s.initVersion(ctx)
	// Events a lost run accepted go first: updates wait for the lock.
	inboxFirst := s.round3 && len(s.st.Inbox) > 0 && s.mu.Lock(ctx) == nil
	if err := s.registerHandlers(ctx); err != nil {
		return err
	}
	// Payment events come as updates (the inbox) or, from before, signals.
	events := []workflow.ReceiveChannel{s.inbox, workflow.GetSignalChannel(ctx, SignalPaymentEvent)}
	s.upsertSearchAttributes(ctx)
	if len(s.st.Disputes) > 0 { // a dispute still open (none in any run from before disputes)
		s.upsertDisputeOpen(ctx)
	}

	// Histories from before restarted the timer on every turn of the loop;
	// now it is kept while its deadline holds.
	s.initLifecycle(ctx)
	keepTimer := s.newer(ctx, "timer-kept-while-deadline-holds")
	capped := s.newer(ctx, "continue-as-new-at-history-cap")
	var t deadlineTimer
	if inboxFirst {
		s.applyInbox(ctx)
		s.mu.Unlock()
	}
	for {
		if ctx.Err() != nil {
			return ctx.Err() // cancelled (by an operator): end, nothing more to do
		}
		s.turn++
		if s.renewed || workflow.GetInfo(ctx).GetContinueAsNewSuggested() || s.retiring(ctx) ||
			capped && workflow.GetInfo(ctx).GetCurrentHistoryLength() >= HistoryCap {
			return s.continueAsNew(ctx, events)
		}
		sel := workflow.NewSelector(ctx)
		for _, ch := range events {
			sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
				var ev kudos.PaymentEvent
				c.Receive(ctx, &ev)
				s.withLock(ctx, func() { s.onPaymentEvent(s.tracedEvent(ctx, ev), ev) })
			})
		}
		deadline, ok := s.nextDeadline()
		idle := !ok && s.round3 // nothing to wait for: wake after idleWake
		switch {
		case idle && t.idle: // the idle wake already runs
		case !keepTimer || !ok || !deadline.Equal(t.at):
			t.cancel()
		}
		if idle && t.future == nil {
			t.start(ctx, workflow.Now(ctx).Add(idleWake))
			t.idle = true
		}
		if ok && t.future == nil {
			t.start(ctx, deadline)
		}
		if t.future != nil {
			fired := t.future
			sel.AddFuture(fired, func(f workflow.Future) {
				t = deadlineTimer{}
				if f.Get(ctx, nil) == nil { // not a cancelled timer
					s.withLock(ctx, func() { s.onDeadline(ctx) })
				}
			})
		}
		// An update changed the state: recompute the deadline.
		sel.AddReceive(s.wake, func(c workflow.ReceiveChannel, _ bool) { c.ReceiveAsync(nil) })
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
		sel.Select(ctx)
		if !keepTimer {
			t.cancel()
		}
	}
}

// deadlineTimer is the main loop's timer for the next deadline (or, idle,
// for the idle wake).
type deadlineTimer struct {
	future workflow.Future
	at     time.Time
	stop   workflow.CancelFunc
	idle   bool
}

// start sets the timer for deadline.
func (t *deadlineTimer) start(ctx workflow.Context, deadline time.Time) {
	timerCtx, stop := workflow.WithCancel(ctx)
	d := deadline.Sub(workflow.Now(ctx))
	if d < 0 {
		d = 0
	}
	*t = deadlineTimer{future: workflow.NewTimer(timerCtx, d), at: deadline, stop: stop}
}

// cancel stops the timer, if one runs.
func (t *deadlineTimer) cancel() {
	if t.stop != nil {
		t.stop()
	}
	*t = deadlineTimer{}
}

// withLock runs fn once no handler is inside a transition.
func (s *subscription) withLock(ctx workflow.Context, fn func()) {
	if s.mu.Lock(ctx) != nil { // cancelled: the transition still runs (its activities are disconnected)
		fn()
		return
	}
	defer s.mu.Unlock()
	fn()
}

// nextDeadline is the earliest of the trial end, the checkout expiry, the
// renewal date, the next retry of a failed renewal, the next reminder, the
// follow-ups of settling payments and refunds that apply now; a run with
// none of them (an expired trial or plan) wakes after idleWake instead (see
// the main loop), so that a run on an old version hands over to a new one.
func (s *subscription) nextDeadline() (time.Time, bool) {
	var next time.Time
	consider := func(t *time.Time) {
		if t != nil && (next.IsZero() || t.Before(next)) {
			next = *t
		}
	}
	if s.st.Plan == kudos.PlanTrial && s.st.Status == kudos.StatusActive {
		consider(s.st.TrialExpiresAt)
	}
	if c := s.st.Checkout; c != nil && !c.Pending { // a settling payment is waited for
		consider(&c.ExpiresAt)
	}
	if s.renewalDue() {
		consider(s.st.RenewalAt)
	}
	if at, ok := s.retryDue(); ok {
		consider(&at)
	}
	if _, at, _, ok := s.reminder(); ok {
		consider(&at)
	}
	for _, at := range s.followUps() {
		consider(&at)
	}
	return next, !next.IsZero()
}

// HistoryCap is the history length (events) at which a subscription run
// continues as new even when the server has not suggested it (issue 39):
// far below Temporal's warning at 10 240 events and its limit at 51 200,
// and below its default suggestion at 4 096, so that a run's replay (a
// worker's cache miss) stays cheap whatever the server's settings. A run
// also continues as new after every paid renewal: a year of an ordinary
// subscription is a few dozen events.
const HistoryCap = 2000

// idleWake is how long a run with nothing to wait for sleeps before it
// looks again: long enough to cost nothing, short enough that a run on an
// old version is retired within weeks of a new version shipping.
const idleWake = 30 * 24 * time.Hour

// renewalDue reports whether the renewal date is the next thing the plan
// waits for: an active paid plan, no renewal being retried or settling.
func (s *subscription) renewalDue() bool {
	return s.st.Plan.IsPaid() && s.st.Status == kudos.StatusActive && s.st.Dunning == nil && s.st.PendingRenewal == nil
}

// onDeadline handles whatever is due now.
func (s *subscription) onDeadline(ctx workflow.Context) {
	now := workflow.Now(ctx)
	if c := s.st.Checkout; c != nil && !c.Pending && !now.Before(c.ExpiresAt) {
		_ = s.expireOpenCheckout(ctx) // outside an update it settles whatever the provider says
	}
	if s.st.Plan == kudos.PlanTrial && s.st.Status == kudos.StatusActive && s.st.TrialExpiresAt != nil && !now.Before(*s.st.TrialExpiresAt) {
		s.st.Status = kudos.StatusTrialExpired
		s.record(ctx)
	}
	if s.renewalDue() && s.st.RenewalAt != nil && !now.Before(*s.st.RenewalAt) {
		s.renew(ctx)
	}
	s.followUp(ctx, now)
	if at, ok := s.retryDue(); ok && !now.Before(at) {
		s.retryRenewal(ctx, "retry:"+stamp(at), at)
	}
	if purpose, at, deadline, ok := s.reminder(); ok && !now.Before(at) {
		s.remind(ctx, purpose, deadline)
	}
}

// renew starts the next period: charge it when auto-renewal is on, else the
// plan stops with a DUE_PAYMENT invoice that 'continue with plan' pays.
func (s *subscription) renew(ctx workflow.Context) {
	if c := s.st.Checkout; s.billing && c != nil && (c.Purpose == kudos.CheckoutUpgrade || c.Purpose == kudos.CheckoutSeats) && !c.Pending {
		// An upgrade prorates the period that ends now: settled first (paid
		// at the provider, the next period renews the higher plan),
		// otherwise closed, and a payment of it that still comes is late
		// and refunded.
		_ = s.expireOpenCheckout(ctx)
	}
	s.applyScheduled(ctx)
	invoiceID, chargeID := s.renewalKeys(ctx)
	discount := s.renewalDiscount(ctx)
	if !s.st.AutoRenew {
		_ = s.run(ctx, ActivityCreateDueInvoice, DueInvoiceInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: invoiceID,
			Discount: discount, ExtraSeats: s.st.ExtraSeats}, nil)
		s.renderPDF(ctx, invoiceID)
		s.expirePlan(ctx, invoiceID)
		s.mail(ctx, kudos.MailPlanExpired, "expired:"+stamp(*s.st.RenewalAt),
			kudos.MailBilling{Plan: s.st.Plan, InvoiceID: &invoiceID, Date: s.st.RenewalAt})
		return
	}
	var res RenewalResult
	end := s.periodEnd(*s.st.RenewalAt)
	if err := s.run(ctx, ActivityChargeRenewal, RenewalInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: invoiceID,
		ChargeID: chargeID, Service: &kudos.ServicePeriod{From: *s.st.RenewalAt, To: end}, Discount: discount, ExtraSeats: s.st.ExtraSeats}, &res); err != nil {
		res = RenewalResult{FailureReason: "refused"}
	}
	charge := kudos.PendingCharge{PeriodStart: *s.st.RenewalAt, InvoiceID: invoiceID, ChargeID: chargeID}
	if res.Pending && s.round3 { // a SEPA debit processing: waited for on a timer
		s.startPendingRenewal(ctx, charge)
		return
	}
	s.renewalCharged(ctx, charge, res)
}

// renewalKeys are the invoice id and the provider's idempotency key of the
// renewal at RenewalAt. They derive from the account and the period, so a
// run rebuilt from the read model (whatever it has forgotten) bills and
// charges each period once, and never finds last year's charge under this
// year's key. Histories from before replay with their random invoice id and
// counted key.
func (s *subscription) renewalKeys(ctx workflow.Context) (uuid.UUID, string) {
	if !s.newer(ctx, "renewal-keys-by-period") {
		invoiceID := s.newUUID(ctx)
		if !s.st.AutoRenew {
			return invoiceID, ""
		}
		s.st.Renewals++
		return invoiceID, fmt.Sprintf("renewal:%s:%d", s.st.AccountID, s.st.Renewals)
	}
	invoiceID := kudos.PeriodInvoiceID(s.st.AccountID, *s.st.RenewalAt)
	if !s.round3 {
		invoiceID = kudos.PeriodInvoiceIDBefore3(s.st.AccountID, *s.st.RenewalAt)
	}
	return invoiceID, kudos.RenewalChargeID(s.st.AccountID, *s.st.RenewalAt)
}

func (s *subscription) expirePlan(ctx workflow.Context, dueInvoice uuid.UUID) {
	s.st.Status = kudos.StatusPlanExpired
	s.st.Due = &kudos.DueInvoice{ID: dueInvoice, Plan: s.st.Plan}
	s.record(ctx)
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

// renderPDF has the PDF of a finalised invoice rendered and stored.
// Versioned: histories recorded before PDFs existed replay without it.
func (s *subscription) renderPDF(ctx workflow.Context, invoiceID uuid.UUID) {
	if !s.newer(ctx, "invoice-pdf") {
		return
	}
	// A refused rendering is logged; the invoice stands without it.
	_ = s.runShort(ctx, ActivityRenderInvoicePDF, InvoicePDFInput{AccountID: s.st.AccountID, InvoiceID: invoiceID}, nil)
}

// record writes the read model and refreshes the search attributes.
func (s *subscription) record(ctx workflow.Context) { s.recordApplied(ctx, "") }

// recordApplied is record, marking payment event applied ("" : none)
// applied in the same transaction.
func (s *subscription) recordApplied(ctx workflow.Context, applied string) {
	_ = s.runShort(ctx, ActivityWriteSubscription, WriteSubscriptionInput{AccountID: s.st.AccountID, Record: s.st.Record(),
		AppliedEvent: applied}, nil)
	s.upsertSearchAttributes(ctx)
}

// periodEnd is the end of the period that starts at start: a calendar year
// in runs since version 3 (kudos.PeriodEnd), a plain duration before.
func (s *subscription) periodEnd(start time.Time) time.Time {
	if s.round3 {
		return kudos.PeriodEnd(start, s.st.Period)
	}
	return start.Add(s.st.Period)
}

// newUUID returns a random id recorded in the history (deterministic on replay).
func (s *subscription) newUUID(ctx workflow.Context) uuid.UUID {
	var id uuid.UUID
	_ = workflow.SideEffect(ctx, func(workflow.Context) any { return uuid.New() }).Get(&id)
	return id
}

func (s *subscription) upsertSearchAttributes(ctx workflow.Context) {
	payment := s.paymentState()
	attrs := searchAttributes{plan: s.st.Plan, status: s.st.DisplayStatus(), payment: payment,
		since: s.paymentStateSince(ctx, payment)}
	if s.billing && s.upserted != nil && *s.upserted == attrs {
		return // unchanged: no command, no visibility write (runs with the lifecycle)
	}
	s.upserted = &attrs
	_ = workflow.UpsertTypedSearchAttributes(ctx,
		AccountIDKey.ValueSet(s.st.AccountID.String()),
		PlanKey.ValueSet(string(attrs.plan)),
		SubscriptionStatusKey.ValueSet(string(attrs.status)),
		PaymentStateKey.ValueSet(attrs.payment),
		PaymentStateSinceKey.ValueSet(attrs.since))
}

// searchAttributes are the values of the subscription's search
// attributes that change.
type searchAttributes struct {
	plan    kudos.Plan
	status  kudos.ShowStatus
	payment string
	since   time.Time
}

// inboxSize is how many payment events may wait in the inbox before a
// further update's handler waits too (it keeps its turn).
const inboxSize = 16

// continueAsNew hands the state to a fresh run once pending payment events
// are handled and no update is in flight.
func (s *subscription) continueAsNew(ctx workflow.Context, events []workflow.ReceiveChannel) error {
	for {
		// Handling an event yields (its activities), and an update may be
		// accepted meanwhile: drain until, in one go, no handler runs and
		// no event waits. Nothing between that check and the return
		// yields, so nothing accepted is lost. A handler waiting for room
		// in the inbox gets it as the inbox drains.
		if err := workflow.Await(ctx, func() bool {
			return !s.mu.IsLocked() && (workflow.AllHandlersFinished(ctx) || s.inbox.Len() > 0)
		}); err != nil {
			// Cancelled (an operator) while draining: end now. Await would
			// answer at once on every turn, a loop that never yields; an
			// event accepted and not applied stays unapplied in Postgres,
			// and the run rebuilt from the read model applies it.
			return err
		}
		if ev, ok := receiveAny(events); ok {
			s.withLock(ctx, func() { s.onPaymentEvent(ctx, ev) })
			continue
		}
		if workflow.AllHandlersFinished(ctx) {
			return workflow.NewContinueAsNewError(ctx, Subscription, s.st)
		}
	}
}

// receiveAny takes a waiting payment event from the first channel that has
// one.
func receiveAny(chs []workflow.ReceiveChannel) (kudos.PaymentEvent, bool) {
	var ev kudos.PaymentEvent
	for _, ch := range chs {
		if ch.ReceiveAsync(&ev) {
			return ev, true
		}
	}
	return ev, false
}
