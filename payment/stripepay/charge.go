package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// Failure reasons of charges that were never sent to a card.
const reasonNoPaymentMethod = "no_payment_method"

// ChargeOffSession implements kudos.PaymentProvider with a PaymentIntent
// confirmed off-session on the customer's default payment method (or the
// most recently saved one). A decline, a card that needs the customer to
// authenticate, or no payment method at all is a result with Paid false; a
// network failure, a rate limit or a Stripe outage is an error worth
// retrying with the same req.ChargeID, which never charges twice: it is the
// idempotency key, and it is also looked up on the customer's recent
// PaymentIntents, which outlives Stripe's 24-hour idempotency window.
//
// A SEPA debit stays "processing" for days: it is a Pending result, and
// the caller asks again later under the same ChargeID. A payment found
// under req.ChargeID for another amount or currency is an EConflict error
// (sameCharge): it pays something else, never req. A customer Stripe
// no longer knows (deleted by hand) is a refusal: FailureReason
// customer_not_found, an unpaid renewal, never retried forever.
func (p *Provider) ChargeOffSession(ctx context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	res, err := p.chargeOffSession(ctx, req)
	if isNotFound(err) {
		return kudos.ChargeResult{FailureReason: reasonCustomerNotFound}, nil
	}
	return res, err
}

// reasonCustomerNotFound is the FailureReason of a charge of a customer
// Stripe does not know.
const reasonCustomerNotFound = "customer_not_found"

// chargeOffSession is ChargeOffSession before a missing customer is turned
// into a refusal.
func (p *Provider) chargeOffSession(ctx context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	if req.ChargeID == "" || req.Amount.Amount <= 0 { // refused for good: retrying changes nothing
		return kudos.ChargeResult{}, kudos.Errorf(kudos.EInvalid, "charge %q: want an id and a positive amount, got %d", req.ChargeID, req.Amount.Amount)
	}
	customer, err := p.customerID(ctx, req.AccountID)
	if err != nil {
		return kudos.ChargeResult{}, err
	}
	if customer == "" {
		return kudos.ChargeResult{FailureReason: reasonNoPaymentMethod}, nil
	}
	p.addressCustomer(ctx, req.AccountID, customer, req.CustomerEmail) // its debit notice goes to the owner now
	if pi, err := p.findCharge(ctx, customer, req.ChargeID); isNotFound(err) {
		return kudos.ChargeResult{}, err
	} else if err != nil {
		return kudos.ChargeResult{}, err
	} else if pi != nil {
		if err := p.sameCharge(req, pi); err != nil {
			return kudos.ChargeResult{}, err
		}
		return p.settle(ctx, req.ChargeID, pi)
	}
	def, saved, err := p.savedMethods(ctx, customer)
	if err != nil {
		return kudos.ChargeResult{}, err
	}
	pm := def
	if pm == nil && len(saved) > 0 {
		pm = saved[0]
	}
	if pm == nil {
		return kudos.ChargeResult{FailureReason: reasonNoPaymentMethod}, nil
	}
	params := p.offSessionIntent(customer, pm, req.Amount, req.Description, req.ChargeID,
		map[string]string{metaAccountID: req.AccountID.String(), metaChargeID: req.ChargeID})
	pi, err := p.sc.V1PaymentIntents.Create(ctx, params)
	if se := stripeErr(err); se != nil && isDecline(se) {
		res := kudos.ChargeResult{FailureReason: failureReason(se, "card_declined")}
		if se.PaymentIntent != nil {
			res.ProviderID = se.PaymentIntent.ID
		}
		return res, nil
	} else if isNotFound(err) {
		return kudos.ChargeResult{}, err
	} else if err != nil {
		return kudos.ChargeResult{}, refusedOr(err, "stripepay: charge %s", req.ChargeID)
	}
	return p.settle(ctx, req.ChargeID, pi)
}

