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

var _ kudos.ProviderLedger = (*Provider)(nil)

// listLimit is the page size of Stripe's list calls (its maximum): the
// iterator of stripe-go fetches the next page when one is used up, so a
// listing holds one page in memory whatever its length.
const listLimit = 100

// createdIn is Stripe's created[gte] and created[lt] filter of [since,
// until), in whole seconds as Stripe keeps them.
func createdIn(since, until time.Time) *stripe.RangeQueryParams {
	return &stripe.RangeQueryParams{GreaterThanOrEqual: since.Unix(), LesserThan: until.Unix()}
}

// ListEvents implements kudos.ProviderLedger on GET /v1/events (Stripe
// keeps 30 days of them). Every type is listed: ReadEvent, the intake
// itself, decides which it reads, so that any event type the webhook
// intake learns is repaired too without a list to keep in step.
func (p *Provider) ListEvents(ctx context.Context, since, until time.Time, fn func(kudos.ProviderEvent) error) error {
	params := &stripe.EventListParams{CreatedRange: createdIn(since, until)}
	params.Limit = stripe.Int64(listLimit)
	for ev, err := range p.sc.V1Events.List(ctx, params).All(ctx) {
		if err != nil {
			return fmt.Errorf("stripepay: list events: %w", err)
		}
		if err := fn(kudos.ProviderEvent{ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC(), Raw: ev}); err != nil {
			return err
		}
	}
	return nil
}

// ReadEvent implements kudos.ProviderLedger: the webhook intake's reading
// of an event listed by ListEvents.
func (p *Provider) ReadEvent(ctx context.Context, ev kudos.ProviderEvent) (*kudos.PaymentEvent, error) {
	se, ok := ev.Raw.(*stripe.Event)
	if !ok || se == nil {
		return nil, fmt.Errorf("stripepay: event %s was not listed by Stripe", ev.ID)
	}
	return p.readEvent(ctx, se)
}

// kudosAccount is the Kudos account named by a Stripe object's metadata,
// or false for an object made outside Kudos.
func kudosAccount(meta map[string]string) (uuid.UUID, bool) {
	id, err := uuid.Parse(meta[metaAccountID])
	return id, err == nil && id != uuid.Nil
}

// paymentRef is Kudos's reference of a PaymentIntent from its metadata:
// its checkout's id, or its off-session charge's key ("" for neither).
func paymentRef(meta map[string]string) string {
	if ref := meta[metaCheckoutID]; ref != "" {
		return ref
	}
	return meta[metaChargeID]
}

// ListPayments implements kudos.ProviderLedger on GET /v1/payment_intents:
// the succeeded PaymentIntents Kudos made (a checkout's, carrying its
// checkout id, or an off-session charge's, carrying its charge id); a
// payment method's verification charge, refunded at once, is left out.
func (p *Provider) ListPayments(ctx context.Context, since, until time.Time, fn func(kudos.ProviderPayment) error) error {
	params := &stripe.PaymentIntentListParams{CreatedRange: createdIn(since, until)}
	params.Limit = stripe.Int64(listLimit)
	for pi, err := range p.sc.V1PaymentIntents.List(ctx, params).All(ctx) {
		if err != nil {
			return fmt.Errorf("stripepay: list payment intents: %w", err)
		}
		account, ok := kudosAccount(pi.Metadata)
		ref := paymentRef(pi.Metadata)
		if !ok || ref == "" || pi.Status != stripe.PaymentIntentStatusSucceeded {
			continue
		}
		if err := fn(kudos.ProviderPayment{ID: pi.ID, AccountID: account, Reference: ref,
			Amount:  kudos.Money{Amount: pi.AmountReceived, Currency: strings.ToUpper(string(pi.Currency))},
			Created: time.Unix(pi.Created, 0).UTC()}); err != nil {
			return err
		}
	}
	return nil
}

// ListRefunds implements kudos.ProviderLedger on GET /v1/refunds, with
// each refund's PaymentIntent expanded: a refund of a payment Kudos made,
// whether Kudos asked for it or it was made in Stripe's dashboard (which
// writes no metadata on the refund); a verification charge's refund is
// left out, as are refunds that failed or were cancelled.
func (p *Provider) ListRefunds(ctx context.Context, since, until time.Time, fn func(kudos.ProviderRefund) error) error {
	params := &stripe.RefundListParams{CreatedRange: createdIn(since, until)}
	params.Limit = stripe.Int64(listLimit)
	params.AddExpand("data.payment_intent")
	for r, err := range p.sc.V1Refunds.List(ctx, params).All(ctx) {
		if err != nil {
			return fmt.Errorf("stripepay: list refunds: %w", err)
		}
		account, ok := kudosAccount(r.Metadata)
		if r.PaymentIntent != nil {
			if _, verification := r.PaymentIntent.Metadata["verification_id"]; verification {
				continue
			}
			if !ok {
				account, ok = kudosAccount(r.PaymentIntent.Metadata)
			}
		}
		if !ok || r.Status == stripe.RefundStatusFailed || r.Status == stripe.RefundStatusCanceled {
			continue
		}
		if err := fn(kudos.ProviderRefund{ID: r.ID, AccountID: account,
			Amount:  kudos.Money{Amount: r.Amount, Currency: strings.ToUpper(string(r.Currency))},
			Created: time.Unix(r.Created, 0).UTC()}); err != nil {
			return err
		}
	}
	return nil
}

// ListDisputes implements kudos.ProviderLedger on GET /v1/disputes, with
// each dispute's PaymentIntent expanded (its metadata names Kudos's account
// and payment): the disputes of payments Kudos made, each at its status
// now as the intake books it (disputeStatus: an inquiry closed without a
// chargeback, or a dispute prevented before one, is won). A SEPA debit's dispute is left out: the intake books
// it as a returned payment, not as a dispute.
func (p *Provider) ListDisputes(ctx context.Context, since, until time.Time, fn func(kudos.ProviderDispute) error) error {
	params := &stripe.DisputeListParams{CreatedRange: createdIn(since, until)}
	params.Limit = stripe.Int64(listLimit)
	params.AddExpand("data.payment_intent")
	for d, err := range p.sc.V1Disputes.List(ctx, params).All(ctx) {
		if err != nil {
			return fmt.Errorf("stripepay: list disputes: %w", err)
		}
		if d.PaymentIntent == nil || sepaDispute(d) {
			continue
		}
		account, ok := kudosAccount(d.PaymentIntent.Metadata)
		ref := paymentRef(d.PaymentIntent.Metadata)
		if !ok || ref == "" {
			continue
		}
		if err := fn(kudos.ProviderDispute{ID: d.ID, AccountID: account, Payment: ref, Amount: money(d.Amount, d.Currency),
			Status: disputeStatus(stripe.EventTypeChargeDisputeClosed, d.Status), Reason: string(d.Reason),
			Created: time.Unix(d.Created, 0).UTC()}); err != nil {
			return err
		}
	}
	return nil
}
