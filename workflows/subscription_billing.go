package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// The billing lifecycle after the happy path (issue 13): reminder mails
// before the trial ends and before a renewal, dunning (a failed renewal
// charge retried on KUDOS_DUNNING_SCHEDULE while the plan stays active),
// and the mails that go with them and with every payment. All of it runs on
// the workflow's own timers; runs recorded before it replay without it.

// LifecycleVersion is the newest version of the billing lifecycle, read
// once at the start of each run: 1 reminders, dunning and receipts; 2 a
// payment settled in one local activity; 3 money round 3 (settling
// payments followed up, payments priced for their period, checkout ids
// derived from their update, applied events marked in Postgres, calendar
// years, refunds retried); 4 every change made until then (roundFourChanges)
// taken with no version marker of its own. The dispatcher starts runs at
// this version and every run continues as new at it (the state's
// LifecycleVersion), so a run records no marker at all: each marker is a
// TemporalChangeVersion upsert, a write to the visibility store, and a
// renewal's new run made two of them in its first task (issue 39).
const LifecycleVersion = 4

// initVersion reads the run's version of the billing lifecycle: the one
// its state was started with, or, in states from before that, the
// version marker's. It runs first, before the update handlers are
// registered: an update delivered with the start (Update-with-Start) is
// handled knowing it. Version markers are not matched by position on
// replay, so runs recorded when the marker came after such a handler's
// commands replay unchanged.
func (s *subscription) initVersion(ctx workflow.Context) {
	v := toldVersion(ctx, s.st.LifecycleVersion, "billing-lifecycle", LifecycleVersion)
	s.version, s.billing, s.settlesInOne, s.round3 = v, v >= 1, v >= 2, v >= 3
	s.st.LifecycleVersion = int(v) // what the subscription query shows
}

// initLifecycle gives a state from before the billing lifecycle the
// worker's timings.
func (s *subscription) initLifecycle(ctx workflow.Context) {
	if !s.billing || s.st.Lifecycle != nil {
		return
	}
	var l kudos.Lifecycle
	if err := s.run(ctx, ActivityLoadLifecycle, LifecycleInput{AccountID: s.st.AccountID}, &l); err == nil {
		s.st.Lifecycle = &l
	}
}

// preLifecycleChanges are the changes made before the billing lifecycle
// existed: a run with the lifecycle takes their newest path with no marker
// of their own.
var preLifecycleChanges = map[string]bool{
	"timer-kept-while-deadline-holds": true, "renewal-keys-by-period": true, "invoice-pdf": true,
	"checkout-expiry-asks-provider": true, "late-payments": true, "settle-paid-in-one": true,
}

// roundFourChanges are the changes made between lifecycle versions 1 and
// 4: a run of version 4 takes their newest path with no marker of their
// own. A change made after version 4 is not listed here: it has its own
// marker (or a later lifecycle version), and newer never answers true for
// it without one.
var roundFourChanges = map[string]bool{
	"continue-as-new-at-history-cap": true, "deletion-cancels-open-charges": true, "disputes-and-returns": true,
	"dunning-end-cancels-charges": true, "ledger-local": true, "ledger-movements": true, "promotion-codes": true, "refund-failures": true,
	"refunds-recorded": true, "scheduled-changes": true, "stray-charges": true,
}

// newer reports whether the run takes the newest path of the change
// changeID: runs with the billing lifecycle do for the changes made before
// it (preLifecycleChanges), runs of version 4 for those made before that
// (roundFourChanges); otherwise the version marker decides.
func (s *subscription) newer(ctx workflow.Context, changeID string) bool {
	if s.billing && preLifecycleChanges[changeID] || s.version >= 4 && roundFourChanges[changeID] {
		return true
	}
	return workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, 1) == 1
}

