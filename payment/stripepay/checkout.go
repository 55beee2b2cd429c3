package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// Stripe accepts a Checkout Session's expires_at between 30 minutes and 24
// hours from its creation. The margins keep a request that travels for a
// while, or a clock slightly off, inside that window.
const (
	minCheckoutTTL = 30*time.Minute + time.Minute
	maxCheckoutTTL = 24*time.Hour - time.Minute
)

// CreateCheckout implements kudos.PaymentProvider with a Checkout Session for
// the account's Stripe customer. Payments save the card for off-session use
// so that renewals can charge it; CheckoutPaymentMethod opens a setup-mode
// session, in which Stripe verifies the payment method itself without a
// charge (so req.Amount is not used for it). req.CheckoutID is the
// idempotency key: a retried call gets the same session back.
func (p *Provider) CreateCheckout(ctx context.Context, req kudos.CheckoutRequest) (kudos.Checkout, error) {
	if req.CheckoutID == "" {
		return kudos.Checkout{}, fmt.Errorf("stripepay: checkout without an id")
	}
	customer, err := p.ensureCustomer(ctx, req.AccountID, req.CustomerEmail)
	if err != nil {
		return kudos.Checkout{}, err
	}
	meta := map[string]string{
		metaAccountID:  req.AccountID.String(),
		metaCheckoutID: req.CheckoutID,
		metaPurpose:    string(req.Purpose),
	}
	params := &stripe.CheckoutSessionCreateParams{
		Customer:          stripe.String(customer),
		ClientReferenceID: stripe.String(req.CheckoutID),
		SuccessURL:        stripe.String(req.SuccessURL),
		CancelURL:         stripe.String(req.CancelURL),
		Metadata:          meta,
	}
	if !req.ExpiresAt.IsZero() {
		params.ExpiresAt = stripe.Int64(clampExpiry(req.ExpiresAt, p.now()).Unix())
	}
	currency := p.currencyOf(req.Amount)
	switch {
	case req.Purpose.TakesPayment():
		if req.Amount.Amount <= 0 { // refused for good, as Stripe would: retrying changes nothing
			return kudos.Checkout{}, kudos.Errorf(kudos.EInvalid, "checkout %s: the amount must be positive, got %d", req.CheckoutID, req.Amount.Amount)
		}
		name := req.Description
		if name == "" {
			name = "Kudos " + string(req.Purpose)
		}
		params.Mode = stripe.String(string(stripe.CheckoutSessionModePayment))
		params.LineItems = []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(currency),
				UnitAmount:  stripe.Int64(req.Amount.Amount),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(name)},
			},
		}}
		params.PaymentIntentData = &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			SetupFutureUsage: stripe.String("off_session"),
			Metadata:         meta,
		}
		if req.Description != "" {
			params.PaymentIntentData.Description = stripe.String(req.Description)
		}
	case req.Purpose == kudos.CheckoutPaymentMethod:
		params.Mode = stripe.String(string(stripe.CheckoutSessionModeSetup))
		params.Currency = stripe.String(currency)
		params.SetupIntentData = &stripe.CheckoutSessionCreateSetupIntentDataParams{Metadata: meta}
	default:
		return kudos.Checkout{}, fmt.Errorf("stripepay: checkout %s: unknown purpose %q", req.CheckoutID, req.Purpose)
	}
	params.IdempotencyKey = stripe.String(req.CheckoutID)

	s, err := p.sc.V1CheckoutSessions.Create(ctx, params)
	if se := stripeErr(err); se != nil && se.Type == stripe.ErrorTypeIdempotency {
		// A retry whose parameters differ from the first call's (a clamped
		// expires_at moves with the clock) is refused under the same key:
		// the session the first call made is the answer, when it is the
		// same checkout (sameSession).
		if found, ferr := p.findSession(ctx, customer, req.CheckoutID); ferr == nil && found != nil {
			if err := p.sameSession(ctx, req, params, found); err != nil {
				return kudos.Checkout{}, err
			}
			s, err = found, nil
		}
	}
	if err != nil {
		return kudos.Checkout{}, refusedOr(err, "stripepay: create checkout %s", req.CheckoutID)
	}
	return kudos.Checkout{ProviderID: s.ID, URL: s.URL}, nil
}

