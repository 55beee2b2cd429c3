package workflows

import (
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Follow-ups (runs since lifecycle version 3): money the provider has not
// settled yet is asked about on a durable schedule instead of being waited
// for forever, and refunds the provider refused for now are tried again.
//
//   - A checkout complete with its payment settling (a SEPA debit) is asked
//     about every PendingCheck: a lost final webhook never leaves the
//     account processing. After PendingLimit it counts as failed (a payment
//     that still comes is a late one: applied if still owed, else refunded).
//   - A renewal charge the provider left processing becomes a pending
//     renewal: the plan stays active, the workflow waits on a timer (its
//     lock free, updates served at once) and asks again every PendingCheck
//     under the same idempotency key. After PendingLimit it is cancelled at
//     the provider when it can be, and then counts as failed (dunning); one
//     that cannot be cancelled is waited for, since charging again could
//     take the money twice.
//   - A refund refused for now is retried at RefundRetries after the first
//     refusal; after the last it is recorded as refused for an operator.

// followUps are the times of the follow-ups that are due at some point.
func (s *subscription) followUps() []time.Time {
	var at []time.Time
	if c := s.st.Checkout; c != nil && c.Pending && c.CheckAt != nil {
		at = append(at, *c.CheckAt)
	}
	if p := s.st.PendingRenewal; p != nil {
		at = append(at, p.CheckAt)
	}
	for _, r := range s.st.Refunds {
		at = append(at, r.RetryAt)
	}
	return at
}

// followUp runs the follow-ups that are due at now.
func (s *subscription) followUp(ctx workflow.Context, now time.Time) {
	if c := s.st.Checkout; c != nil && c.Pending && c.CheckAt != nil && !now.Before(*c.CheckAt) {
		s.followUpCheckout(ctx, c, now)
	}
	if p := s.st.PendingRenewal; p != nil && !now.Before(p.CheckAt) {
		s.followUpRenewal(ctx, p, now)
	}
	for _, r := range s.st.Refunds {
		if !now.Before(r.RetryAt) {
			s.retryRefund(ctx, r, now)
		}
	}
}

// markPending notes that checkout c's payment is settling, and when it is
// asked about next (runs since version 3).
func (s *subscription) markPending(ctx workflow.Context, c *kudos.OpenCheckout) {
	c.Pending = true
	if !s.round3 {
		return
	}
	now := workflow.Now(ctx)
	check, _ := s.lifecycle().Pending()
	next := now.Add(check)
	if c.PendingSince == nil {
		c.PendingSince = &now
	}
	c.CheckAt = &next
}

// followUpCheckout asks the provider how the settling payment of checkout
// c stands: settled, it is applied as if its event had come; still settling
// past PendingLimit, the checkout counts as failed.
func (s *subscription) followUpCheckout(ctx workflow.Context, c *kudos.OpenCheckout, now time.Time) {
	outcome, err := s.askProvider(ctx, c)
	if err != nil { // refused for good: the provider does not know it
		outcome = kudos.PaymentFailed
	}
	check, limit := s.lifecycle().Pending()
	if outcome == kudos.PaymentPending || outcome == "" {
		if c.PendingSince != nil && now.Sub(*c.PendingSince) < limit {
			next := now.Add(check)
			c.CheckAt = &next
			return
		}
		s.log.Error("a settling payment is past its limit: counted as failed (a payment that still comes is late)",
			"checkout", c.ID, "since", c.PendingSince)
		outcome = kudos.PaymentFailed
	}
	s.settleOpenCheckout(ctx, outcome, "")
}

// startPendingRenewal notes a renewal charge the provider left processing.
func (s *subscription) startPendingRenewal(ctx workflow.Context, p kudos.PendingCharge) {
	now := workflow.Now(ctx)
	check, _ := s.lifecycle().Pending()
	p.Since, p.CheckAt = now, now.Add(check)
	s.st.PendingRenewal = &p
	s.log.Info("renewal charge is processing: asked about again later", "charge", p.ChargeID)
	s.record(ctx)
}

// followUpRenewal asks the provider about the pending renewal charge under
// its own key (never a second charge): paid, the period starts; failed,
// dunning goes on; still processing past PendingLimit, it is cancelled at
// the provider if it can be (then failed), else waited for.
func (s *subscription) followUpRenewal(ctx workflow.Context, p *kudos.PendingCharge, now time.Time) {
	in := RenewalInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: p.InvoiceID, ChargeID: p.ChargeID}
	var res RenewalResult
	if err := s.run(ctx, ActivityChargeRenewal, in, &res); err != nil {
		res = RenewalResult{FailureReason: "refused"}
	}
	check, limit := s.lifecycle().Pending()
	if res.Pending && now.Sub(p.Since) >= limit {
		res = RenewalResult{} // decoded afresh: Pending is left out when false
		if err := s.run(ctx, ActivityCancelRenewalCharge, in, &res); err != nil {
			res = RenewalResult{Pending: true}
		}
		if res.Pending {
			s.log.Error("a renewal charge is still processing past its limit and cannot be cancelled: waiting for it",
				"charge", p.ChargeID, "since", p.Since)
		}
	}
	if res.Pending {
		p.CheckAt = now.Add(check)
		return
	}
	s.st.PendingRenewal = nil
	s.renewalCharged(ctx, *p, res)
}

