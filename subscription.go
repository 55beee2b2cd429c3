package kudos

import (
	"encoding/json"
	"math"
	"slices"
	"time"

	"github.com/google/uuid"
)

// Plan is a subscription plan. The order of PaidPlans is the upgrade order.
type Plan string

// The plans of SPEC §3.
const (
	PlanTrial   Plan = "TRIAL"
	PlanStarter Plan = "STARTER"
	PlanPro     Plan = "PRO"
	PlanTeam    Plan = "TEAM"
)

// ShowStatus is what the dashboard shows of a subscription (SPEC §3).
type ShowStatus string

// The show statuses of SPEC §3.
const (
	StatusActive       ShowStatus = "active"
	StatusTrialExpired ShowStatus = "trial_expired"
	StatusPlanExpired  ShowStatus = "plan_expired"
	StatusProcessing   ShowStatus = "processing"
)

// Subscription is one row of the subscriptions table: the read model of an
// account's subscription. The subscription workflow owns the lifecycle
// columns (plan, show_status, the dates, start_next_period) and writes them
// through an activity; show_onboarding and trials_left belong to the
// account's own use cases.
type Subscription struct {
	Plan            Plan       `json:"plan"`
	ShowStatus      ShowStatus `json:"show_status"`
	ShowOnboarding  bool       `json:"show_onboarding"`
	TrialsLeft      int        `json:"trials_left"`
	PlanRenewalAt   *time.Time `json:"plan_renewal_at"`
	TrialExpiresAt  *time.Time `json:"trial_expires_at"`
	StartNextPeriod bool       `json:"start_next_period"`
	// PeriodStartedAt is when the current paid period began (nil during
	// the trial).
	PeriodStartedAt *time.Time `json:"period_started_at"`
	// PaymentRetryAt is the next automatic attempt at a failed renewal
	// charge (dunning; nil when none is pending). show_status stays active
	// meanwhile.
	PaymentRetryAt *time.Time `json:"payment_retry_at"`
	// PaymentRetryBase is what the dunning schedule is measured from when
	// not the renewal date (Dunning.RetryBase: a charge that settled for
	// days, a returned debit; nil otherwise). The workflow writes it so
	// that a run rebuilt from the read model keeps the schedule; the api's
	// reads leave it out (nil), so it is never shown.
	PaymentRetryBase *time.Time `json:"payment_retry_base,omitempty"`
	// FailedPayment is the renewal payment being retried (nil when none).
	FailedPayment *FailedPayment `json:"failed_payment"`
	// Promotion is the promotion code discounting the coming renewals
	// (nil when none runs).
	Promotion *Discount `json:"promotion"`
	// ScheduledPlan is the lower plan the renewal at ScheduledAt starts
	// (issue 38: a downgrade takes effect at the renewal, never refunded
	// pro rata); ScheduledAt is set whenever a change (a plan, fewer
	// seats) is scheduled. Both nil when none.
	ScheduledPlan *Plan      `json:"scheduled_plan"`
	ScheduledAt   *time.Time `json:"scheduled_at"`
	// ExtraSeats are the seats a Team plan has bought beyond its own
	// (issue 38), and ScheduledExtraSeats those it keeps from ScheduledAt
	// (fewer seats take effect at the renewal; nil when unchanged).
	ExtraSeats          int  `json:"extra_seats"`
	ScheduledExtraSeats *int `json:"scheduled_extra_seats"`
	// PendingRenewal is the renewal charge settling at the provider (a
	// SEPA debit processing; nil when none), which a run rebuilt from the
	// read model waits on instead of renewing again. Never shown.
	PendingRenewal *PendingCharge `json:"-"`
}

// FailedPayment is a renewal payment that failed and is being retried: its
// invoice (DUE_PAYMENT) and amount with VAT.
type FailedPayment struct {
	InvoiceID uuid.UUID `json:"invoice_id"`
	Amount    Money     `json:"amount"`
}