// retiring reports whether this run, on an older version of the lifecycle,
// hands its state to a new run (continue-as-new) at this turn of the main
// loop, so that the branches of old versions can be removed once no run
// takes them. The marker's id names the turn: turns that are replayed
// (recorded before this code existed) find no marker and go on as they
// did; the first turn run anew records one and retires. A run with nothing
// to wait for turns at least every idleWake (runs since version 3).
func (s *subscription) retiring(ctx workflow.Context) bool {
	return s.version < LifecycleVersion &&
		workflow.GetVersion(ctx, fmt.Sprintf("retire-run-%d", s.turn), workflow.DefaultVersion, 1) == 1
}

// lifecycle is the state's timings (none when unknown).
func (s *subscription) lifecycle() kudos.Lifecycle {
	if s.st.Lifecycle == nil {
		return kudos.Lifecycle{}
	}
	return *s.st.Lifecycle
}

// reminder is the next reminder mail, if one is still to be sent: its
// purpose, when it is due, and the deadline it announces (the trial's end,
// the renewal date). A reminder that would fall before the trial or the
// period began (one shorter than the reminder's lead) is not sent.
func (s *subscription) reminder() (purpose kudos.MailPurpose, at, deadline time.Time, ok bool) {
	if !s.billing || s.st.Status != kudos.StatusActive {
		return "", at, deadline, false
	}
	l := s.lifecycle()
	switch {
	case s.st.Plan == kudos.PlanTrial && s.st.TrialExpiresAt != nil && l.TrialReminder > 0:
		deadline, purpose = *s.st.TrialExpiresAt, kudos.MailTrialReminder
		at = deadline.Add(-l.TrialReminder)
		if l.Trial > 0 && at.Before(deadline.Add(-l.Trial)) {
			return "", at, deadline, false
		}
	case s.st.Plan.IsPaid() && s.st.Dunning == nil && s.st.RenewalAt != nil && l.RenewalReminder > 0:
		deadline, purpose = *s.st.RenewalAt, kudos.MailRenewalReminder
		at = deadline.Add(-l.RenewalReminder)
		if s.st.PeriodStartedAt != nil && at.Before(*s.st.PeriodStartedAt) {
			return "", at, deadline, false
		}
	default:
		return "", at, deadline, false
	}
	if s.st.Reminded != nil && s.st.Reminded.Equal(deadline) {
		return "", at, deadline, false
	}
	return purpose, at, deadline, true
}

// remind sends the reminder that is due, once per deadline.
func (s *subscription) remind(ctx workflow.Context, purpose kudos.MailPurpose, deadline time.Time) {
	s.st.Reminded = &deadline
	b := kudos.MailBilling{Plan: s.st.Plan, Date: &deadline, AutoRenew: s.st.AutoRenew}
	occasion := "trial:"
	if purpose == kudos.MailRenewalReminder {
		occasion = "renewal:"
		b.PeriodStart, b.PeriodEnd = s.st.PeriodStartedAt, s.st.RenewalAt
		b.NextPlan, b.ExtraSeats = s.st.ScheduledPlan, s.renewedExtraSeats()
		renewed := s.st.Plan
		if b.NextPlan != "" {
			renewed = b.NextPlan
		}
		if p := s.st.Promotion; p != nil && p.Covers(renewed) {
			b.Discount = p // the reminder names what the renewal will charge
		}
	}
	s.mail(ctx, purpose, occasion+stamp(deadline), b)
}

// stamp is a time as it appears in keys.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// openForRetried is the open checkout that pays the renewal being retried
// (the one authentication asked for, or one the customer opened to pay the
// invoice), or nil.
func (s *subscription) openForRetried() *kudos.OpenCheckout {
	if c, d := s.st.Checkout, s.st.Dunning; c != nil && d != nil && c.InvoiceID == d.InvoiceID {
		return c
	}
	return nil
}

// retryDue is the time of the next scheduled attempt at the renewal being
// retried, unless a payment of it is settling (no second charge then).
func (s *subscription) retryDue() (time.Time, bool) {
	d := s.st.Dunning
	if d == nil || d.RetryAt.IsZero() || s.st.PendingRenewal != nil {
		return time.Time{}, false
	}
	if c := s.openForRetried(); c != nil && c.Pending {
		return time.Time{}, false
	}
	return d.RetryAt, true
}

