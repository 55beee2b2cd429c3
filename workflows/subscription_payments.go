package workflows

import (
	"time"

	"slices"

	"go.temporal.io/sdk/workflow"

	"kudos"
)

// onPaymentEvent settles a checkout from a provider's event. Events seen
// before change nothing. An event of the open checkout settles it (a
// pending one marks its payment as settling); a payment for a checkout that
// is no longer open is applied or refunded (latePayment), never dropped.
// In runs since version 3 the event is marked applied in Postgres once its
// application is over (with its last write when it has one).
func (s *subscription) onPaymentEvent(ctx workflow.Context, ev kudos.PaymentEvent) {
	applied := ""
	if s.round3 {
		applied = ev.EventID
	}
	if slices.Contains(s.st.SeenEvents, ev.EventID) {
		s.markApplied(ctx, applied) // a run from before may have applied it without marking it
		return
	}
	s.st.SeenEvents = append(s.st.SeenEvents, ev.EventID)
	if len(s.st.SeenEvents) > maxSeenEvents {
		s.st.SeenEvents = s.st.SeenEvents[len(s.st.SeenEvents)-maxSeenEvents:]
	}
	if ev.Movement != "" { // only events since issue 36 have one: histories from before never come here
		if s.newer(ctx, "ledger-movements") {
			s.onMovement(ctx, ev)
		}
		s.markApplied(ctx, applied)
		return
	}
	if s.onLedgerEvent(ctx, ev, applied) { // a dispute or a returned debit
		return
	}
	c := s.st.Checkout
	if c == nil || c.ID != ev.CheckoutID {
		if ev.Outcome == kudos.PaymentPaid && s.newer(ctx, "late-payments") {
			s.latePayment(ctx, ev)
		} else {
			s.log.Info("payment event for a checkout that is not open: nothing to do", "event", ev.EventID, "checkout", ev.CheckoutID,
				"outcome", ev.Outcome)
		}
		s.markApplied(ctx, applied)
		return
	}
	if !s.settleOpenCheckout(ctx, ev.Outcome, applied) {
		s.markApplied(ctx, applied)
	}
}

// settleOpenCheckout ends the open checkout as the provider says it ended.
// applied is the payment event that says so ("" : none), marked applied
// with the last write when the settlement ends in one: it reports whether
// it was.
func (s *subscription) settleOpenCheckout(ctx workflow.Context, outcome kudos.PaymentOutcome, applied string) bool {
	c := s.st.Checkout
	switch outcome {
	case kudos.PaymentPaid:
		if s.round3 && !s.owed(c) {
			// What it paid for is no longer owed (an upgrade priced for a
			// period that has ended, or one settling during dunning): it
			// ended with its period, its payment goes back, and the plan
			// stays as it was paid for.
			s.log.Info("a payment for what is no longer owed: refunded", "checkout", c.ID, "purpose", c.Purpose)
			s.closeCheckout(ctx, c, kudos.PaymentExpired, false)
			s.refund(ctx, c.ID)
			return false
		}
		s.settlePaid(ctx, c, applied)
		return true
	case kudos.PaymentPending:
		if !c.Pending {
			s.markPending(ctx, c)
			s.recordApplied(ctx, applied)
			s.wake.SendAsync(true) // its expiry no longer applies
			return true
		}
	case kudos.PaymentFailed, kudos.PaymentExpired, kudos.PaymentCancelled:
		s.closeCheckout(ctx, c, outcome, false)
	}
	return false
}

// expireOpenCheckout ends the open checkout at its deadline, or to make way
// for another. The provider is asked first: a checkout paid, or complete
// with its payment settling, while the deadline passed is a payment, not an
// expiry. Histories from before this replay the old way (expire and drop).
//
// In an update (the customer waits) a provider that does not answer in time
// leaves the checkout open and the error is returned.
func (s *subscription) expireOpenCheckout(ctx workflow.Context) error {
	c := s.st.Checkout
	if !s.newer(ctx, "checkout-expiry-asks-provider") {
		s.closeCheckout(ctx, c, kudos.PaymentExpired, true)
		return nil
	}
	outcome, err := s.askProvider(ctx, c)
	switch {
	case err != nil && s.inUpdate:
		s.log.Error("the provider did not close the checkout: it stays open", "checkout", c.ID, "err", err)
		return err
	case err != nil:
		// Refused for good (the provider does not know it): it cannot be
		// paid any more, and a payment that still comes is a late one.
		s.log.Error("the provider refused to close the checkout: closed here", "checkout", c.ID, "err", err)
		outcome = kudos.PaymentExpired
	}
	if outcome == "" {
		outcome = kudos.PaymentExpired
	}
	s.settleOpenCheckout(ctx, outcome, "")
	return nil
}