// SubscriptionState is the whole state of an account's subscription as its
// workflow holds it: the workflow's input, carried across continue-as-new,
// and what its query answers. The read model is derived from it (Record).
type SubscriptionState struct {
	AccountID uuid.UUID
	Plan      Plan
	// Status is active, trial_expired or plan_expired; "processing" is what
	// the read model shows while Checkout is open.
	Status          ShowStatus
	TrialExpiresAt  *time.Time
	PeriodStartedAt *time.Time
	RenewalAt       *time.Time
	AutoRenew       bool
	// Period and CheckoutTTL come from the configuration at start.
	Period      time.Duration
	CheckoutTTL time.Duration
	Checkout    *OpenCheckout
	Due         *DueInvoice
	// Owed are invoices due again since their debit came back when no
	// dunning could retry them (OwedInvoice), oldest first.
	Owed []OwedInvoice `json:",omitempty"`
	// Dunning is the renewal being retried after its charge failed (nil
	// when none); the plan stays active meanwhile.
	Dunning *Dunning
	// Lifecycle are the reminder and dunning timings (from the
	// configuration at start; nil in states from before they existed: the
	// workflow then asks the worker's configuration).
	Lifecycle *Lifecycle
	// Reminded is the deadline (trial end or renewal date) whose reminder
	// mail has been sent, so that it is sent once.
	Reminded *time.Time
	// Renewals counts renewal charges (their idempotency keys).
	Renewals int
	// SeenEvents are the latest payment event ids, to drop duplicates.
	SeenEvents []string
	// PendingRenewal is the renewal charge the provider accepted and has
	// not settled (a SEPA debit processing): the plan stays active, the
	// charge is asked about every Lifecycle.PendingCheck, and nothing else
	// waits on it (nil when none).
	PendingRenewal *PendingCharge `json:",omitempty"`
	// Refunds are the refunds the provider refused for now (a temporary
	// code such as balance_insufficient), tried again on the schedule of
	// Lifecycle.RefundRetries before they count as refused.
	Refunds []PendingRefund `json:",omitempty"`
	// Inbox are payment events that an earlier run accepted and did not
	// apply (it was terminated): a run rebuilt from the read model applies
	// them first.
	Inbox []PaymentEvent `json:",omitempty"`
	// Disputes are the account's disputes still open (the DisputeOpen
	// search attribute).
	Disputes []OpenDispute `json:",omitempty"`
	// Deleting is set from the account's deletion being prepared (the
	// workflow's prepare_deletion) until it is cancelled or given up: the
	// run refuses what would take or commit money then (a plan, an upgrade,
	// seats, paying an invoice, auto-renewal on), even from a request that
	// passed the api's check before the deletion was recorded.
	Deleting bool `json:",omitempty"`
	// PaymentState is the PaymentState search attribute last set, and
	// PaymentStateSince when it took that value (the PaymentStateSince
	// search attribute): kept here so that they survive continue-as-new.
	PaymentState      string     `json:",omitempty"`
	PaymentStateSince *time.Time `json:",omitempty"`
	// Promotion is the promotion code that discounts the renewals still to
	// come (nil: none; one per account): set when the checkout it was
	// entered with is paid, used up renewal by renewal.
	Promotion *Discount `json:",omitempty"`
	// ScheduledPlan is the lower plan the next renewal starts and charges
	// ("" when none); an upgrade paid meanwhile replaces it (issue 38).
	ScheduledPlan Plan `json:",omitempty"`
	// ExtraSeats are the seats bought beyond the Team plan's own, and
	// ScheduledExtraSeats those kept from the next renewal (nil: unchanged).
	ExtraSeats          int  `json:",omitempty"`
	ScheduledExtraSeats *int `json:",omitempty"`
	// LifecycleVersion is the version of the subscription workflow's
	// billing lifecycle that the run given this state takes, set by
	// whoever starts it (the dispatcher, or the run it continues): a run
	// that is told records no version markers (issue 39). 0 in states
	// from before: the run asks workflow.GetVersion.
	LifecycleVersion int `json:",omitempty"`
}

