package workflows

import (
	"slices"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Disputes and returned debits (issue 36 item 3): money the provider takes
// back after a payment succeeded, applied once by the workflow like any
// payment event. Decided as Stripe Billing leaves it to the integration
// and written in docs/runbook-payments.md:
//
//   - An opened dispute is booked (timeline dispute_opened, the disputes
//     row) and held in the state (DisputeOpen search attribute, the
//     query): the plan goes on while the network decides.
//   - Won: booked (dispute_won); nothing else changes.
//   - Lost: booked (dispute_lost: the amount is lost), the sale is reversed
//     by a credit note, and when the disputed payment paid the period
//     running now, that period is unpaid: the plan expires at once with a
//     new DUE_PAYMENT invoice that 'continue with plan' pays, as when a
//     renewal ends unpaid. The disputed payment method is not charged
//     again (a second charge of a contested card invites a second dispute;
//     Stripe never retries a disputed payment either).
//   - A returned debit (payment_returned) makes the invoice it paid due
//     again and, when it paid the period running now, is a failed payment
//     of it: dunning on the schedule (the customer is mailed, the charge
//     retried, the plan expires when the schedule is used up), as for a
//     failed renewal.

// onLedgerEvent applies a dispute's or a returned debit's event and
// reports whether ev was one. applied is the event to mark applied ("" :
// none): with the last write of what the workflow does about the booking
// (change "ledger-applied-last"; before it, with the booking, so a run
// lost, or a booking's report lost, between the two lost what the event
// does), or after it when it writes nothing.
func (s *subscription) onLedgerEvent(ctx workflow.Context, ev kudos.PaymentEvent, applied string) bool {
	if ev.Dispute == nil && ev.Return == nil {
		return false
	}
	if !s.newer(ctx, "disputes-and-returns") { // never true for a run that can receive one: no history before had them
		return false
	}
	var b ledgerBooking
	if applied != "" && s.newer(ctx, "ledger-applied-last") {
		b.event, s.applyLast = applied, applied
	} else {
		b.applied = applied
	}
	if ev.Dispute != nil {
		s.onDispute(ctx, ev, b)
	} else {
		s.onReturn(ctx, ev, b)
	}
	if s.applyLast != "" { // nothing written after the booking
		s.markApplied(ctx, s.applyLast)
		s.applyLast = ""
	}
	return true
}

// ledgerBooking names the payment event a ledger booking applies: applied
// is marked with the booking (runs from before "ledger-applied-last"),
// event is not (it is marked with what the workflow does about it).
type ledgerBooking struct{ applied, event string }

// onDispute books dispute event ev and moves the state on as it says.
func (s *subscription) onDispute(ctx workflow.Context, ev kudos.PaymentEvent, b ledgerBooking) {
	d := *ev.Dispute
	var res kudos.DisputeApplied
	if err := s.runFolded(ctx, "ledger-local", ActivityRecordDispute, DisputeInput{AccountID: s.st.AccountID, Dispute: d, At: ev.OccurredAt,
		AppliedEvent: b.applied, Event: b.event}, &res); err != nil {
		s.log.Error("a dispute event could not be booked: needs an operator", "event", ev.EventID, "dispute", d.ID, "err", err)
		return
	}
	if !res.Changed {
		return
	}
	s.st.Disputes = slices.DeleteFunc(s.st.Disputes, func(o kudos.OpenDispute) bool { return o.ID == d.ID })
	if res.Status == kudos.DisputeOpen {
		o := kudos.OpenDispute{ID: d.ID, Amount: d.Amount, OpenedAt: res.OpenedAt}
		if res.InvoiceID != nil {
			o.InvoiceID = *res.InvoiceID
		}
		s.st.Disputes = append(s.st.Disputes, o)
	}
	s.log.Info("dispute booked", "dispute", d.ID, "status", res.Status, "invoice", res.InvoiceID)
	s.upsertDisputeOpen(ctx)
	if res.Status != kudos.DisputeLost {
		s.recordLast(ctx)
		return
	}
	if res.CreditNoteID != nil {
		s.renderPDF(ctx, *res.CreditNoteID)
	}
	if res.RefundedBefore && s.newer(ctx, "disputed-after-refund") {
		// The customer had all of it back already, by the refund: the lost
		// dispute moved no money, so it changes nothing of the plan (which
		// went on after the refund) and bills nothing again.
		s.log.Info("a dispute lost on a payment refunded in full before: nothing changes", "dispute", d.ID)
		s.recordLast(ctx)
		return
	}
	if !s.paysRunningPeriod(ctx, res.Service) {
		s.recordLast(ctx)
		return
	}
	switch {
	case res.Kind == kudos.InvoiceSeats && s.newer(ctx, "disputed-extras") &&
		!s.outgrown(ctx, res, s.st.Plan, max(0, s.st.ExtraSeats-res.Seats)):
		s.seatsLost(ctx, d.ID, res.Seats)
	case res.Kind == kudos.InvoiceUpgrade && s.upgradeTakenBack(res) && s.newer(ctx, "disputed-extras") &&
		!s.outgrown(ctx, res, res.PlanBefore, 0):
		s.upgradeLost(ctx, d.ID, res.PlanBefore)
	default:
		s.disputeLost(ctx, d.ID, res.Discount)
	}
}

// outgrown reports whether the members of the account (res.Members, at the
// booking) no longer fit plan with extraSeats, what would be left once the
// upgrade or seats whose payment was lost are taken back. Taking them back
// alone would then leave a team on a plan too small for it, renewing at
// that plan's price for as long as it likes: a chargeback as a lasting
// discount. The period counts as unpaid instead (runs since
// "disputed-extras-outgrown").
func (s *subscription) outgrown(ctx workflow.Context, res kudos.DisputeApplied, plan kudos.Plan, extraSeats int) bool {
	return res.Members > 0 && kudos.CheckPlanFits(plan, extraSeats, res.Members) != nil &&
		s.newer(ctx, "disputed-extras-outgrown")
}

// upgradeTakenBack reports whether the upgrade whose payment was lost
// (res) can be taken back alone: it is the plan the account is on, the
// plan before it was paid for the period, and nothing was bought or
// scheduled on top of it (extra seats, a change at the renewal). Otherwise
// the period counts as unpaid (disputeLost).
func (s *subscription) upgradeTakenBack(res kudos.DisputeApplied) bool {
	return res.Plan == s.st.Plan && res.PlanBefore.IsPaid() && kudos.PlanRank(res.PlanBefore) < kudos.PlanRank(res.Plan) &&
		s.st.ExtraSeats == 0 && s.st.ScheduledPlan == "" && s.st.ScheduledExtraSeats == nil
}

// upgradeLost takes back the upgrade whose payment was lost to dispute
// disputeID: that payment bought the move to the higher plan for the rest
// of the period, not the period, so the account is on the plan it paid the
// period at again (before), at once, with its renewal date and auto-renewal
// as they were. No invoice is made due: the customer has the money back.
// An open checkout is closed first, as for a lost period.
func (s *subscription) upgradeLost(ctx workflow.Context, disputeID string, before kudos.Plan) {
	if c := s.st.Checkout; c != nil && !c.Pending {
		_ = s.expireOpenCheckout(ctx)
	}
	s.log.Info("upgrade taken back: its payment was lost to a dispute", "dispute", disputeID, "plan", s.st.Plan, "back_to", before)
	s.st.Plan = before
	s.recordLast(ctx)
}

// seatsLost takes back the extra seats whose payment was lost to dispute
// disputeID: that payment bought them, not the period, so the plan goes on
// as it was paid and only they go, at once (no invoice is made due: the
// customer has the money back and the seats are no longer given). A
// reduction scheduled for the renewal that no longer reduces anything is
// dropped. The members stay; invitations wait for a free seat. An open
// checkout is closed first: one of more seats was priced from the seats
// being taken back.
func (s *subscription) seatsLost(ctx workflow.Context, disputeID string, seats int) {
	if c := s.st.Checkout; c != nil && !c.Pending {
		_ = s.expireOpenCheckout(ctx)
	}
	s.st.ExtraSeats = max(0, s.st.ExtraSeats-seats)
	if n := s.st.ScheduledExtraSeats; n != nil && *n >= s.st.ExtraSeats {
		s.st.ScheduledExtraSeats = nil
	}
	s.log.Info("extra seats taken back: their payment was lost to a dispute", "dispute", disputeID, "seats", seats,
		"extra_seats", s.st.ExtraSeats)
	s.recordLast(ctx)
}

// disputeLost leaves the running period unpaid after its payment was lost
// to dispute disputeID: an open checkout is closed first (its payment, if
// it came, is applied as the provider says), then the plan expires with a
// new DUE_PAYMENT invoice of a year of its plan and extra seats, less
// discount (the disputed invoice's promotion: nil, none), and the customer
// is told.
func (s *subscription) disputeLost(ctx workflow.Context, disputeID string, discount *kudos.Discount) {
	if c := s.st.Checkout; c != nil && !c.Pending {
		_ = s.expireOpenCheckout(ctx)
	}
	if d := s.st.Dunning; d != nil && d.Returned && s.newer(ctx, "dispute-ends-dunning") {
		// Another payment of the period came back before and is being
		// retried (extra seats, an upgrade): the period it belongs to is
		// lost now, so nothing is charged for it any more and its dunning
		// never ends in its invoice replacing the year's due one.
		s.holdDunningOwed()
	}
	due := uuid.NewSHA1(updateNamespace, []byte(s.st.AccountID.String()+"/dispute/"+disputeID))
	// A year of the plan with the seats it keeps, as a renewal bills it, at
	// the price agreed for the year lost (the disputed invoice's discount).
	_ = s.run(ctx, ActivityCreateDueInvoice, DueInvoiceInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: due,
		ExtraSeats: s.st.ExtraSeats, Discount: discount}, nil)
	s.renderPDF(ctx, due)
	now := workflow.Now(ctx)
	// The mail after the write: it is delivered only while the plan is
	// still expired (store.BillingMailCurrent).
	s.expirePlan(ctx, due)
	s.mail(ctx, kudos.MailPlanExpired, "expired:dispute:"+disputeID, kudos.MailBilling{Plan: s.st.Plan, InvoiceID: &due, Date: &now})
	s.wake.SendAsync(true)
}

