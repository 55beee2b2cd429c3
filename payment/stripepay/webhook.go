package stripepay

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"kudos"
)

// ParseWebhook verifies a Stripe webhook delivery and turns it into a payment
// event. A missing, bad or stale (over 300 s) signature is EBadRequest.
//
// Checkout Session events arrive late, twice and out of order, so the event's
// copy of the session is not trusted: the session is read again from Stripe
// and its current state decides the outcome. A session that is complete and
// paid (or needs no payment, as in setup mode) is PaymentPaid, an expired
// one PaymentExpired, one whose delayed payment failed PaymentFailed, one
// complete whose payment is still settling PaymentPending; one still open
// gives a nil event. The events of off-session charges (payment_intent.*)
// and refunds (charge.refunded, refund.updated) are parseMovement's
// (ledger.go); disputes and returned SEPA debits are parseLedgerEvent's
// (disputes.go). Other event types, and sessions Kudos did not make, are
// acknowledged and ignored: (nil, nil).
//
// The event's API version is not checked against stripe-go's: only the
// event's id, type, time and session id are read from it, and those do not
// change between versions.
func (p *Provider) ParseWebhook(ctx context.Context, payload []byte, signatureHeader string) (*kudos.PaymentEvent, error) {
	ev, err := webhook.ConstructEventWithOptions(payload, signatureHeader, p.webhookSecret, webhook.ConstructEventOptions{
		Tolerance:                webhook.DefaultTolerance,
		IgnoreAPIVersionMismatch: true,
	})
	if err != nil {
		return nil, kudos.Errorf(kudos.EBadRequest, "Invalid Stripe webhook")
	}
	return p.readEvent(ctx, &ev)
}

// readEvent is the intake of a verified Stripe event, whether a webhook
// delivered it (ParseWebhook) or the provider reconciliation found it in
// Stripe's list of events (ReadEvent): the payment event it announces,
// or nil for events of no interest.
func (p *Provider) readEvent(ctx context.Context, ev *stripe.Event) (*kudos.PaymentEvent, error) {
	if isMovementEvent(ev.Type) { // issue 36: off-session charges and refunds
		return p.parseMovement(ctx, *ev)
	}
	if ledgerEventTypes[ev.Type] { // disputes and returned debits (disputes.go)
		return p.parseLedgerEvent(ctx, *ev)
	}
	switch ev.Type {
	case stripe.EventTypeCheckoutSessionCompleted,
		stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripe.EventTypeCheckoutSessionAsyncPaymentFailed,
		stripe.EventTypeCheckoutSessionExpired:
	default:
		return nil, nil
	}
	var sessionID string
	if ev.Data != nil {
		sessionID, _ = ev.Data.Object["id"].(string)
	}
	if ev.ID == "" || sessionID == "" {
		return nil, kudos.Errorf(kudos.EBadRequest, "Stripe event without a checkout session")
	}
	s, err := p.sc.V1CheckoutSessions.Retrieve(ctx, sessionID, nil)
	if err != nil {
		return nil, fmt.Errorf("stripepay: event %s: get checkout session %s: %w", ev.ID, sessionID, err)
	}
	checkoutID := s.Metadata[metaCheckoutID]
	accountID, err := uuid.Parse(s.Metadata[metaAccountID])
	if err != nil || accountID == uuid.Nil || checkoutID == "" {
		// A session made outside Kudos (another integration on the same
		// Stripe account, the Dashboard): acknowledged, so that Stripe does
		// not retry it for days, and ignored.
		return nil, nil
	}
	outcome := sessionOutcome(ev.Type, s)
	if outcome == "" {
		return nil, nil
	}
	return &kudos.PaymentEvent{
		EventID:    ev.ID,
		Provider:   p.Name(),
		CheckoutID: checkoutID,
		AccountID:  accountID,
		Outcome:    outcome,
		OccurredAt: time.Unix(ev.Created, 0).UTC(),
	}, nil
}

// sessionOutcome is what the session's current state says about the payment:
// "" while it is still open, PaymentPending while it is complete and its
// delayed payment not settled. A failed delayed payment leaves the session
// complete and unpaid like a pending one: a failure notice, or the
// session's PaymentIntent (when expanded: back to requires_payment_method,
// or cancelled), tells them apart.
func sessionOutcome(typ stripe.EventType, s *stripe.CheckoutSession) kudos.PaymentOutcome {
	paid := s.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid ||
		s.PaymentStatus == stripe.CheckoutSessionPaymentStatusNoPaymentRequired
	switch {
	case s.Status == stripe.CheckoutSessionStatusComplete && paid:
		return kudos.PaymentPaid
	case s.Status == stripe.CheckoutSessionStatusExpired:
		return kudos.PaymentExpired
	case typ == stripe.EventTypeCheckoutSessionAsyncPaymentFailed && !paid:
		return kudos.PaymentFailed
	case s.Status == stripe.CheckoutSessionStatusComplete && s.PaymentIntent != nil &&
		(s.PaymentIntent.Status == stripe.PaymentIntentStatusRequiresPaymentMethod || s.PaymentIntent.Status == stripe.PaymentIntentStatusCanceled):
		return kudos.PaymentFailed
	case s.Status == stripe.CheckoutSessionStatusComplete:
		return kudos.PaymentPending // a delayed method (SEPA debit) is settling
	}
	return ""
}