// OpenCheckout is the account's one open hosted checkout, as the
// subscription workflow tracks it.
type OpenCheckout struct {
	ID         string
	ProviderID string
	URL        string
	Purpose    CheckoutPurpose
	Plan       Plan
	InvoiceID  uuid.UUID
	ExpiresAt  time.Time
	// ExtraSeats are, on a seats checkout, the extra seats the account has
	// once it is paid (issue 38).
	ExtraSeats int `json:",omitempty"`
	// Pending is set once the checkout is complete and its payment (a
	// delayed method) settling: it no longer expires, and the account
	// stays processing until the payment succeeds or fails.
	Pending bool
	// PendingSince is when the payment was first seen settling, and
	// CheckAt when the provider is asked about it next (a lost final
	// webhook never leaves the account processing): after
	// Lifecycle.PendingLimit it counts as failed. Nil in states from
	// before the follow-up.
	PendingSince *time.Time `json:",omitempty"`
	CheckAt      *time.Time `json:",omitempty"`
	// Promotion is the promotion code the checkout's price was discounted
	// by (nil: none): once paid it is the account's, for the renewals its
	// duration covers.
	Promotion *Discount `json:",omitempty"`
}

// PendingCharge is an off-session renewal charge that the provider
// accepted and has not settled yet (a SEPA debit is "processing" for days).
type PendingCharge struct {
	// PeriodStart is the renewal date the charge pays for; InvoiceID its
	// invoice; ChargeID the provider's idempotency key, under which the
	// charge is asked about again (never made twice).
	PeriodStart time.Time
	InvoiceID   uuid.UUID
	ChargeID    string
	// Attempt and Slot name a retry of dunning ("" and the zero time for
	// the renewal date's own charge).
	Attempt string    `json:",omitempty"`
	Slot    time.Time `json:",omitempty"`
	// Since is when the charge was first seen processing; CheckAt when the
	// provider is asked next.
	Since, CheckAt time.Time
}

// PendingRefund is a refund the provider refused for now and that is tried
// again on the schedule of Lifecycle.RefundRetries.
type PendingRefund struct {
	CheckoutID string
	// FirstRefusedAt is when the provider first refused it (the schedule is
	// measured from it); RetryAt the next attempt.
	FirstRefusedAt, RetryAt time.Time
	// Reason is the provider's last answer.
	Reason string
}

// Lifecycle are the configured timings of the mails and retries around a
// deadline (ARCHITECTURE §4 lifecycle timing).
type Lifecycle struct {
	// TrialReminder is how long before the trial ends its reminder goes
	// out (KUDOS_TRIAL_REMINDER); RenewalReminder the same before a yearly
	// renewal (KUDOS_RENEWAL_REMINDER). Zero: no reminder.
	TrialReminder, RenewalReminder time.Duration
	// Trial is the trial's length (KUDOS_TRIAL_DURATION): a reminder that
	// would fall before the trial (or the paid period) began is not sent.
	Trial time.Duration
	// DunningSchedule are the retries of a failed renewal charge, measured
	// from the renewal date (KUDOS_DUNNING_SCHEDULE). Empty: none.
	DunningSchedule []time.Duration
	// PendingCheck is how often a payment that is settling (a checkout
	// complete with its SEPA debit unpaid, a renewal charge processing) is
	// asked about at the provider (KUDOS_PENDING_CHECK); PendingLimit how
	// long it may settle before it counts as failed (KUDOS_PENDING_LIMIT).
	// Zero (states from before): DefaultPendingCheck, DefaultPendingLimit.
	PendingCheck time.Duration `json:",omitempty"`
	PendingLimit time.Duration `json:",omitempty"`
	// RefundRetries are the waits, measured from the first refusal, after
	// which a refund the provider refused for now is tried again; after the
	// last it counts as refused (ops refund by hand). Empty: the defaults.
	RefundRetries []time.Duration `json:",omitempty"`
}

// Defaults of the follow-ups of settling payments and refused refunds.
const (
	DefaultPendingCheck = 24 * time.Hour
	DefaultPendingLimit = 14 * 24 * time.Hour
)

// DefaultRefundRetries are the retries of a refund the provider refused for
// now: after an hour, six hours, a day and three days.
var DefaultRefundRetries = []time.Duration{time.Hour, 6 * time.Hour, 24 * time.Hour, 72 * time.Hour}