// onReturn books a returned debit: the invoice it paid is due again, and
// when that invoice paid the period running now, dunning starts on it as
// for a failed renewal (measured from now).
func (s *subscription) onReturn(ctx workflow.Context, ev kudos.PaymentEvent, b ledgerBooking) {
	r := *ev.Return
	var res ReturnResult
	if err := s.run(ctx, ActivityReturnPayment, ReturnInput{AccountID: s.st.AccountID, Return: r, At: ev.OccurredAt,
		AppliedEvent: b.applied, Event: b.event}, &res); err != nil {
		s.log.Error("a returned payment could not be booked: needs an operator", "event", ev.EventID, "payment", r.Payment, "err", err)
		return
	}
	if res.InvoiceID == nil {
		s.log.Info("a returned payment settled no paid invoice: nothing to do", "event", ev.EventID, "payment", r.Payment)
		return
	}
	s.log.Info("payment returned: its invoice is due again", "invoice", *res.InvoiceID, "reason", r.Reason)
	if s.applyLast != "" {
		// Booked before and not applied (this booking run again): a run
		// rebuilt meanwhile read the invoice, due again, as owed; what
		// the return does is decided here, as the first time.
		s.takeOwed(*res.InvoiceID)
	}
	// Owed, not collected again: a payment of an ended period, one while
	// a renewal is being collected, and any while the account waits for
	// its deletion (its owner asked to delete it: nothing is charged
	// off-session and no hosted page opens during the grace).
	if !s.paysRunningPeriod(ctx, res.Service) || s.st.Dunning != nil || s.st.PendingRenewal != nil ||
		(res.Deleting && s.newer(ctx, "returned-while-deleting")) {
		if s.newer(ctx, "returned-owed") {
			s.owe(ctx, r, res)
		}
		s.recordLast(ctx)
		return
	}
	s.returnedDunning(ctx, kudos.OwedInvoice{ID: *res.InvoiceID, Plan: res.Plan, Service: res.Service, Amount: &res.Amount, Kind: res.Kind},
		r.Reason)
}