// askProvider closes checkout c at the provider and returns how it ended
// there. In an update the customer waits: the short update options, one
// try; otherwise the retried transition.
func (s *subscription) askProvider(ctx workflow.Context, c *kudos.OpenCheckout) (kudos.PaymentOutcome, error) {
	var outcome kudos.PaymentOutcome
	in := ExpireCheckoutInput{AccountID: s.st.AccountID, ProviderID: c.ProviderID}
	if s.inUpdate {
		return outcome, s.activity(ctx, updateActivityOptions, ActivityExpireCheckout, in).Get(ctx, &outcome)
	}
	return outcome, s.run(ctx, ActivityExpireCheckout, in, &outcome)
}

// latePayment handles money that arrived for a checkout that is no longer
// open (the provider's event came after the deadline, a replaced checkout
// was paid in another tab, a delayed method settled). What it paid for is
// applied when nothing else paid for it since; otherwise the payment is
// refunded in full through the provider and recorded. A checkout already
// settled as paid or refunded is a duplicate.
func (s *subscription) latePayment(ctx workflow.Context, ev kudos.PaymentEvent) {
	var rec kudos.CheckoutRecord
	if err := s.run(ctx, ActivityLoadCheckout, CheckoutRef{AccountID: s.st.AccountID, CheckoutID: ev.CheckoutID}, &rec); err != nil {
		s.log.Error("payment for a checkout the read model does not know: needs an operator", "event", ev.EventID,
			"checkout", ev.CheckoutID, "err", err)
		return
	}
	if rec.Status == "refunded" || (rec.Status == "paid" && rec.Purpose == kudos.CheckoutPaymentMethod) {
		return
	}
	if rec.Purpose == kudos.CheckoutPaymentMethod { // a new card: verified (VerifyPaymentMethod)
		if err := s.run(ctx, ActivityVerifyPaymentMethod, CheckoutRef{AccountID: s.st.AccountID, CheckoutID: rec.ID}, nil); err != nil {
			s.log.Info("a new payment method was declined", "checkout", rec.ID)
			return
		}
		if s.billing && s.st.Dunning != nil { // a working card during dunning: try the renewal again at once
			// An extra attempt: the next scheduled one stays.
			s.retryRenewal(ctx, "method:"+rec.ID, s.st.Dunning.RetryAt.Add(-time.Nanosecond))
		}
		return
	}
	if rec.InvoiceID == nil {
		return
	}
	late := &kudos.OpenCheckout{ID: rec.ID, ProviderID: rec.ProviderID, URL: rec.URL, Purpose: rec.Purpose, Plan: rec.Plan,
		InvoiceID: *rec.InvoiceID, ExpiresAt: rec.ExpiresAt}
	if s.newer(ctx, "late-payment-terms") {
		// What it was priced with: the promotion that discounts the
		// renewals after it, and the seats it buys (without them a late
		// seats payment was never owed, always refunded).
		late.ExtraSeats, late.Promotion = rec.ExtraSeats, rec.Promotion
	}
	if rec.TakenBack {
		// The bank took it back since (returned, or lost to a dispute),
		// applied before or not (a dispute lost before the payment's own
		// event came): what it paid for is owed again, or was never had,
		// but not by this payment.
		s.log.Info("a paid event of a payment taken back since: nothing applied", "event", ev.EventID, "checkout", rec.ID)
		return
	}
	// Priced from a plan or seats the account no longer has (it upgraded
	// or bought seats otherwise meanwhile): applied "up to" its target,
	// part of what it bought would be paid twice. Not owed: refunded.
	elsewhere := rec.PricedFromElsewhere(s.st.Plan, s.st.ExtraSeats) && s.newer(ctx, "late-priced-from")
	owed := func() bool { return !elsewhere && s.owed(late) }
	if rec.Status == "paid" && (!s.round3 || !owed()) {
		// Applied before (a duplicate event). Unless what it paid for is
		// still owed here: a run reset to before it, or rebuilt from the
		// read model, applies it again (every write is idempotent).
		return
	}
	if s.st.Deleting && rec.Status != "paid" && !s.st.Owes(late.InvoiceID) && s.newer(ctx, "late-while-deleting") {
		// The owner is deleting the account: nothing starts or changes
		// during the grace (a debt owed since a return is still settled;
		// a payment applied before, met again by a reset run, stays).
		// The money goes back, as it would after the erasure.
		s.log.Info("late payment during the account's deletion: refunded", "checkout", rec.ID)
		s.refund(ctx, rec.ID)
		return
	}
	if owed() && s.st.Checkout != nil {
		_ = s.expireOpenCheckout(ctx) // the customer paid the earlier one: the newer one goes
	}
	if !owed() || s.st.Checkout != nil {
		s.log.Info("late payment for something paid otherwise: refunded", "checkout", rec.ID)
		s.refund(ctx, rec.ID)
		return
	}
	s.log.Info("late payment applied", "checkout", rec.ID)
	s.settlePaid(ctx, late, "")
}