// sameSession refuses (EConflict) the open session found under req's key
// when it is not the checkout params ask for: another mode (payment,
// setup), currency or, for a payment, amount_total (the invoice priced
// again between two attempts: a VAT id verified, an address edited).
// That session, whose page never reached the customer (the attempt that
// made it reported nothing), is expired first, so that nothing takes the
// old total for the new one; its expiry failing is an error worth
// retrying, which finds it again. As sameCharge for off-session charges.
func (p *Provider) sameSession(ctx context.Context, req kudos.CheckoutRequest, params *stripe.CheckoutSessionCreateParams,
	s *stripe.CheckoutSession) error {
	mode, currency := stripe.StringValue(params.Mode), p.currencyOf(req.Amount)
	same := string(s.Mode) == mode && strings.EqualFold(string(s.Currency), currency)
	if mode == string(stripe.CheckoutSessionModePayment) {
		same = same && s.AmountTotal == req.Amount.Amount
	}
	if same {
		return nil
	}
	if _, err := p.ExpireCheckout(ctx, s.ID); err != nil {
		return fmt.Errorf("stripepay: checkout %s: expire session %s made for another checkout: %w", req.CheckoutID, s.ID, err)
	}
	return kudos.Errorf(kudos.EConflict, "checkout %s: the session under this key (%s) is a %s of %d %s, not a %s of %d %s", req.CheckoutID, s.ID,
		s.Mode, s.AmountTotal, s.Currency, mode, req.Amount.Amount, currency)
}

// findSession returns the customer's open Checkout Session made for
// checkoutID among its most recent hundred, or nil.
func (p *Provider) findSession(ctx context.Context, customer, checkoutID string) (*stripe.CheckoutSession, error) {
	lp := &stripe.CheckoutSessionListParams{
		Customer: stripe.String(customer),
		Status:   stripe.String(string(stripe.CheckoutSessionStatusOpen)),
	}
	lp.Limit = stripe.Int64(100)
	lp.Single = true
	for s, err := range p.sc.V1CheckoutSessions.List(ctx, lp).All(ctx) {
		if err != nil {
			return nil, err
		}
		if s.Metadata[metaCheckoutID] == checkoutID && s.Status == stripe.CheckoutSessionStatusOpen {
			return s, nil
		}
	}
	return nil, nil
}

// ExpireCheckout implements kudos.PaymentProvider. Stripe answers 400 for
// a session that is no longer open; the session is then read to tell how it
// ended (paid, complete with its payment pending, expired), so that a
// payment is never taken for an expiry.
func (p *Provider) ExpireCheckout(ctx context.Context, providerID string) (kudos.PaymentOutcome, error) {
	_, err := p.sc.V1CheckoutSessions.Expire(ctx, providerID, nil)
	if err == nil {
		return kudos.PaymentExpired, nil
	}
	if isNotFound(err) {
		return "", kudos.NotFound()
	}
	if se := stripeErr(err); se != nil && se.HTTPStatusCode == http.StatusBadRequest {
		sp := &stripe.CheckoutSessionRetrieveParams{}
		sp.AddExpand("payment_intent")
		s, gerr := p.sc.V1CheckoutSessions.Retrieve(ctx, providerID, sp)
		if gerr == nil && s.Status != stripe.CheckoutSessionStatusOpen {
			if outcome := sessionOutcome(stripe.EventTypeCheckoutSessionExpired, s); outcome != "" {
				return outcome, nil
			}
			return kudos.PaymentExpired, nil
		}
	}
	return "", fmt.Errorf("stripepay: expire checkout %s: %w", providerID, err)
}

// Refund implements kudos.PaymentProvider: the PaymentIntent of the
// session (or, with no session, of the off-session charge req.ChargeID) is
// refunded by req.Amount, always named (with none, Stripe refunds what is
// left of the payment: after a partial refund made in its dashboard, less
// than Kudos books; named, a refund over what is left is refused, for an
// operator), with RefundID in the refund's metadata (its
// events then name our refund: issue 36). A refund made before under that
// id is found there first and answered, never made twice. The idempotency
// key is RefundID and the hour: Stripe keeps a request's answer, a refusal
// too, for 24 hours under its key, so a refund refused for now and tried
// again hours later must reach Stripe under a new one.
func (p *Provider) Refund(ctx context.Context, req kudos.RefundRequest) (string, error) {
	piID, err := p.paymentOf(ctx, req)
	if err != nil {
		return "", err
	}
	if id, err := p.refundMade(ctx, piID, req.RefundID); err != nil || id != "" {
		return id, err
	}
	params := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(piID),
		Amount:        stripe.Int64(req.Amount.Amount),
		Reason:        stripe.String("duplicate"),
		Metadata:      map[string]string{metaAccountID: req.AccountID.String(), metaRefundID: req.RefundID},
	}
	if req.Reason != "" { // an operator's refund, of all or part of the payment
		params.Reason = stripe.String("requested_by_customer")
		params.Metadata["reason"] = truncate(req.Reason, 500) // Stripe's limit of a metadata value
	}
	params.IdempotencyKey = stripe.String(req.RefundID + ":" + p.now().UTC().Format("2006010215"))
	r, err := p.sc.V1Refunds.Create(ctx, params)
	if se := stripeErr(err); se != nil && se.Code == stripe.ErrorCodeBalanceInsufficient {
		// Refused for now: the account's balance is short until payments
		// come in; tried again later, counted as refused only after that.
		return "", kudos.Errorf(kudos.EUnavailable, "the payment provider refused the refund for now: %s (%s)", se.Msg, se.Code)
	} else if err != nil {
		return "", refusedOr(err, "stripepay: refund %s", req.RefundID)
	}
	return r.ID, nil
}

