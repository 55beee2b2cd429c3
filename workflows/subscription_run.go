package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
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
	// applyLast is the dispute's or returned debit's payment event being
	// applied ("" : none): marked applied with the last write of what the
	// workflow does about it (recordLast), or after it when it writes
	// nothing (onLedgerEvent), never with its booking.
	applyLast string
	// paidOwed is the owed invoice the payment being settled pays (nil:
	// none), which its receipt names.
	paidOwed *kudos.OwedInvoice
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
	s.startedWith(ctx)
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
	// An owed invoice of the running period whose dunning waited on
	// another one (paid: this run continues that one) is collected now.
	if s.owedToCollect(ctx) >= 0 {
		s.withLock(ctx, func() { s.collectOwed(ctx) })
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
	s.expireDue(ctx, kudos.DueInvoice{ID: dueInvoice, Plan: s.st.Plan})
}

// expireDue is expirePlan with the due invoice due (the last write of a
// ledger event that ends the plan: recordLast).
func (s *subscription) expireDue(ctx workflow.Context, due kudos.DueInvoice) {
	s.st.Status = kudos.StatusPlanExpired
	s.st.Due = &due
	s.recordLast(ctx)
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

// recordLast is record for the last write of what a ledger event does:
// the event being applied (applyLast) is marked applied with it.
func (s *subscription) recordLast(ctx workflow.Context) {
	applied := s.applyLast
	s.applyLast = ""
	s.recordApplied(ctx, applied)
}

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

// startedWith notes, in runs of version 4, the search attributes the run
// started with (those the dispatcher gave it, or those of the run it
// continues) as upserted, so that its first task upserts only what
// differs: a renewal's new run then writes nothing to the visibility store
// beyond its start (issue 39). Runs from before upserted them all at once.
func (s *subscription) startedWith(ctx workflow.Context) {
	if s.version < 4 {
		return
	}
	sa := workflow.GetTypedSearchAttributes(ctx)
	plan, ok1 := sa.GetKeyword(PlanKey)
	status, ok2 := sa.GetKeyword(SubscriptionStatusKey)
	payment, ok3 := sa.GetKeyword(PaymentStateKey)
	since, ok4 := sa.GetTime(PaymentStateSinceKey)
	if _, ok := sa.GetKeyword(AccountIDKey); ok && ok1 && ok2 && ok3 && ok4 {
		s.upserted = &searchAttributes{plan: kudos.Plan(plan), status: kudos.ShowStatus(status), payment: payment, since: since}
	}
	if open, ok := sa.GetBool(DisputeOpenKey); ok {
		s.disputeOpen = &open
	}
}

func (s *subscription) upsertSearchAttributes(ctx workflow.Context) {
	payment := s.paymentState()
	attrs := searchAttributes{plan: s.st.Plan, status: s.st.DisplayStatus(), payment: payment,
		since: s.paymentStateSince(ctx, payment)}
	if s.billing && s.upserted != nil && s.upserted.equal(attrs) {
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

// equal reports whether a and b are the same values (the times as
// instants: one read back from the visibility store has lost its zone).
func (a searchAttributes) equal(b searchAttributes) bool {
	return a.plan == b.plan && a.status == b.status && a.payment == b.payment && a.since.Equal(b.since)
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
			// The next run takes the newest version, with no markers (a
			// run of an older one retires into it); it starts with this
			// run's search attributes (the SDK hands them on).
			s.st.LifecycleVersion = LifecycleVersion
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