// startDunning handles the renewal charge that failed on the renewal date:
// the plan stays active while the charge is retried on the schedule.
func (s *subscription) startDunning(ctx workflow.Context, invoiceID uuid.UUID, res RenewalResult) {
	s.startDunningShifted(ctx, invoiceID, res, 0)
}

// startDunningShifted is startDunning for a charge found failed shift
// after the renewal date (it was settling): the schedule is measured from
// then.
func (s *subscription) startDunningShifted(ctx workflow.Context, invoiceID uuid.UUID, res RenewalResult, shift time.Duration) {
	s.st.Dunning = &kudos.Dunning{PeriodStart: *s.st.RenewalAt, InvoiceID: invoiceID, Amount: res.Amount}
	if shift > 0 {
		base := s.st.Dunning.PeriodStart.Add(shift)
		s.st.Dunning.RetryBase = &base
	}
	s.attemptFailed(ctx, "0", s.st.Dunning.Base(), res)
}

// attemptFailed counts a failed attempt (named attempt in keys) made for
// the slot at slot: the next slot of the schedule is set and the customer
// told (with a link to authenticate the payment when that is what it
// needs), or, the schedule used up, the plan expires. Slots go by the
// schedule, not by when an attempt ran: a late attempt (a worker away)
// loses none, and an extra one (a new card) takes none.
func (s *subscription) attemptFailed(ctx workflow.Context, attempt string, slot time.Time, res RenewalResult) {
	d := s.st.Dunning
	d.Attempts++
	if res.Amount.Amount > 0 {
		d.Amount = res.Amount
	}
	s.log.Info("renewal charge failed", "attempt", d.Attempts, "reason", res.FailureReason)
	next, ok := s.lifecycle().NextRetry(d.Base(), slot)
	if !ok {
		s.endDunningUnpaid(ctx)
		return
	}
	d.RetryAt = next
	occasion := stamp(d.PeriodStart) + ":" + attempt
	b := kudos.MailBilling{Plan: s.st.Plan, InvoiceID: &d.InvoiceID, Amount: &d.Amount, Date: &next, Returned: d.Returned}
	if res.FailureReason == FailureAuthenticationRequired {
		if url := s.openRenewalCheckout(ctx, next); url != "" {
			s.recordLast(ctx)
			b.PayURL = url
			s.mail(ctx, kudos.MailPaymentActionRequired, "action:"+occasion, b)
			return
		}
	}
	s.recordLast(ctx)
	s.mail(ctx, kudos.MailPaymentFailed, "failed:"+occasion, b)
}

// retryRenewal charges the renewal being retried again, under the charge
// key of attempt (one charge per attempt). A checkout of it that the customer may be
// paying is closed at the provider first: paid there, it settles the
// renewal and nothing is charged; settling there, nothing is charged.
func (s *subscription) retryRenewal(ctx workflow.Context, attempt string, slot time.Time) {
	if c := s.openForRetried(); c != nil {
		if c.Pending {
			return
		}
		_ = s.expireOpenCheckout(ctx)
		if s.st.Dunning == nil || s.st.Checkout != nil {
			return
		}
	}
	d := s.st.Dunning
	if !s.st.AutoRenew && !d.Returned && s.newer(ctx, "stop-while-checkout-settles") {
		// Auto-renewal was stopped while a payment of the renewal settled,
		// and it failed: the owner declined the year, nothing is charged.
		s.endDunningUnpaid(ctx)
		return
	}
	charge := kudos.PendingCharge{PeriodStart: d.PeriodStart, InvoiceID: d.InvoiceID, ChargeID: s.attemptKey(ctx, d) + attempt,
		Attempt: attempt, Slot: slot}
	var res RenewalResult
	if err := s.run(ctx, ActivityChargeRenewal, RenewalInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: d.InvoiceID,
		ChargeID: charge.ChargeID}, &res); err != nil {
		res = RenewalResult{FailureReason: "refused"}
	}
	switch {
	case res.Pending && s.round3: // settling: no further attempt until it has
		s.startPendingRenewal(ctx, charge)
	case !res.Paid:
		s.attemptFailed(ctx, attempt, slot, res)
	default:
		s.renderPDF(ctx, d.InvoiceID) // paid now
		s.renewPaid(ctx, d.PeriodStart, d.InvoiceID)
	}
}