// sameCharge refuses (EConflict) req when the PaymentIntent found under its
// key is of another amount or currency: that payment is another charge's
// (a key reused for another invoice), never a payment of req, whatever its
// status. Stripe answers a reused idempotency key with other parameters
// the same way.
func (p *Provider) sameCharge(req kudos.ChargeRequest, pi *stripe.PaymentIntent) error {
	if pi.Amount == req.Amount.Amount && strings.EqualFold(string(pi.Currency), p.currencyOf(req.Amount)) {
		return nil
	}
	return kudos.Errorf(kudos.EConflict, "charge %s: the payment under this key (%s) is of %d %s, not %d %s", req.ChargeID, pi.ID,
		pi.Amount, pi.Currency, req.Amount.Amount, p.currencyOf(req.Amount))
}

// findCharge returns the customer's PaymentIntent made for chargeID among its
// most recent hundred, or nil. The list, unlike search, is read-after-write
// consistent.
func (p *Provider) findCharge(ctx context.Context, customer, chargeID string) (*stripe.PaymentIntent, error) {
	lp := &stripe.PaymentIntentListParams{Customer: stripe.String(customer)}
	lp.Limit = stripe.Int64(100)
	lp.Single = true
	for pi, err := range p.sc.V1PaymentIntents.List(ctx, lp).All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("stripepay: list payments of %s: %w", customer, err) // wrapped: isNotFound still sees it
		}
		if pi.Metadata[metaChargeID] == chargeID {
			return pi, nil
		}
	}
	return nil, nil
}

// settle turns a PaymentIntent into a result. One still processing is read
// again, since it may be an idempotent replay of an old answer.
func (p *Provider) settle(ctx context.Context, chargeID string, pi *stripe.PaymentIntent) (kudos.ChargeResult, error) {
	if pi.Status == stripe.PaymentIntentStatusProcessing {
		fresh, err := p.sc.V1PaymentIntents.Retrieve(ctx, pi.ID, nil)
		if err != nil {
			return kudos.ChargeResult{}, fmt.Errorf("stripepay: charge %s: get %s: %w", chargeID, pi.ID, err)
		}
		pi = fresh
	}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded:
		return kudos.ChargeResult{Paid: true, ProviderID: pi.ID}, nil
	case stripe.PaymentIntentStatusProcessing, stripe.PaymentIntentStatusRequiresCapture:
		return kudos.ChargeResult{Pending: true, ProviderID: pi.ID}, nil
	}
	reason := string(pi.Status)
	if pi.LastPaymentError != nil {
		reason = failureReason(pi.LastPaymentError, reason)
	} else if pi.Status == stripe.PaymentIntentStatusRequiresAction {
		reason = string(stripe.ErrorCodeAuthenticationRequired)
	}
	return kudos.ChargeResult{ProviderID: pi.ID, FailureReason: reason}, nil
}

// isDecline reports whether a Stripe error is the payment method's refusal
// (a card error, or a 402 "request failed") rather than a failure to retry.
func isDecline(se *stripe.Error) bool {
	return se.Type == stripe.ErrorTypeCard || se.HTTPStatusCode == http.StatusPaymentRequired
}

// failureReason is the most precise machine-readable reason of a Stripe
// error: its decline code, else its error code, else fallback.
func failureReason(se *stripe.Error, fallback string) string {
	for _, r := range []string{string(se.DeclineCode), string(se.Code)} {
		if r = strings.TrimSpace(r); r != "" {
			return r
		}
	}
	return fallback
}

// offSessionIntent is the PaymentIntent that charges amount to the saved
// payment method pm of customer without the customer present, under
// idempotency key.
func (p *Provider) offSessionIntent(customer string, pm *stripe.PaymentMethod, amount kudos.Money, description, key string,
	meta map[string]string) *stripe.PaymentIntentCreateParams {
	params := &stripe.PaymentIntentCreateParams{
		Amount:        stripe.Int64(amount.Amount),
		Currency:      stripe.String(p.currencyOf(amount)),
		Customer:      stripe.String(customer),
		PaymentMethod: stripe.String(pm.ID),
		// An explicit type keeps Stripe from asking for a return_url, which
		// automatic payment methods need and an off-session charge cannot use.
		PaymentMethodTypes: []*string{stripe.String(string(pm.Type))},
		Confirm:            stripe.Bool(true),
		OffSession:         stripe.Bool(true),
		Metadata:           meta,
	}
	if description != "" {
		params.Description = stripe.String(description)
	}
	params.IdempotencyKey = stripe.String(key)
	return params
}