// Pending are the follow-up timings of settling payments, defaults filled in.
func (l Lifecycle) Pending() (check, limit time.Duration) {
	check, limit = l.PendingCheck, l.PendingLimit
	if check <= 0 {
		check = DefaultPendingCheck
	}
	if limit <= 0 {
		limit = DefaultPendingLimit
	}
	return check, limit
}

// RefundSchedule is RefundRetries, or the defaults.
func (l Lifecycle) RefundSchedule() []time.Duration {
	if len(l.RefundRetries) == 0 {
		return DefaultRefundRetries
	}
	return l.RefundRetries
}

// NextRefundTry is the try of a refund first refused for now at
// firstRefused that the schedule (RefundSchedule) places after after, or
// false when the schedule is used up (the next try is the last: a refusal
// then counts as refused).
func (l Lifecycle) NextRefundTry(firstRefused, after time.Time) (time.Time, bool) {
	for _, off := range l.RefundSchedule() {
		if at := firstRefused.Add(off); at.After(after) {
			return at, true
		}
	}
	return time.Time{}, false
}

// DeferredRefundGrace is how long past its retry_at a deferred refund may
// wait before it counts as overdue: a running workflow tries it on time,
// and the reconciliation (every few minutes) tries those of accounts whose
// workflow has ended.
const DeferredRefundGrace = time.Hour

// Dunning is a renewal whose charge failed, being retried on the schedule.
type Dunning struct {
	// PeriodStart is the renewal date: the unpaid period starts there, and
	// the retries are measured from it.
	PeriodStart time.Time
	InvoiceID   uuid.UUID
	Amount      Money
	// Attempts counts the failed attempts so far (1 after the renewal
	// date's own charge); informative (keys derive from times).
	Attempts int
	// RetryAt is the next attempt (the zero time: none left).
	RetryAt time.Time
	// RetryBase, when set, is what the schedule is measured from instead
	// of PeriodStart: a charge that was settling for days before it failed
	// moves the rest of the schedule on by that time, so that its retries
	// keep their spacing instead of all falling due at once.
	RetryBase *time.Time `json:",omitempty"`
	// Kind is the retried invoice's kind when it bought something within
	// the running period (extra seats, an upgrade: InvoiceKind.WithinPeriod)
	// and its debit came back ("" otherwise): unpaid at the end, the plan
	// expires with it due, and paying it later lets the period go on.
	Kind InvoiceKind `json:",omitempty"`
	// Returned is set when the retried invoice was paid and its debit came
	// back (not a renewal's charge): the mails say so.
	Returned bool `json:",omitempty"`
	// Plan is the plan the returned invoice bills ("" : the plan the
	// account is on, and dunnings from before it was kept): unpaid at the
	// end, the invoice is due for that plan, which paying it reactivates
	// (not a plan upgraded to since, at the older invoice's price).
	Plan Plan `json:",omitempty"`
	// Service is the period the returned invoice paid (nil: a renewal's,
	// or not known), which it keeps when its dunning stops and it is held
	// as owed (OwedInvoice.Service).
	Service *ServicePeriod `json:",omitempty"`
}

// Base is what the retries are measured from.
func (d Dunning) Base() time.Time {
	if d.RetryBase != nil {
		return *d.RetryBase
	}
	return d.PeriodStart
}

// scheduleBase is what a dunning schedule that placed a retry at retryAt
// was measured from, when it began near near: of retryAt less each slot's
// offset, the instant nearest to near (near itself without a schedule).
// The run measured it from its own clock, which the stored time of the
// event that began it (near) only approaches.
func (l Lifecycle) scheduleBase(retryAt, near time.Time) time.Time {
	base := near
	for i, off := range l.DunningSchedule {
		if b := retryAt.Add(-off); i == 0 || b.Sub(near).Abs() < base.Sub(near).Abs() {
			base = b
		}
	}
	return base
}

// NextRetry is the first retry of the renewal at periodStart that the
// schedule places after after, or false when the schedule is used up. An
// extra attempt (a new card) uses no slot of the schedule.
func (l Lifecycle) NextRetry(periodStart, after time.Time) (time.Time, bool) {
	for _, off := range l.DunningSchedule {
		if at := periodStart.Add(off); at.After(after) {
			return at, true
		}
	}
	return time.Time{}, false
}

