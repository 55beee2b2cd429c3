package stripepay

import (
	"context"

	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// VerifyPaymentMethod implements kudos.PaymentProvider (SPEC §9): the card
// a setup-mode checkout saved is charged the amount off-session and the
// charge refunded at once, each under an idempotency key derived from
// req.VerificationID; the card then becomes the customer's default, so the
// next renewal (or a retried one) charges it. A card that declines is
// detached and reported as EInvalid.
func (p *Provider) VerifyPaymentMethod(ctx context.Context, req kudos.VerificationRequest) error {
	sp := &stripe.CheckoutSessionRetrieveParams{}
	sp.AddExpand("setup_intent.payment_method")
	s, err := p.sc.V1CheckoutSessions.Retrieve(ctx, req.ProviderID, sp)
	if err != nil {
		return refusedOr(err, "stripepay: verify %s: get checkout session %s", req.VerificationID, req.ProviderID)
	}
	if s.SetupIntent == nil || s.SetupIntent.PaymentMethod == nil || s.Customer == nil {
		return kudos.Errorf(kudos.EInvalid, "checkout session %s saved no payment method", req.ProviderID)
	}
	pm, customer := s.SetupIntent.PaymentMethod, s.Customer.ID
	params := p.offSessionIntent(customer, pm, req.Amount, "Kudos payment method verification (refunded at once)",
		"verify:"+req.VerificationID, map[string]string{metaAccountID: req.AccountID.String(), "verification_id": req.VerificationID})
	pi, err := p.sc.V1PaymentIntents.Create(ctx, params)
	if se := stripeErr(err); se != nil && isDecline(se) {
		_, _ = p.sc.V1PaymentMethods.Detach(ctx, pm.ID, nil)
		return kudos.Errorf(kudos.EInvalid, "the payment method was declined: %s", failureReason(se, "card_declined"))
	} else if err != nil {
		return refusedOr(err, "stripepay: verify %s: charge", req.VerificationID)
	}
	rp := &stripe.RefundCreateParams{PaymentIntent: stripe.String(pi.ID)}
	rp.IdempotencyKey = stripe.String("verify-refund:" + req.VerificationID)
	if _, err := p.sc.V1Refunds.Create(ctx, rp); err != nil {
		return refusedOr(err, "stripepay: verify %s: refund", req.VerificationID)
	}
	cp := &stripe.CustomerUpdateParams{InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{DefaultPaymentMethod: stripe.String(pm.ID)}}
	if _, err := p.sc.V1Customers.Update(ctx, customer, cp); err != nil {
		return refusedOr(err, "stripepay: verify %s: make default", req.VerificationID)
	}
	return nil
}