// renewPaid starts the period at periodStart, paid by invoiceID (a
// renewal paid on its date or during dunning: the period keeps its date).
// In runs from before the lifecycle it is what renewals always did (no
// dunning, no receipt).
func (s *subscription) renewPaid(ctx workflow.Context, periodStart time.Time, invoiceID uuid.UUID) {
	again := s.st.Dunning != nil && s.st.Dunning.Returned
	end := s.periodEnd(periodStart)
	s.st.PeriodStartedAt, s.st.RenewalAt = &periodStart, &end
	s.st.Dunning = nil
	s.record(ctx)
	r := s.receiptMail(invoiceID, periodStart, end)
	if again { // its debit came back: this payment is a second one, with a receipt of its own
		r.Key += ":" + stamp(workflow.Now(ctx))
	}
	s.queueMail(ctx, r)
	s.renewed = true
}

// endDunningUnpaid ends dunning without a payment: the plan expires with
// the renewal's invoice due (reactivate pays it), and the customer is told.
func (s *subscription) endDunningUnpaid(ctx workflow.Context) {
	if c := s.openForRetried(); c != nil && !c.Pending {
		_ = s.expireOpenCheckout(ctx)
		if s.st.Dunning == nil { // it was paid meanwhile
			return
		}
	}
	d := s.st.Dunning
	s.st.Dunning = nil
	plan := s.st.Plan
	if d.Plan != "" && d.Plan != plan && s.newer(ctx, "returned-due-plan") {
		// A returned invoice of an older plan (upgraded since): due for
		// the plan it bills, as a run rebuilt from the read model reads it.
		plan = d.Plan
	}
	s.expireDue(ctx, kudos.DueInvoice{ID: d.InvoiceID, Plan: plan, Kind: d.Kind})
	s.mail(ctx, kudos.MailPlanExpired, "expired:"+stamp(d.PeriodStart),
		kudos.MailBilling{Plan: s.st.Plan, InvoiceID: &d.InvoiceID, Date: &d.PeriodStart})
	if s.newer(ctx, "dunning-end-cancels-charges") {
		// No charge of the renewal may be completed once the plan ended:
		// one still waiting on the customer's authentication is cancelled
		// at the provider (one completed all the same is refunded:
		// strayCharge).
		if err := s.run(ctx, ActivityCancelOpenCharges, CustomerRef{AccountID: s.st.AccountID}, nil); err != nil {
			s.log.Error("the renewal charges waiting on the customer could not be cancelled: one completed is refunded", "err", err)
		}
	}
}

// openRenewalCheckout opens a checkout of the renewal being retried, on
// which the customer authenticates the payment, open until the next attempt
// at most; it returns its URL ("" when none could be opened).
func (s *subscription) openRenewalCheckout(ctx workflow.Context, until time.Time) string {
	if c := s.st.Checkout; c != nil {
		if c.Pending {
			return ""
		}
		_ = s.expireOpenCheckout(ctx)
		if s.st.Checkout != nil || s.st.Dunning == nil {
			return ""
		}
	}
	d := s.st.Dunning
	expires := workflow.Now(ctx).Add(s.st.CheckoutTTL)
	if until.Before(expires) {
		expires = until
	}
	in := OpenCheckoutInput{AccountID: s.st.AccountID, Purpose: kudos.CheckoutRenewal, Plan: s.st.Plan, InvoiceID: d.InvoiceID,
		CheckoutID: s.renewalCheckoutID(ctx, until), ExpiresAt: expires}
	var res OpenCheckoutResult
	if err := s.run(ctx, ActivityOpenCheckout, in, &res); err != nil {
		return ""
	}
	s.st.Checkout = &kudos.OpenCheckout{ID: in.CheckoutID, ProviderID: res.ProviderID, URL: res.URL, Purpose: in.Purpose,
		Plan: in.Plan, InvoiceID: in.InvoiceID, ExpiresAt: expires}
	return res.URL
}