// DueInvoice is the DUE_PAYMENT invoice that reactivates an expired plan.
type DueInvoice struct {
	ID   uuid.UUID
	Plan Plan
	// Kind is its kind ("" when not known: an invoice of a whole period).
	// One bought within the period (InvoiceKind.WithinPeriod), paid, lets
	// the period go on as it was, never starts a new one.
	Kind InvoiceKind `json:",omitempty"`
}

// OwedInvoice is an invoice whose paid debit came back (a returned debit)
// when nothing retries it: the period it paid had ended, or another payment
// was already being retried or settling. It is due again and the customer
// pays it from the billing page; paying it settles it and changes nothing
// of the plan.
type OwedInvoice struct {
	ID   uuid.UUID
	Plan Plan
	// Service is the period it paid (nil: not known), which its receipt names.
	Service *ServicePeriod `json:",omitempty"`
	// Amount and Kind are the invoice's total and kind (nil, "": owed
	// before they were kept), for its dunning when it is collected after
	// all (the period it paid still running once nothing holds it owed).
	Amount *Money      `json:",omitempty"`
	Kind   InvoiceKind `json:",omitempty"`
}

// CheckoutRecord is one row of the checkouts table: a hosted checkout as
// ops see it, with the price it was opened at (its invoice, which a payment
// that arrives after the checkout closed is billed on).
type CheckoutRecord struct {
	ID, Provider, ProviderID, URL string
	AccountID                     uuid.UUID
	Purpose                       CheckoutPurpose
	Plan                          Plan
	InvoiceID                     *uuid.UUID
	ExpiresAt                     time.Time
	// ExtraSeats are, on a seats checkout, the extra seats it buys up to
	// (issue 38; 0 on other checkouts).
	ExtraSeats int
	// FromPlan and FromExtraSeats are what an upgrade or a seats checkout
	// was priced from: the plan it upgrades, the extra seats it adds to
	// ("" and nil on other checkouts, and on rows from before they were
	// kept). A late payment priced from what the account no longer has is
	// refunded (PricedFromElsewhere).
	FromPlan       Plan `json:",omitempty"`
	FromExtraSeats *int `json:",omitempty"`
	// Promotion is the terms of the promotion code the checkout was priced
	// with (nil: none): a run rebuilt while it is open keeps them, so the
	// renewals after its payment follow the code (issue 38).
	Promotion *Discount
	// Status is open, paid, failed, expired, cancelled or refunded.
	Status string
	// Invoice is the priced invoice of the checkout (nil on rows written
	// before prices were kept).
	Invoice *Invoice
	// TakenBack is set when the checkout's payment was taken back after
	// it succeeded (its debit returned, or lost to a dispute), whether or
	// not it was applied: a later "paid" event of it is never applied.
	TakenBack bool `json:",omitempty"`
}

// PricedFromElsewhere reports whether checkout c was priced from a plan or
// extra seats other than plan and extraSeats: an upgrade from another
// plan, seats added to another count. Unknown (rows from before they were
// kept): false.
func (c *CheckoutRecord) PricedFromElsewhere(plan Plan, extraSeats int) bool {
	switch c.Purpose {
	case CheckoutUpgrade:
		return c.FromPlan != "" && c.FromPlan != plan
	case CheckoutSeats:
		return c.FromExtraSeats != nil && *c.FromExtraSeats != extraSeats
	}
	return false
}

// DisplayStatus is the show_status of the read model: processing while a
// checkout that changes the plan is open (not the one a renewal needing
// authentication offers, nor one paying an owed invoice: the plan stays
// active meanwhile, a debt paid changes no plan).
func (s *SubscriptionState) DisplayStatus() ShowStatus {
	if c := s.Checkout; c != nil && c.Purpose.ChangesPlan() && !s.Owes(c.InvoiceID) {
		return StatusProcessing
	}
	return s.Status
}

// Owes reports whether invoice is owed since its debit came back (Owed).
func (s *SubscriptionState) Owes(invoice uuid.UUID) bool {
	return slices.ContainsFunc(s.Owed, func(o OwedInvoice) bool { return o.ID == invoice })
}

