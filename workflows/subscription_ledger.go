package workflows

import (
	"strings"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Money that moves at the provider outside a hosted checkout (issue 36
// item 1) reaches the workflow as a payment event with a movement: an
// off-session charge that moved on (settled, failed, needing the
// customer), a refund (made by ops or in the provider's dashboard), or a
// refund that failed at the provider after it was made.
// Each is applied once, like a checkout's event: the event's id is
// remembered, and marked applied in Postgres once its application is over.
// The daily follow-up of a processing renewal (subscription_pending.go)
// stays as the safety net for an event that never comes.

// BookRefundInput asks for the booking of a refund the provider reports:
// its row, the credit note of the refunded part of the invoice it
// corrects (when the payment settled a numbered invoice), the customer's
// refund_issued mail and the timeline's refund event, once per refund
// (the same refund reported again, by ops and by the provider's event,
// books nothing new).
type BookRefundInput struct {
	AccountID uuid.UUID
	Event     kudos.PaymentEvent
}

// onMovement applies a movement's event (runs since "ledger-movements").
func (s *subscription) onMovement(ctx workflow.Context, ev kudos.PaymentEvent) {
	switch ev.Movement {
	case kudos.MovementCharge:
		p := s.st.PendingRenewal
		if p == nil || p.ChargeID != ev.ChargeID {
			if ev.Outcome == kudos.PaymentPaid && ev.ChargeID != "" && s.newer(ctx, "stray-charges") {
				s.strayCharge(ctx, ev)
				return
			}
			// A charge whose outcome was known when it was made (a card
			// paid or declined at once), or one of another period: the
			// workflow applied it already.
			s.log.Info("charge event for no processing charge: nothing to do", "event", ev.EventID, "charge", ev.ChargeID,
				"outcome", ev.Outcome)
			return
		}
		// The provider is asked under the charge's own key, as the daily
		// follow-up does: the event only says when (its copy may be stale
		// or out of order), never charges again.
		s.log.Info("renewal charge moved at the provider: asked now", "event", ev.EventID, "charge", ev.ChargeID, "outcome", ev.Outcome)
		s.followUpRenewal(ctx, p, workflow.Now(ctx))
		if s.st.PendingRenewal != nil { // still processing: the next ask stays on its schedule
			s.record(ctx)
		}
	case kudos.MovementRefund:
		err := s.runFolded(ctx, "ledger-local", ActivityBookRefund, BookRefundInput{AccountID: s.st.AccountID, Event: ev}, nil)
		if err != nil {
			s.log.Error("a refund made at the provider could not be booked: needs an operator", "event", ev.EventID,
				"refund", ev.ProviderRefundID, "err", err)
		}
	case kudos.MovementRefundFailed:
		if !s.newer(ctx, "refund-failures") {
			s.log.Info("refund failure event of a run from before: left to an operator", "event", ev.EventID, "refund", ev.ProviderRefundID)
			return
		}
		// The money did not go back: the refund is failed on the ledger
		// (its credit note stands, the customer is owed it) for an
		// operator to refund again.
		if err := s.run(ctx, ActivityRecordRefundFailure, RefundFailureInput{AccountID: s.st.AccountID, Event: ev}, nil); err != nil {
			s.log.Error("a refund's failure at the provider could not be recorded: needs an operator", "event", ev.EventID,
				"refund", ev.ProviderRefundID, "err", err)
		}
	default:
		s.log.Info("payment event of a movement this run does not know: left to a newer run", "event", ev.EventID,
			"movement", ev.Movement)
	}
}

// strayRefundReason is the reason recorded with the refund of a renewal
// charge completed when nothing was owed for it.
const strayRefundReason = "paid for a renewal no longer owed"

// strayCharge applies, or gives back, an off-session renewal charge the
// provider says was paid while the workflow was not waiting on it: a
// charge that needed the customer's authentication, which dunning replaced
// with the renewal's checkout, completed later by the customer (or by
// their bank, with a decoupled authentication). Money taken is never left
// unbooked:
//   - The renewal it was made for is still being retried, with no other
//     charge of it settling: it pays the renewal, as a paid retry would.
//     The renewal's checkout is closed first; paid there meanwhile, the
//     renewal is settled, and this charge is not owed.
//   - Otherwise (the renewal paid on its checkout, the plan ended, another
//     period's charge), it is refunded in full, with the customer's
//     receipt, unless it paid an invoice itself (a card paid at once: a
//     repeat of what the workflow applied).
//
// A charge is the retried renewal's only when its key is one of this
// dunning's own attempts (chargeOfRetried): the renewal's first charge,
// completed after its renewal was paid on its checkout, is not the
// returned upgrade's of the same period that is being retried now. And a
// charge the provider finds of another amount than the invoice retried
// (FailureChargeMismatch) is given back, never applied.
func (s *subscription) strayCharge(ctx workflow.Context, ev kudos.PaymentEvent) {
	if s.chargeOfRetried(ctx, ev.ChargeID) && s.st.PendingRenewal == nil {
		if c := s.openForRetried(); c != nil && !c.Pending {
			_ = s.expireOpenCheckout(ctx)
		}
		// A payment of the checkout still settling is refunded when it
		// comes, as any payment for what is no longer owed.
		if d := s.st.Dunning; d != nil {
			in := RenewalInput{AccountID: s.st.AccountID, Plan: s.st.Plan, InvoiceID: d.InvoiceID, ChargeID: ev.ChargeID}
			var res RenewalResult
			if err := s.run(ctx, ActivityChargeRenewal, in, &res); err != nil {
				// The provider reconciliation reports it (payment_missing).
				s.log.Error("a renewal charge completed by the customer could not be applied: needs an operator", "event", ev.EventID,
					"charge", ev.ChargeID, "err", err)
				return
			}
			switch {
			case !res.Paid && res.FailureReason == FailureChargeMismatch && s.newer(ctx, "stray-charge-own-attempts"):
				// Paid for something else than the invoice retried: given back below.
				s.log.Error("a charge completed by the customer is of another amount than the invoice retried: refunded",
					"charge", ev.ChargeID, "invoice", d.InvoiceID)
			case !res.Paid: // asked under its own key (never a second charge): the event was stale
				s.log.Info("a charge event says paid, the provider does not: nothing done", "event", ev.EventID, "charge", ev.ChargeID)
				return
			default:
				s.log.Info("a renewal charge completed by the customer paid the renewal being retried", "charge", ev.ChargeID)
				s.renderPDF(ctx, d.InvoiceID)
				s.renewPaid(ctx, d.PeriodStart, d.InvoiceID)
				return
			}
		}
	}
	if ev.Amount == nil {
		s.log.Error("a renewal charge was paid when nothing was owed, without its amount: needs an operator (refund it in the provider's dashboard)",
			"event", ev.EventID, "charge", ev.ChargeID)
		return
	}
	in := StrayChargeInput{ChargeRefundInput: ChargeRefundInput{AccountID: s.st.AccountID, ChargeID: ev.ChargeID, PaymentID: ev.PaymentID,
		Amount: *ev.Amount, Reason: strayRefundReason}, Plan: s.st.Plan}
	var res StrayChargeResult
	if err := s.run(ctx, ActivityRefundStrayCharge, in, &res); err != nil {
		s.log.Error("a renewal charge paid when nothing was owed could not be refunded: recorded for an operator", "charge", ev.ChargeID,
			"err", err)
		return
	}
	if res.Refunded {
		s.log.Info("a renewal charge paid when nothing was owed was refunded", "charge", ev.ChargeID)
	}
}

// chargeOfRetried reports whether chargeID is a charge (any attempt) of
// the renewal being retried. A returned debit's dunning retries an
// invoice of the period running now, whose key prefix the period's other
// charges share (its renewal's first charge, another returned invoice's
// retries): only its own attempts are its (attemptKey names its invoice;
// a stray attempt of its own made before "stray-charge-own-attempts" is
// refunded, as any other). A renewal's dunning has the period to itself.
func (s *subscription) chargeOfRetried(ctx workflow.Context, chargeID string) bool {
	d := s.st.Dunning
	if d == nil {
		return false
	}
	if d.Returned && s.newer(ctx, "stray-charge-own-attempts") {
		return strings.HasPrefix(chargeID, returnedAttemptPrefix(s.st.AccountID, d))
	}
	base := kudos.RenewalChargeID(s.st.AccountID, d.PeriodStart)
	return chargeID == base || strings.HasPrefix(chargeID, base+":")
}

// attemptKey is the prefix of the charge keys of dunning d's attempts (the
// attempt's name follows): the period's renewal key, and, for a returned
// debit's dunning (since "stray-charge-own-attempts"), the invoice it
// retries.
func (s *subscription) attemptKey(ctx workflow.Context, d *kudos.Dunning) string {
	if d.Returned && s.newer(ctx, "stray-charge-own-attempts") {
		return returnedAttemptPrefix(s.st.AccountID, d)
	}
	return kudos.RenewalChargeID(s.st.AccountID, d.PeriodStart) + ":"
}

// returnedAttemptPrefix is the prefix of the charge keys of a returned
// debit's dunning d: the period's renewal key and d's invoice.
func returnedAttemptPrefix(accountID uuid.UUID, d *kudos.Dunning) string {
	return kudos.RenewalChargeID(accountID, d.PeriodStart) + ":" + d.InvoiceID.String() + ":"
}
