package workflows

import (
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