// Record is the read model of the state (the workflow-owned columns).
func (s *SubscriptionState) Record() Subscription {
	r := Subscription{Plan: s.Plan, ShowStatus: s.DisplayStatus(), TrialExpiresAt: s.TrialExpiresAt,
		PeriodStartedAt: s.PeriodStartedAt, PlanRenewalAt: s.RenewalAt, StartNextPeriod: s.AutoRenew, Promotion: s.Promotion}
	r.ExtraSeats, r.ScheduledExtraSeats, r.PendingRenewal = s.ExtraSeats, s.ScheduledExtraSeats, s.PendingRenewal
	if s.ScheduledPlan != "" {
		p := s.ScheduledPlan
		r.ScheduledPlan = &p
	}
	if (s.ScheduledPlan != "" || s.ScheduledExtraSeats != nil) && s.RenewalAt != nil {
		at := *s.RenewalAt
		r.ScheduledAt = &at
	}
	if d := s.Dunning; d != nil {
		r.FailedPayment = &FailedPayment{InvoiceID: d.InvoiceID, Amount: d.Amount}
		if !d.RetryAt.IsZero() {
			at := d.RetryAt
			r.PaymentRetryAt = &at
			if d.RetryBase != nil {
				base := *d.RetryBase
				r.PaymentRetryBase = &base
			}
		}
	}
	return r
}

// SubscriptionReadModel is what Postgres holds of an account's
// subscription: its row, the DUE_PAYMENT invoice that reactivates an expired
// plan, and the hosted checkout still open. It is enough to rebuild the
// workflow's state exactly (StateFromRecord).
type SubscriptionReadModel struct {
	Subscription
	Due *DueInvoice
	// FailedKind is the kind of the invoice of FailedPayment ("" : none).
	FailedKind InvoiceKind `json:",omitempty"`
	// FailedReturnedAt is when the payment of FailedPayment's invoice came
	// back (a returned debit: the period running now is being retried, on
	// the schedule measured from the return); nil for a renewal's charge.
	FailedReturnedAt *time.Time `json:",omitempty"`
	// Returned are the DUE_PAYMENT invoices whose debit came back, oldest
	// first: the one being retried and an expired plan's due invoice among
	// them, which StateFromRecord leaves out of the state's Owed.
	Returned []OwedInvoice `json:",omitempty"`
	Checkout *CheckoutRecord
	// Unapplied are the payment events stored and not yet applied by any
	// run (in the order they came), which a rebuilt run applies first.
	Unapplied []PaymentEvent
	// Refunds are the refunds the provider refused for now (refunds rows
	// deferred), which a rebuilt run tries again on their schedule.
	Refunds []PendingRefund `json:",omitempty"`
	// Disputes are the account's open disputes (disputes rows open).
	Disputes []OpenDispute `json:",omitempty"`
	// Deleting: the account's deletion is scheduled (accounts.deletion_at).
	Deleting bool `json:",omitempty"`
}