// returnedDunning starts the dunning of returned invoice o (its amount
// set) of the period running now, measured from now, as for a failed
// renewal; reason is the bank's ("" : payment_returned). An open checkout
// is closed first.
func (s *subscription) returnedDunning(ctx workflow.Context, o kudos.OwedInvoice, reason string) {
	if c := s.st.Checkout; c != nil && !c.Pending {
		_ = s.expireOpenCheckout(ctx)
	}
	now := workflow.Now(ctx)
	amount := *o.Amount
	s.st.Dunning = &kudos.Dunning{PeriodStart: *s.st.PeriodStartedAt, InvoiceID: o.ID, Amount: amount, RetryBase: &now, Returned: true,
		Plan: o.Plan, Service: o.Service}
	if o.Kind.WithinPeriod() && s.newer(ctx, "returned-extras") {
		// What it bought is part of the period: paid later, the period goes on.
		s.st.Dunning.Kind = o.Kind
	}
	if reason == "" {
		reason = "payment_returned"
	}
	s.attemptFailed(ctx, "returned:"+stamp(now), now, RenewalResult{FailureReason: reason, Amount: amount})
	s.wake.SendAsync(true)
}

// collectOwed starts the dunning of an owed invoice of the period running
// now once nothing holds it owed any more: it was returned while another
// dunning ran, a renewal settled or the deletion was scheduled, and that
// has ended (the other dunning paid, the deletion cancelled). Left owed,
// the plan ran to its renewal on money the bank took back. Not while a
// checkout is open (the customer may be paying it), nor for one owed
// before its amount was kept.
func (s *subscription) collectOwed(ctx workflow.Context) {
	i := s.owedToCollect(ctx)
	if i < 0 || !s.newer(ctx, "owed-collected") {
		return
	}
	o, _ := s.takeOwed(s.st.Owed[i].ID)
	s.log.Info("an owed invoice of the running period is collected: nothing holds it owed any more", "invoice", o.ID)
	s.returnedDunning(ctx, o, "")
}