// refundMade is the id of the refund of PaymentIntent piID made under our
// refund id refundID and not failed or cancelled since ("" : none).
func (p *Provider) refundMade(ctx context.Context, piID, refundID string) (string, error) {
	lp := &stripe.RefundListParams{PaymentIntent: stripe.String(piID)}
	lp.Limit = stripe.Int64(100)
	lp.Single = true
	for r, err := range p.sc.V1Refunds.List(ctx, lp).All(ctx) {
		if err != nil {
			return "", fmt.Errorf("stripepay: refund %s: list refunds of %s: %w", refundID, piID, err)
		}
		if r.Metadata[metaRefundID] == refundID && r.Status != stripe.RefundStatusFailed && r.Status != stripe.RefundStatusCanceled {
			return r.ID, nil
		}
	}
	return "", nil
}

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// paymentOf returns the id of the PaymentIntent req refunds.
func (p *Provider) paymentOf(ctx context.Context, req kudos.RefundRequest) (string, error) {
	if req.ProviderID == "" && req.PaymentID != "" {
		// Named by the provider's event (an erased account's charge: its
		// customer is gone, so the customer's list cannot find it).
		return req.PaymentID, nil
	}
	if req.ProviderID == "" {
		customer, err := p.customerID(ctx, req.AccountID)
		if err != nil {
			return "", err
		}
		var pi *stripe.PaymentIntent
		if customer != "" && req.ChargeID != "" {
			if pi, err = p.findCharge(ctx, customer, req.ChargeID); err != nil {
				return "", refusedOr(err, "stripepay: refund %s: find charge %s", req.RefundID, req.ChargeID)
			}
		}
		if pi == nil {
			return "", kudos.Errorf(kudos.EInvalid, "the payment provider knows no payment of charge %q", req.ChargeID)
		}
		return pi.ID, nil
	}
	s, err := p.sc.V1CheckoutSessions.Retrieve(ctx, req.ProviderID, nil)
	if err != nil {
		return "", fmt.Errorf("stripepay: refund %s: get checkout session %s: %w", req.RefundID, req.ProviderID, err)
	}
	if s.PaymentIntent == nil || s.PaymentIntent.ID == "" {
		return "", kudos.Errorf(kudos.EConflict, "checkout session %s has no payment to refund", req.ProviderID)
	}
	return s.PaymentIntent.ID, nil
}

// UseCheckoutMethod implements kudos.PaymentProvider: the payment method
// of the session's PaymentIntent becomes the customer's invoice default
// (Checkout saves it for off-session use without making it the default).
func (p *Provider) UseCheckoutMethod(ctx context.Context, accountID uuid.UUID, providerID string) error {
	sp := &stripe.CheckoutSessionRetrieveParams{}
	sp.AddExpand("payment_intent")
	s, err := p.sc.V1CheckoutSessions.Retrieve(ctx, providerID, sp)
	if err != nil {
		return refusedOr(err, "stripepay: default method of %s: get checkout session", providerID)
	}
	if s.Customer == nil || s.Customer.ID == "" || s.PaymentIntent == nil || s.PaymentIntent.PaymentMethod == nil ||
		s.PaymentIntent.PaymentMethod.ID == "" {
		return kudos.Errorf(kudos.EInvalid, "checkout session %s has no payment method to keep", providerID)
	}
	cp := &stripe.CustomerUpdateParams{InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{
		DefaultPaymentMethod: stripe.String(s.PaymentIntent.PaymentMethod.ID)}}
	if _, err := p.sc.V1Customers.Update(ctx, s.Customer.ID, cp); err != nil {
		return refusedOr(err, "stripepay: make %s the default of %s", s.PaymentIntent.PaymentMethod.ID, s.Customer.ID)
	}
	return nil
}

// currencyOf returns the lower-cased currency of m, or the configured one.
func (p *Provider) currencyOf(m kudos.Money) string {
	if m.Currency == "" {
		return p.currency
	}
	return strings.ToLower(m.Currency)
}

// clampExpiry moves at into the window Stripe accepts for expires_at.
func clampExpiry(at, now time.Time) time.Time {
	if lo := now.Add(minCheckoutTTL); at.Before(lo) {
		return lo
	}
	if hi := now.Add(maxCheckoutTTL); at.After(hi) {
		return hi
	}
	return at
}