// StateFromRecord rebuilds the state of an account whose workflow is not
// running (first start, a lost or terminated run, a namespace move) from
// its read model at now: the plan and its dates, the due invoice, and the
// open checkout, which the new run continues (its expiry timer, and its
// payment when it comes), a renewal being retried (dunning) with the
// attempts it has had, the payment events no run applied, and the refunds
// the provider refused for now. Charge keys derive from the period, not from a
// counter, so nothing here needs the old run's history.
func StateFromRecord(accountID uuid.UUID, r SubscriptionReadModel, period, checkoutTTL time.Duration, lifecycle Lifecycle, now time.Time) SubscriptionState {
	s := SubscriptionState{AccountID: accountID, Plan: r.Plan, Status: r.ShowStatus, TrialExpiresAt: r.TrialExpiresAt,
		PeriodStartedAt: r.PeriodStartedAt, RenewalAt: r.PlanRenewalAt, AutoRenew: r.StartNextPeriod, Period: period,
		CheckoutTTL: checkoutTTL, Due: r.Due, Lifecycle: &lifecycle, Inbox: r.Unapplied, Refunds: r.Refunds,
		Disputes: r.Disputes, Promotion: r.Promotion, ExtraSeats: r.ExtraSeats, ScheduledExtraSeats: r.ScheduledExtraSeats, Deleting: r.Deleting}
	if r.ScheduledPlan != nil {
		s.ScheduledPlan = *r.ScheduledPlan
	}
	if c := r.Checkout; c != nil && c.InvoiceID != nil {
		s.Checkout = &OpenCheckout{ID: c.ID, ProviderID: c.ProviderID, URL: c.URL, Purpose: c.Purpose, Plan: c.Plan,
			InvoiceID: *c.InvoiceID, ExpiresAt: c.ExpiresAt, ExtraSeats: c.ExtraSeats, Promotion: c.Promotion}
	}
	if f := r.FailedPayment; f != nil && s.RenewalAt != nil && r.PaymentRetryAt != nil {
		// Dunning: the renewal at RenewalAt is being retried; the attempts
		// made are those of the schedule before the next one.
		d := &Dunning{PeriodStart: *s.RenewalAt, InvoiceID: f.InvoiceID, Amount: f.Amount, RetryAt: *r.PaymentRetryAt, Attempts: 1}
		if r.FailedReturnedAt != nil && s.PeriodStartedAt != nil {
			// A returned debit: the period running now is being retried,
			// on the schedule measured from the return (paid, it goes on
			// as it was).
			base := lifecycle.scheduleBase(d.RetryAt, *r.FailedReturnedAt)
			d.PeriodStart, d.RetryBase, d.Returned = *s.PeriodStartedAt, &base, true
			for _, o := range r.Returned { // the plan it bills and the period it paid, as the run kept them
				if o.ID == f.InvoiceID {
					d.Plan, d.Service = o.Plan, o.Service
				}
			}
		}
		if r.PaymentRetryBase != nil { // written by the run: exact (rows from before it was written have none)
			base := *r.PaymentRetryBase
			d.RetryBase = &base
		}
		if r.FailedKind.WithinPeriod() {
			d.Kind = r.FailedKind
		}
		for _, off := range lifecycle.DunningSchedule {
			if d.Base().Add(off).Before(d.RetryAt) {
				d.Attempts++
			}
		}
		s.Dunning = d
		if s.Due != nil && s.Due.ID == f.InvoiceID { // the invoice being retried is not yet the one to reactivate
			s.Due = nil
		}
	}
	if p := r.PendingRenewal; p != nil && s.RenewalAt != nil && (p.Attempt == "" || r.FailedPayment != nil) &&
		(sameInstant(p.PeriodStart, *s.RenewalAt) || (s.Dunning != nil && s.Dunning.Returned && sameInstant(p.PeriodStart, s.Dunning.PeriodStart))) {
		// The renewal's charge (or a retry's, of a returned debit's too:
		// the period running now) settles: waited on, asked about on its
		// schedule, never charged again. One of a renewal paid or ended
		// since (the period moved on) is left.
		pending := *p
		s.PendingRenewal = &pending
	}
	returned := map[uuid.UUID]bool{}
	for _, o := range r.Returned {
		returned[o.ID] = true
	}
	// Processing beneath a checkout that pays something else (an upgrade,
	// seats: an active plan's) is not an expired plan paying its due one.
	processingOther := s.Status == StatusProcessing && s.Due != nil && s.Checkout != nil && s.Checkout.InvoiceID != s.Due.ID
	if s.Due != nil && returned[s.Due.ID] && s.Status != StatusPlanExpired && (s.Status != StatusProcessing || processingOther) {
		// A plan that has not expired has no due invoice of its own: a
		// returned one of an ended period is owed.
		s.Due = nil
	}
	for _, o := range r.Returned {
		if (s.Due == nil || o.ID != s.Due.ID) && (s.Dunning == nil || o.ID != s.Dunning.InvoiceID) {
			s.Owed = append(s.Owed, o)
		}
	}
	// The status beneath an open checkout (one that pays an owed invoice
	// shows none; rows written before it did, processing, read as an
	// expired plan's when its invoice is the due one).
	if s.Status == StatusProcessing {
		s.Status = StatusActive
		switch {
		case s.Due != nil:
			s.Status = StatusPlanExpired
		case s.Plan == PlanTrial && s.TrialExpiresAt != nil && !s.TrialExpiresAt.After(now):
			s.Status = StatusTrialExpired
		}
	}
	return s
}

