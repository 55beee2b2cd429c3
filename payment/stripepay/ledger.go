package stripepay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// Money that moves outside a hosted checkout (issue 36 item 1): an
// off-session charge that settles, fails or needs the customer, and a
// refund made by Kudos or in Stripe's dashboard. As for checkout sessions,
// the event's copy of the object is not trusted (events come late, twice
// and out of order): the object is read again and its current state
// decides.

// metaRefundID is the metadata key of our id on the refunds Kudos makes.
const metaRefundID = "refund_id"

// isMovementEvent reports whether typ is an event of issue 36 item 1.
func isMovementEvent(typ stripe.EventType) bool {
	switch typ {
	case stripe.EventTypePaymentIntentSucceeded, stripe.EventTypePaymentIntentProcessing,
		stripe.EventTypePaymentIntentPaymentFailed, stripe.EventTypePaymentIntentRequiresAction,
		stripe.EventTypeChargeRefunded, stripe.EventTypeRefundCreated, stripe.EventTypeRefundUpdated,
		stripe.EventTypeRefundFailed:
		return true
	}
	return false
}

// parseMovement turns a verified movement event into a payment event, nil
// for one of no interest: a PaymentIntent Kudos did not charge off-session
// (a checkout's, whose session events tell it; another integration's), a
// refund of a payment Kudos did not take, or a PaymentIntent still waiting
// to be confirmed. A refund.updated of a refund that failed or was
// cancelled is a kudos.MovementRefundFailed.
func (p *Provider) parseMovement(ctx context.Context, ev stripe.Event) (*kudos.PaymentEvent, error) {
	var objectID string
	if ev.Data != nil {
		objectID, _ = ev.Data.Object["id"].(string)
	}
	if ev.ID == "" || objectID == "" {
		return nil, kudos.Errorf(kudos.EBadRequest, "Stripe event without an object")
	}
	out := &kudos.PaymentEvent{EventID: ev.ID, Provider: p.Name(), OccurredAt: time.Unix(ev.Created, 0).UTC()}
	switch ev.Type {
	case stripe.EventTypeChargeRefunded, stripe.EventTypeRefundCreated, stripe.EventTypeRefundUpdated, stripe.EventTypeRefundFailed:
		return p.refundEvent(ctx, ev, objectID, out)
	}
	pi, err := p.sc.V1PaymentIntents.Retrieve(ctx, objectID, nil)
	if err != nil {
		return nil, fmt.Errorf("stripepay: event %s: get payment intent %s: %w", ev.ID, objectID, err)
	}
	accountID, err := uuid.Parse(pi.Metadata[metaAccountID])
	chargeID := pi.Metadata[metaChargeID]
	if err != nil || accountID == uuid.Nil || chargeID == "" {
		return nil, nil
	}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded:
		out.Outcome = kudos.PaymentPaid
	case stripe.PaymentIntentStatusProcessing, stripe.PaymentIntentStatusRequiresCapture:
		out.Outcome = kudos.PaymentPending
	case stripe.PaymentIntentStatusRequiresPaymentMethod, stripe.PaymentIntentStatusCanceled, stripe.PaymentIntentStatusRequiresAction:
		out.Outcome = kudos.PaymentFailed // declined, or needs the customer: the renewal's dunning
	default:
		return nil, nil
	}
	out.AccountID = accountID
	out.LedgerMovement = kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: chargeID, PaymentID: pi.ID}
	if out.Outcome == kudos.PaymentPaid {
		// What was taken: a charge no longer owed (completed after the
		// renewal was paid otherwise, or after the account was erased) is
		// given back in full from it.
		m := money(pi.AmountReceived, pi.Currency)
		out.Amount = &m
	}
	return out, nil
}

// refundEvent reads the refund a charge.refunded, refund.created,
// refund.updated or refund.failed event is about. All but charge.refunded
// name the refund. A charge.refunded event names the charge, whose refunds
// Stripe no longer embeds (API 2022-11-15): the refund it reports is the
// charge's newest one made by the event's time. Two refunds made in the
// same second are both "newest" to it; each one's refund.created names it,
// and a refund is booked once whichever event reports it first.
func (p *Provider) refundEvent(ctx context.Context, ev stripe.Event, objectID string, out *kudos.PaymentEvent) (*kudos.PaymentEvent, error) {
	var r *stripe.Refund
	if ev.Type != stripe.EventTypeChargeRefunded {
		var err error
		if r, err = p.sc.V1Refunds.Retrieve(ctx, objectID, nil); err != nil {
			return nil, fmt.Errorf("stripepay: event %s: get refund %s: %w", ev.ID, objectID, err)
		}
	} else {
		lp := &stripe.RefundListParams{Charge: stripe.String(objectID)}
		lp.Limit = stripe.Int64(100)
		lp.Single = true
		for rf, err := range p.sc.V1Refunds.List(ctx, lp).All(ctx) {
			if err != nil {
				return nil, fmt.Errorf("stripepay: event %s: list refunds of %s: %w", ev.ID, objectID, err)
			}
			if rf.Created <= ev.Created && (r == nil || rf.Created > r.Created) {
				r = rf
			}
		}
	}
	// A refund that failed or was cancelled (the money never reached the
	// customer), as its refund.failed or refund.updated says, or as any
	// event naming it finds it now, is a movement of its own.
	failed := ev.Type != stripe.EventTypeChargeRefunded && r != nil &&
		(r.Status == stripe.RefundStatusFailed || r.Status == stripe.RefundStatusCanceled)
	if r == nil || (!failed && r.Status != stripe.RefundStatusSucceeded && r.Status != stripe.RefundStatusPending) || r.Amount <= 0 {
		return nil, nil
	}
	piID := ""
	if r.PaymentIntent != nil {
		piID = r.PaymentIntent.ID
	}
	if piID == "" {
		return nil, nil // a refund of a charge without a PaymentIntent: not one Kudos took
	}
	pi, err := p.sc.V1PaymentIntents.Retrieve(ctx, piID, nil)
	if err != nil {
		return nil, fmt.Errorf("stripepay: event %s: get payment intent %s: %w", ev.ID, piID, err)
	}
	accountID, err := uuid.Parse(pi.Metadata[metaAccountID])
	checkoutID, chargeID := pi.Metadata[metaCheckoutID], pi.Metadata[metaChargeID]
	if err != nil || accountID == uuid.Nil || (checkoutID == "" && chargeID == "") {
		return nil, nil
	}
	out.AccountID, out.CheckoutID, out.Outcome = accountID, checkoutID, kudos.PaymentPaid
	out.LedgerMovement = kudos.LedgerMovement{Movement: kudos.MovementRefund, PaymentID: pi.ID, ProviderRefundID: r.ID,
		RefundID: r.Metadata[metaRefundID], Amount: &kudos.Money{Amount: r.Amount, Currency: strings.ToUpper(string(r.Currency))}}
	if checkoutID == "" {
		out.ChargeID = chargeID
	}
	if failed {
		out.Movement, out.Reason = kudos.MovementRefundFailed, string(r.FailureReason)
		if out.Reason == "" {
			out.Reason = string(r.Status)
		}
	}
	return out, nil
}