// renewalCharged goes on from the outcome of the renewal charge p: paid,
// the period starts on its renewal date; not paid, the renewal is retried
// on the dunning schedule (or, in runs from before dunning, the plan
// expires).
//
// A charge that was settling (p.Since set) and failed moves the dunning
// schedule on by the time it spent settling (Dunning.RetryBase).
func (s *subscription) renewalCharged(ctx workflow.Context, p kudos.PendingCharge, res RenewalResult) {
	var shift time.Duration
	if !p.Since.IsZero() {
		shift = workflow.Now(ctx).Sub(p.Since)
	}
	if s.st.Dunning == nil || res.Paid {
		s.renderPDF(ctx, p.InvoiceID)
	}
	switch {
	case res.Paid:
		s.renewPaid(ctx, p.PeriodStart, p.InvoiceID)
	case s.st.Dunning != nil: // a retry of dunning
		base := s.st.Dunning.Base().Add(shift)
		s.st.Dunning.RetryBase = &base
		if !s.st.AutoRenew { // turned off while the retry was settling: the plan ends
			s.endDunningUnpaid(ctx)
			return
		}
		s.attemptFailed(ctx, p.Attempt, p.Slot.Add(shift), res)
	case s.billing && !s.st.AutoRenew && s.newer(ctx, "stopped-while-settling"):
		// Auto-renewal was turned off while the renewal's debit settled:
		// the owner declined the year, so its failure ends the plan (the
		// invoice due), as with a retry above; never a dunning that debits
		// the mandate again.
		s.st.Dunning = &kudos.Dunning{PeriodStart: *s.st.RenewalAt, InvoiceID: p.InvoiceID, Amount: res.Amount}
		s.endDunningUnpaid(ctx)
	case s.billing:
		s.startDunningShifted(ctx, p.InvoiceID, res, shift)
	default:
		s.log.Info("renewal declined", "reason", res.FailureReason)
		s.expirePlan(ctx, p.InvoiceID)
	}
}