// CancelCharge implements kudos.PaymentProvider: the PaymentIntent made
// under chargeID is cancelled if Stripe still lets it be (a processing SEPA
// debit rarely can); otherwise it is read again and reported as it stands.
// A charge never made is reported as failed (not_charged): nothing of it
// can settle any more.
func (p *Provider) CancelCharge(ctx context.Context, accountID uuid.UUID, chargeID string) (kudos.ChargeResult, error) {
	customer, err := p.customerID(ctx, accountID)
	if err != nil {
		return kudos.ChargeResult{}, err
	}
	var pi *stripe.PaymentIntent
	if customer != "" {
		if pi, err = p.findCharge(ctx, customer, chargeID); isNotFound(err) {
			return kudos.ChargeResult{FailureReason: reasonCustomerNotFound}, nil
		} else if err != nil {
			return kudos.ChargeResult{}, err
		}
	}
	if pi == nil {
		return kudos.ChargeResult{FailureReason: reasonNotCharged}, nil
	}
	if pi.Status != stripe.PaymentIntentStatusProcessing && pi.Status != stripe.PaymentIntentStatusRequiresCapture {
		return p.settle(ctx, chargeID, pi)
	}
	cancelled, err := p.sc.V1PaymentIntents.Cancel(ctx, pi.ID, nil)
	if se := stripeErr(err); se != nil && se.HTTPStatusCode == http.StatusBadRequest {
		return p.settle(ctx, chargeID, pi) // not cancellable in its state: read again
	} else if err != nil {
		return kudos.ChargeResult{}, fmt.Errorf("stripepay: cancel charge %s (%s): %w", chargeID, pi.ID, err)
	}
	return p.settle(ctx, chargeID, cancelled)
}

// reasonNotCharged is the FailureReason of a charge that was never made.
const reasonNotCharged = "not_charged"

// CancelOpenCharges implements kudos.PaymentProvider: the customer's
// PaymentIntents that Kudos made off-session (metadata charge_id) and that
// can still be completed — waiting on authentication (requires_action),
// on a payment method or a confirmation — are cancelled, among its most
// recent hundred. customerID is the customer the erased account had
// ("" : the account's own, if it still has one). A PaymentIntent that
// moved on meanwhile (Stripe answers 400) is left as it now stands.
func (p *Provider) CancelOpenCharges(ctx context.Context, accountID uuid.UUID, customerID string) ([]string, error) {
	customer := customerID
	if customer == "" {
		var err error
		if customer, err = p.customerID(ctx, accountID); err != nil {
			return nil, err
		}
	}
	if customer == "" {
		return nil, nil
	}
	lp := &stripe.PaymentIntentListParams{Customer: stripe.String(customer)}
	lp.Limit = stripe.Int64(100)
	lp.Single = true
	var open []*stripe.PaymentIntent
	for pi, err := range p.sc.V1PaymentIntents.List(ctx, lp).All(ctx) {
		if isNotFound(err) {
			return nil, nil // the customer is gone, and with it what it could pay
		} else if err != nil {
			return nil, fmt.Errorf("stripepay: list payments of %s: %w", customer, err)
		}
		switch pi.Status {
		case stripe.PaymentIntentStatusRequiresAction, stripe.PaymentIntentStatusRequiresPaymentMethod,
			stripe.PaymentIntentStatusRequiresConfirmation:
			if pi.Metadata[metaChargeID] != "" {
				open = append(open, pi)
			}
		}
	}
	var cancelled []string
	for _, pi := range open {
		_, err := p.sc.V1PaymentIntents.Cancel(ctx, pi.ID, nil)
		if se := stripeErr(err); se != nil && se.HTTPStatusCode == http.StatusBadRequest {
			continue
		} else if err != nil {
			return cancelled, fmt.Errorf("stripepay: cancel charge %s (%s): %w", pi.Metadata[metaChargeID], pi.ID, err)
		}
		cancelled = append(cancelled, pi.Metadata[metaChargeID])
	}
	return cancelled, nil
}