// owed reports whether what checkout c pays for is still unpaid: the trial
// still has no plan, the plan is still below the upgrade, the invoice is
// still the due one. A payment method is always taken (it is only saved).
func (s *subscription) owed(c *kudos.OpenCheckout) bool {
	switch c.Purpose {
	case kudos.CheckoutSubscription:
		return s.st.Plan == kudos.PlanTrial
	case kudos.CheckoutUpgrade:
		if s.billing && !s.upgradeOfThisPeriod(c) {
			return false
		}
		return s.st.Plan.IsPaid() && s.st.Status == kudos.StatusActive && kudos.PlanRank(s.st.Plan) < kudos.PlanRank(c.Plan)
	case kudos.CheckoutSeats: // more seats for the rest of the period they were priced in
		return s.st.Plan == kudos.PlanTeam && s.st.Status == kudos.StatusActive && s.upgradeOfThisPeriod(c) &&
			s.st.ExtraSeats < c.ExtraSeats
	case kudos.CheckoutInvoice, kudos.CheckoutRenewal: // due, or the renewal being retried
		_, ok := s.payable(c.InvoiceID)
		return ok
	case kudos.CheckoutPaymentMethod:
		return true
	}
	return false
}

// upgradeOfThisPeriod reports whether upgrade checkout c was priced in the
// current period (opened since it began, and no renewal of it is being
// retried or settling): an upgrade prorates the rest of the period it was
// opened in.
func (s *subscription) upgradeOfThisPeriod(c *kudos.OpenCheckout) bool {
	if s.st.Dunning != nil || s.st.PendingRenewal != nil { // the period it prorated has ended
		return false
	}
	opened := c.ExpiresAt.Add(-s.st.CheckoutTTL)
	return s.st.PeriodStartedAt == nil || !opened.Before(*s.st.PeriodStartedAt)
}

// settlePaid applies a paid checkout: in one activity and one Postgres
// transaction the checkout is paid, its invoice PAID and numbered, and the
// subscription row moved on; the PDF is rendered after, and the receipt
// queued. Runs since "billing-lifecycle" version 2 do all of it in one
// local activity (SettlePayment); histories from before replay the steps
// they recorded.
// applied is the payment event the settlement applies ("" : none), marked
// applied in its transaction.
func (s *subscription) settlePaid(ctx workflow.Context, c *kudos.OpenCheckout, applied string) {
	if !s.newer(ctx, "settle-paid-in-one") {
		s.closeCheckout(ctx, c, kudos.PaymentPaid, false)
		s.renderPDF(ctx, c.InvoiceID)
		s.applyPaid(ctx, c)
		return
	}
	newPeriod := s.movePaid(ctx, c)
	if s.st.Checkout != nil && s.st.Checkout.ID == c.ID {
		s.st.Checkout = nil
	}
	settle := SettlePaidInput{AccountID: s.st.AccountID, CheckoutID: c.ID, Purpose: c.Purpose, InvoiceID: c.InvoiceID, Record: s.st.Record(),
		AppliedEvent: applied, NewPeriod: newPeriod}
	if s.settlesInOne {
		_ = s.runLocal(ctx, ActivitySettlePayment, SettlePaymentInput{SettlePaidInput: settle, Receipt: s.receipt(ctx, c)}, nil)
		s.upsertSearchAttributes(ctx)
		return
	}
	_ = s.runShort(ctx, ActivitySettlePaidCheckout, settle, nil)
	s.upsertSearchAttributes(ctx)
	s.renderPDF(ctx, c.InvoiceID)
	if r := s.receipt(ctx, c); r != nil {
		s.queueMail(ctx, *r)
	}
}