// owe holds the invoice of returned debit r (res) as owed when no dunning
// retries it: the customer is told it came back and pays the invoice from
// the billing page (payable); the plan is not touched.
func (s *subscription) owe(ctx workflow.Context, r kudos.ReturnEvent, res ReturnResult) {
	id := *res.InvoiceID
	if s.st.Owes(id) {
		return
	}
	amount := res.Amount
	s.st.Owed = append(s.st.Owed, kudos.OwedInvoice{ID: id, Plan: res.Plan, Service: res.Service, Amount: &amount, Kind: res.Kind})
	s.mail(ctx, kudos.MailPaymentFailed, "returned:"+id.String()+":"+r.Payment,
		kudos.MailBilling{Plan: res.Plan, InvoiceID: &id, InvoiceNumber: res.Number, Amount: &amount, Returned: true})
}

// holdDunningOwed stops the dunning of a returned invoice without a
// payment and without ending the plan: the invoice stays due, held as
// owed (payable, the plan untouched; collectOwed resumes it once nothing
// holds it owed, while its period runs).
func (s *subscription) holdDunningOwed() {
	d := s.st.Dunning
	amount, plan := d.Amount, d.Plan
	if plan == "" {
		plan = s.st.Plan
	}
	s.st.Owed = append(s.st.Owed, kudos.OwedInvoice{ID: d.InvoiceID, Plan: plan, Service: d.Service, Amount: &amount, Kind: d.Kind})
	s.st.Dunning = nil
}

// owedToCollect is the index in Owed of the invoice collectOwed collects
// (-1: none).
func (s *subscription) owedToCollect(ctx workflow.Context) int {
	if s.st.Dunning != nil || s.st.PendingRenewal != nil || s.st.Deleting || s.st.Checkout != nil {
		return -1
	}
	return slices.IndexFunc(s.st.Owed, func(o kudos.OwedInvoice) bool { return o.Amount != nil && s.paysRunningPeriod(ctx, o.Service) })
}

// takeOwed removes owed invoice id from the state and returns it, or false
// when it is not owed.
func (s *subscription) takeOwed(id uuid.UUID) (kudos.OwedInvoice, bool) {
	i := slices.IndexFunc(s.st.Owed, func(o kudos.OwedInvoice) bool { return o.ID == id })
	if i < 0 {
		return kudos.OwedInvoice{}, false
	}
	o := s.st.Owed[i]
	s.st.Owed = slices.Delete(slices.Clone(s.st.Owed), i, i+1)
	return o, true
}

// paysRunningPeriod reports whether an invoice of service period p pays
// the period of the active paid plan running now.
func (s *subscription) paysRunningPeriod(ctx workflow.Context, p *kudos.ServicePeriod) bool {
	now := workflow.Now(ctx)
	return p != nil && s.st.Plan.IsPaid() && s.st.Status == kudos.StatusActive && s.st.PeriodStartedAt != nil &&
		!now.Before(p.From) && now.Before(p.To)
}

// upsertDisputeOpen sets the DisputeOpen search attribute to whether a
// dispute is open, when it changed (its own command: runs that never had a
// dispute never set it).
func (s *subscription) upsertDisputeOpen(ctx workflow.Context) {
	open := len(s.st.Disputes) > 0
	if s.disputeOpen != nil && *s.disputeOpen == open {
		return
	}
	s.disputeOpen = &open
	_ = workflow.UpsertTypedSearchAttributes(ctx, DisputeOpenKey.ValueSet(open))
}
