// Package sandbox is the development payment provider of ARCHITECTURE §3: a
// hosted-checkout page on the api's own origin (RegisterRoutes) whose Pay,
// Fail and Cancel buttons feed the same event intake as Stripe's webhooks,
// Stripe's test cards (TestCards), saved cards, and off-session charges that
// behave as the saved card does. It keeps its own tables (sandbox_*) and is
// refused in production.
package sandbox

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/store"
)

// Provider implements kudos.PaymentProvider on the sandbox tables.
type Provider struct {
	DB *store.DB
	// BaseURL is the api's public origin; checkouts live under it.
	BaseURL string
	// LoseEvents, when set, drops the delivery of every event the sandbox
	// emits, as a webhook lost on the way (fault tests): the event is in
	// the sandbox's list only, where the provider reconciliation finds it.
	LoseEvents atomic.Bool
}

var (
	_ kudos.PaymentProvider = (*Provider)(nil)
	_ kudos.ProviderLedger  = (*Provider)(nil)
)

// Name implements kudos.PaymentProvider.
func (p *Provider) Name() string { return "sandbox" }

// CheckoutOrigin implements kudos.PaymentProvider: the api's own origin.
func (p *Provider) CheckoutOrigin() string { return strings.TrimRight(p.BaseURL, "/") }

// CheckoutURL is the hosted page of sandbox checkout id.
func (p *Provider) CheckoutURL(id string) string {
	return p.CheckoutOrigin() + "/sandbox/checkout/" + id
}

// CreateCheckout implements kudos.PaymentProvider. It is idempotent by
// CheckoutID: a retried activity gets the same checkout.
func (p *Provider) CreateCheckout(ctx context.Context, req kudos.CheckoutRequest) (kudos.Checkout, error) {
	// As the Stripe adapter: a purpose it would not know is an error here
	// too, so that the tests that run on the sandbox see it.
	if !req.Purpose.TakesPayment() && req.Purpose != kudos.CheckoutPaymentMethod {
		return kudos.Checkout{}, fmt.Errorf("sandbox: checkout %s: unknown purpose %q", req.CheckoutID, req.Purpose)
	}
	if req.Purpose.TakesPayment() && req.Amount.Amount <= 0 { // refused as the Stripe adapter refuses it
		return kudos.Checkout{}, kudos.Errorf(kudos.EInvalid, "checkout %s: the amount must be positive, got %d", req.CheckoutID, req.Amount.Amount)
	}
	c, err := p.createCheckout(ctx, Checkout{
		ID: "cs_sandbox_" + strings.ReplaceAll(uuid.NewString(), "-", ""), CheckoutID: req.CheckoutID, AccountID: req.AccountID,
		Purpose: req.Purpose, Description: req.Description, Amount: req.Amount,
		SuccessURL: req.SuccessURL, CancelURL: req.CancelURL, ExpiresAt: req.ExpiresAt,
	})
	if err != nil {
		return kudos.Checkout{}, err
	}
	return kudos.Checkout{ProviderID: c.ID, URL: p.CheckoutURL(c.ID)}, nil
}

// ExpireCheckout implements kudos.PaymentProvider.
func (p *Provider) ExpireCheckout(ctx context.Context, providerID string) (kudos.PaymentOutcome, error) {
	return p.expireCheckout(ctx, providerID)
}

// Refund implements kudos.PaymentProvider: the checkout's payment is
// recorded as a charge given back.
func (p *Provider) Refund(ctx context.Context, req kudos.RefundRequest) (string, error) {
	return p.refund(ctx, req)
}

// ChargeOffSession implements kudos.PaymentProvider.
func (p *Provider) ChargeOffSession(ctx context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	if req.ChargeID == "" || req.Amount.Amount <= 0 { // refused as the Stripe adapter refuses it
		return kudos.ChargeResult{}, kudos.Errorf(kudos.EInvalid, "charge %q: want an id and a positive amount, got %d", req.ChargeID, req.Amount.Amount)
	}
	return p.charge(ctx, req.ChargeID, req.AccountID, req.Amount)
}

// CancelCharge implements kudos.PaymentProvider: a processing debit is
// cancelled (the sandbox always lets it be).
func (p *Provider) CancelCharge(ctx context.Context, _ uuid.UUID, chargeID string) (kudos.ChargeResult, error) {
	return p.cancelCharge(ctx, chargeID)
}

// UseCheckoutMethod implements kudos.PaymentProvider: nothing to do, the
// sandbox makes the card (or mandate) a checkout is paid with the default
// when it is paid.
func (p *Provider) UseCheckoutMethod(context.Context, uuid.UUID, string) error { return nil }

// PaymentMethods implements kudos.PaymentProvider.
func (p *Provider) PaymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	return p.paymentMethods(ctx, accountID)
}

// DetachPaymentMethod implements kudos.PaymentProvider.
func (p *Provider) DetachPaymentMethod(ctx context.Context, accountID uuid.UUID, id string) error {
	return p.deletePaymentMethod(ctx, accountID, id)
}

// VerifyPaymentMethod implements kudos.PaymentProvider: a real charge of
// the amount and a separate refund, recorded.
func (p *Provider) VerifyPaymentMethod(ctx context.Context, req kudos.VerificationRequest) error {
	return p.verify(ctx, req)
}

// DeleteCustomer implements kudos.PaymentProvider: the sandbox forgets the
// account's saved payment methods (it has no customer object of its own).
func (p *Provider) DeleteCustomer(ctx context.Context, accountID uuid.UUID, _ string) error {
	_, err := p.DB.Pool.Exec(ctx, `DELETE FROM sandbox_payment_methods WHERE account_id = $1`, accountID)
	return err
}

// CancelOpenCharges implements kudos.PaymentProvider: the account's
// charges waiting on the customer's authentication are cancelled (a
// later POST /dev/sandbox/settle {authenticate: true} completes none).
func (p *Provider) CancelOpenCharges(ctx context.Context, accountID uuid.UUID, _ string) ([]string, error) {
	rows, err := p.DB.Pool.Query(ctx, `UPDATE sandbox_charges SET failure_reason = 'canceled'
		WHERE account_id = $1 AND NOT paid AND failure_reason = 'authentication_required' RETURNING charge_id`, accountID)
	if err != nil {
		return nil, store.Classify(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return ids, store.Classify(err)
}