// applyPaid moves the subscription on after a paid checkout and records it.
func (s *subscription) applyPaid(ctx workflow.Context, c *kudos.OpenCheckout) {
	s.movePaid(ctx, c)
	s.record(ctx)
}

// movePaid moves the state on after a paid checkout (not recorded). It
// reports whether the payment starts a new period with an invoice billed
// for another: the due invoice of an expired plan, reactivating it.
func (s *subscription) movePaid(ctx workflow.Context, c *kudos.OpenCheckout) (newPeriod bool) {
	now := workflow.Now(ctx)
	startPeriod := func() {
		end := s.periodEnd(now)
		s.st.PeriodStartedAt, s.st.RenewalAt = &now, &end
		s.st.Status, s.st.AutoRenew = kudos.StatusActive, true
	}
	switch c.Purpose {
	case kudos.CheckoutSubscription:
		s.st.Plan = c.Plan
		startPeriod()
		s.takePromotion(c)
	case kudos.CheckoutUpgrade:
		s.st.Plan = c.Plan
		s.takePromotion(c)
		s.upgraded()
	case kudos.CheckoutSeats:
		s.seatsPaid(c)
	case kudos.CheckoutInvoice, kudos.CheckoutRenewal:
		if o, ok := s.takeOwed(c.InvoiceID); ok { // owed since its debit came back: settled, the plan is as it was
			s.paidOwed = &o
			return
		}
		if d := s.st.Dunning; d != nil && d.InvoiceID == c.InvoiceID { // the renewal being retried: the period keeps its date
			end := s.periodEnd(d.PeriodStart)
			s.st.PeriodStartedAt, s.st.RenewalAt = &d.PeriodStart, &end
			s.st.Dunning = nil
			s.renewed = true
			return
		}
		if due := s.st.Due; due != nil && due.Kind.WithinPeriod() && due.ID == c.InvoiceID && s.st.PeriodStartedAt != nil && s.st.RenewalAt != nil {
			// Extra seats or an upgrade of the period, unpaid once their
			// debit came back: paid now, the period goes on as it was (a
			// renewal date passed meanwhile renews at once).
			s.st.Plan, s.st.Due, s.st.Status = c.Plan, nil, kudos.StatusActive
			return
		}
		s.st.Plan = c.Plan // the due invoice of an expired plan: reactivated from now
		s.st.Due = nil
		startPeriod()
		return true
	}
	return false
}

// closeCheckout settles checkout c with outcome; when c is the open one it
// is closed and the state recorded (the status shown goes back from
// processing).
func (s *subscription) closeCheckout(ctx workflow.Context, c *kudos.OpenCheckout, outcome kudos.PaymentOutcome, expireAtProvider bool) {
	_ = s.run(ctx, ActivityCloseCheckout, CloseCheckoutInput{
		AccountID: s.st.AccountID, CheckoutID: c.ID, ProviderID: c.ProviderID, Purpose: c.Purpose, InvoiceID: c.InvoiceID,
		Outcome: outcome, ExpireAtProvider: expireAtProvider}, nil)
	if s.st.Checkout == nil || s.st.Checkout.ID != c.ID {
		return
	}
	s.st.Checkout = nil
	if outcome != kudos.PaymentPaid {
		s.record(ctx)
	}
}