// renewalCheckoutID is the id of the checkout that authenticates the
// renewal being retried until the attempt at until: derived from the
// invoice and the attempt in runs since version 3, so that the same
// transition run again (a reset) opens the same checkout; random before.
func (s *subscription) renewalCheckoutID(ctx workflow.Context, until time.Time) string {
	if !s.round3 {
		return "co_" + s.newUUID(ctx).String()
	}
	return "co_" + uuid.NewSHA1(updateNamespace, []byte(s.st.Dunning.InvoiceID.String()+"/renewal/"+stamp(until))).String()
}

// receipt is the receipt mail of paid checkout c (the state already moved
// on by it), or nil: none in runs from before the lifecycle, nor without a
// period.
func (s *subscription) receipt(ctx workflow.Context, c *kudos.OpenCheckout) *BillingMailInput {
	if o := s.paidOwed; o != nil && o.ID == c.InvoiceID { // the period it paid, which ended; a receipt of its own
		s.paidOwed = nil
		if o.Service == nil {
			return nil
		}
		in := s.billingMail(kudos.MailPaymentReceipt, "receipt:"+o.ID.String()+":"+c.ID,
			kudos.MailBilling{Plan: o.Plan, InvoiceID: &o.ID, PeriodStart: &o.Service.From, PeriodEnd: &o.Service.To})
		return &in
	}
	if !s.billing || s.st.PeriodStartedAt == nil || s.st.RenewalAt == nil {
		return nil
	}
	from := *s.st.PeriodStartedAt
	if c.Purpose == kudos.CheckoutUpgrade || c.Purpose == kudos.CheckoutSeats {
		from = workflow.Now(ctx)
	}
	in := s.receiptMail(c.InvoiceID, from, *s.st.RenewalAt)
	if c.Purpose.PaysExistingInvoice() { // an invoice paid again (its debit came back) gets a receipt of each payment
		in.Key += ":" + c.ID
	}
	return &in
}

// receiptMail is the receipt of paid invoice invoiceID for the period from..to.
func (s *subscription) receiptMail(invoiceID uuid.UUID, from, to time.Time) BillingMailInput {
	return s.billingMail(kudos.MailPaymentReceipt, "receipt:"+invoiceID.String(),
		kudos.MailBilling{Plan: s.st.Plan, InvoiceID: &invoiceID, PeriodStart: &from, PeriodEnd: &to})
}

// mail has a billing mail delivered by the durable e-mail workflow (through
// the outbox, like every mail), once per occasion: the key derives from the
// account and the occasion, so a second request (a replayed transition, a
// run rebuilt from the read model) sends nothing twice. Nothing is sent in
// runs from before the lifecycle.
func (s *subscription) mail(ctx workflow.Context, purpose kudos.MailPurpose, occasion string, b kudos.MailBilling) {
	s.queueMail(ctx, s.billingMail(purpose, occasion, b))
}

// billingMail is the request of a billing mail to the account's owner.
func (s *subscription) billingMail(purpose kudos.MailPurpose, occasion string, b kudos.MailBilling) BillingMailInput {
	return BillingMailInput{AccountID: s.st.AccountID, Purpose: purpose, Key: s.st.AccountID.String() + ":" + occasion, Billing: b}
}

// queueMail queues billing mail in for the e-mail workflow (not in runs
// from before the lifecycle).
func (s *subscription) queueMail(ctx workflow.Context, in BillingMailInput) {
	if !s.billing {
		return
	}
	_ = s.runLocal(ctx, ActivityQueueBillingMail, in, nil) // a refusal (no owner to write to) is logged by runLocal
}
