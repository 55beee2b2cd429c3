package stripepay

import (
	"context"
	"fmt"

	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// VerifyPaymentMethod implements kudos.PaymentProvider (SPEC §9). On Stripe
// the card's verification is its setup-mode checkout's SetupIntent having
// succeeded: Stripe checked the card with the issuer during the setup (with
// 3-D Secure when the bank asked), as Stripe Billing does. The card then
// becomes the customer's default, so the next renewal (or a retried one)
// charges it. Nothing is charged: Stripe refuses a charge under its minimum
// (amount_too_small: EUR and USD 0.50, GBP 0.30…), which SPEC's 0.01 is,
// and a charge at the minimum refunded at once would cost Stripe's fee on
// every card added; req.Amount is the sandbox's (payment/sandbox keeps
// SPEC's 0.01 charge, refunded at once).
//
// A SetupIntent that did not succeed is a decline: EInvalid, and the card
// detached. Any refusal once the card is known (not only a decline) detaches
// it too, so that a card Kudos reports refused is never left on file for
// PaymentMethods to list or ChargeOffSession to charge. A SetupIntent still
// processing, and failures worth retrying, are errors of their own: the
// activity asks again, the card kept meanwhile.
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
	si, pm, customer := s.SetupIntent, s.SetupIntent.PaymentMethod.ID, s.Customer.ID
	switch si.Status {
	case stripe.SetupIntentStatusSucceeded:
	case stripe.SetupIntentStatusProcessing:
		return fmt.Errorf("stripepay: verify %s: setup intent %s is still processing", req.VerificationID, si.ID)
	default:
		reason := "setup_" + string(si.Status)
		if si.LastSetupError != nil {
			reason = failureReason(si.LastSetupError, reason)
		}
		return p.detachRefused(ctx, req, pm, kudos.Errorf(kudos.EInvalid, "the payment method was declined: %s", reason))
	}
	cp := &stripe.CustomerUpdateParams{InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{DefaultPaymentMethod: stripe.String(pm)}}
	if _, err := p.sc.V1Customers.Update(ctx, customer, cp); err != nil {
		err = refusedOr(err, "stripepay: verify %s: make default", req.VerificationID)
		if kudos.ErrorCode(err) == kudos.EInvalid {
			return p.detachRefused(ctx, req, pm, err)
		}
		return err
	}
	return nil
}

// detachRefused detaches payment method pm and returns refusal, the EInvalid
// error VerifyPaymentMethod reports it with. A detach that failed for a
// reason worth retrying is returned instead, so that the activity asks
// again (and detaches again) rather than report refused a card still on
// file; one Stripe refuses (already detached, never attached) leaves none.
func (p *Provider) detachRefused(ctx context.Context, req kudos.VerificationRequest, pm string, refusal error) error {
	if _, err := p.sc.V1PaymentMethods.Detach(ctx, pm, nil); err != nil {
		if derr := refusedOr(err, "stripepay: verify %s: detach refused payment method %s", req.VerificationID, pm); kudos.ErrorCode(derr) != kudos.EInvalid {
			return derr
		}
	}
	return refusal
}