// refund gives back the payment of checkoutID, which nothing owed: a
// refusal the provider says is temporary is tried again later (runs since
// version 3); one for good is recorded for an operator.
func (s *subscription) refund(ctx workflow.Context, checkoutID string) {
	ref := CheckoutRef{AccountID: s.st.AccountID, CheckoutID: checkoutID}
	if !s.round3 {
		if err := s.run(ctx, ActivityRefundCheckout, ref, nil); err != nil {
			s.log.Error("the provider refused a refund: needs an operator", "checkout", checkoutID, "err", err)
		}
		return
	}
	in := RefundInput{CheckoutRef: ref, Deferrable: true}
	var first time.Time
	if s.newer(ctx, "refunds-recorded") { // the row of a refusal for now says when it is tried next
		first = workflow.Now(ctx)
		in.RetryAt = first.Add(s.lifecycle().RefundSchedule()[0])
	}
	err := s.run(ctx, ActivityRefundCheckout, in, nil)
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, &app) && app.Type() == ErrTypeRefundDeferred:
		now := workflow.Now(ctx)
		p := kudos.PendingRefund{CheckoutID: checkoutID, FirstRefusedAt: now, RetryAt: now.Add(s.lifecycle().RefundSchedule()[0]),
			Reason: app.Message()}
		if !in.RetryAt.IsZero() { // as recorded
			p.FirstRefusedAt, p.RetryAt = first, in.RetryAt
		}
		s.st.Refunds = append(s.st.Refunds, p)
		s.log.Info("the provider refused a refund for now: tried again later", "checkout", checkoutID, "reason", app.Message())
	case err != nil:
		s.log.Error("the provider refused a refund: needs an operator", "checkout", checkoutID, "err", err)
	}
}

// retryRefund tries refund r again; the last try of the schedule records a
// refusal as refused.
func (s *subscription) retryRefund(ctx workflow.Context, r kudos.PendingRefund, now time.Time) {
	next, deferrable := s.lifecycle().NextRefundTry(r.FirstRefusedAt, now)
	in := RefundInput{CheckoutRef: CheckoutRef{AccountID: s.st.AccountID, CheckoutID: r.CheckoutID}, Deferrable: deferrable}
	if deferrable && s.newer(ctx, "refunds-recorded") {
		in.RetryAt = next
	}
	err := s.run(ctx, ActivityRefundCheckout, in, nil)
	var app *temporal.ApplicationError
	deferred := errors.As(err, &app) && app.Type() == ErrTypeRefundDeferred
	for i, p := range s.st.Refunds {
		if p.CheckoutID != r.CheckoutID {
			continue
		}
		if deferred {
			s.st.Refunds[i].RetryAt, s.st.Refunds[i].Reason = next, app.Message()
			return
		}
		s.st.Refunds = append(s.st.Refunds[:i:i], s.st.Refunds[i+1:]...)
		break
	}
	if err != nil {
		s.log.Error("the provider refused a refund: needs an operator", "checkout", r.CheckoutID, "err", err)
	}
}

// applyInbox applies the payment events an earlier run accepted and never
// applied (the state was rebuilt from the read model), before anything
// else: the caller holds the lock, so updates wait.
func (s *subscription) applyInbox(ctx workflow.Context) {
	inbox := s.st.Inbox
	s.st.Inbox = nil
	for _, ev := range inbox {
		s.onPaymentEvent(ctx, ev)
	}
}

// markApplied records in Postgres that payment event id is applied (runs
// since version 3; "" : nothing to mark), so that a run rebuilt from the
// read model does not apply it again, and one that was lost before it is
// applied gets it again.
func (s *subscription) markApplied(ctx workflow.Context, id string) {
	if id == "" {
		return
	}
	_ = s.runLocal(ctx, ActivityMarkEventsApplied, MarkEventsAppliedInput{AccountID: s.st.AccountID, EventIDs: []string{id}}, nil)
}

// updateKey derives an id from the update being handled (its id survives a
// reset that re-applies it) and what: a checkout opened again by the same
// update is the same checkout, never a second one. Outside an update, and
// in runs from before version 3, the id is random (recorded).
func (s *subscription) updateKey(ctx workflow.Context, what string) uuid.UUID {
	if info := workflow.GetCurrentUpdateInfo(ctx); s.round3 && info != nil && info.ID != "" {
		return uuid.NewSHA1(updateNamespace, []byte(s.st.AccountID.String()+"/"+info.ID+"/"+what))
	}
	return s.newUUID(ctx)
}

// updateNamespace scopes the ids derived from updates.
var updateNamespace = uuid.MustParse("0b7e54a4-3d0f-4f59-a1a2-5c8f3e9d2b61")