// sameInstant reports whether a and b are the same instant to the
// microsecond (Postgres keeps microseconds).
func sameInstant(a, b time.Time) bool {
	return a.Truncate(time.Microsecond).Equal(b.Truncate(time.Microsecond))
}

// periodNamespace scopes the ids derived from billing periods.
var periodNamespace = uuid.MustParse("6f1c3f0e-52a4-4c7e-9d39-5b0f2b8a7d11")

// periodKey is a period's start as the ids derived from it name it: whole
// seconds in UTC, so that the instant the workflow computed (nanoseconds)
// and the same instant read back from Postgres (microseconds) give one key.
func periodKey(periodStart time.Time) string {
	return periodStart.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// PeriodInvoiceID is the id of the invoice that bills the period starting
// at periodStart (a renewal, or the due invoice of a plan that stopped then):
// derived, so that billing a period again finds the same invoice. It and
// RenewalChargeID derive from the same key (periodKey).
func PeriodInvoiceID(accountID uuid.UUID, periodStart time.Time) uuid.UUID {
	return uuid.NewSHA1(periodNamespace, []byte(accountID.String()+"/"+periodKey(periodStart)))
}

// PeriodInvoiceIDBefore3 is PeriodInvoiceID as runs from before lifecycle
// version 3 derived it, from the instant to the nanosecond (a run rebuilt
// from Postgres, which keeps microseconds, could derive another id for the
// same period); kept so that their histories replay with the same ids.
func PeriodInvoiceIDBefore3(accountID uuid.UUID, periodStart time.Time) uuid.UUID {
	return uuid.NewSHA1(periodNamespace, []byte(accountID.String()+"/"+periodStart.UTC().Format(time.RFC3339Nano)))
}

// RenewalChargeID is the provider's idempotency key of the charge of the
// period starting at periodStart: one charge per period, whatever restarts.
func RenewalChargeID(accountID uuid.UUID, periodStart time.Time) string {
	return "renewal:" + accountID.String() + ":" + periodKey(periodStart)
}

// CalendarYear is the billing period that means one calendar year:
// KUDOS_BILLING_PERIOD's default, 8760h (365 days).
const CalendarYear = 8760 * time.Hour

// PeriodEnd is the end of the paid period that starts at start. With
// CalendarYear it is the same date a year later, as Stripe bills yearly
// plans (a leap day is not skipped, and a period that starts on 29 February
// ends on 28 February, the last day of that month); any other period (short
// periods of tests and demos) is a plain duration.
func PeriodEnd(start time.Time, period time.Duration) time.Time {
	if period != CalendarYear {
		return start.Add(period)
	}
	y, m, d := start.Date()
	hh, mm, ss := start.Clock()
	end := time.Date(y+1, m, d, hh, mm, ss, start.Nanosecond(), start.Location())
	if end.Month() != m { // no such day next year: the last day of the month
		end = time.Date(y+1, m+1, 0, hh, mm, ss, start.Nanosecond(), start.Location())
	}
	return end
}

// MarshalJSON writes a failed payment as the api shows amounts: total with
// VAT in major units, beside its currency.
func (f FailedPayment) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		InvoiceID uuid.UUID `json:"invoice_id"`
		Amount    float64   `json:"amount"`
		Currency  string    `json:"currency"`
	}{f.InvoiceID, float64(f.Amount.Amount) / 100, f.Amount.Currency})
}

// UnmarshalJSON reads what MarshalJSON writes (the workflow's payloads
// carry the read model as JSON).
func (f *FailedPayment) UnmarshalJSON(b []byte) error {
	var v struct {
		InvoiceID uuid.UUID `json:"invoice_id"`
		Amount    float64   `json:"amount"`
		Currency  string    `json:"currency"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = FailedPayment{InvoiceID: v.InvoiceID, Amount: Money{Amount: int64(math.Round(v.Amount * 100)), Currency: v.Currency}}
	return nil
}
