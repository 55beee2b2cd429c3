package kudos

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Money is an amount in minor units (cents) of an ISO 4217 currency.
type Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// CheckoutPurpose says what a hosted checkout pays for.
type CheckoutPurpose string

// Checkout purposes.
const (
	CheckoutSubscription  CheckoutPurpose = "subscription"   // first payment of a plan
	CheckoutUpgrade       CheckoutPurpose = "upgrade"        // prorated difference to a higher plan
	CheckoutInvoice       CheckoutPurpose = "invoice"        // a DUE_PAYMENT invoice
	CheckoutPaymentMethod CheckoutPurpose = "payment_method" // add a payment method (verification)
	// CheckoutRenewal completes, on the provider's page, a renewal whose
	// off-session charge needed the customer's authentication (dunning).
	CheckoutRenewal CheckoutPurpose = "renewal"
	// CheckoutSeats buys a Team plan's extra seats for the rest of the
	// period, prorated like an upgrade (issue 38).
	CheckoutSeats CheckoutPurpose = "seats"
)

// TakesPayment reports whether a checkout of this purpose takes a payment
// (every one of them but adding a payment method, which only saves one).
func (p CheckoutPurpose) TakesPayment() bool {
	switch p {
	case CheckoutSubscription, CheckoutUpgrade, CheckoutInvoice, CheckoutRenewal, CheckoutSeats:
		return true
	}
	return false
}

// PaysExistingInvoice reports whether a checkout of this purpose pays an
// invoice that exists before it (a due one, or a renewal being retried)
// rather than one priced when it opens.
func (p CheckoutPurpose) PaysExistingInvoice() bool {
	return p == CheckoutInvoice || p == CheckoutRenewal
}

// ChangesPlan reports whether a checkout of this purpose is one the
// customer waits on in the app (the dashboard shows processing meanwhile).
func (p CheckoutPurpose) ChangesPlan() bool {
	return p != CheckoutPaymentMethod && p != CheckoutRenewal
}

// CheckoutRequest asks the provider for a hosted checkout page.
type CheckoutRequest struct {
	// CheckoutID is ours: the provider's idempotency key and the reference
	// that comes back with the payment event.
	CheckoutID    string
	AccountID     uuid.UUID
	CustomerEmail string
	Purpose       CheckoutPurpose
	Description   string
	// Amount is the total to pay, VAT included (for CheckoutPaymentMethod,
	// the verification charge of SPEC §9, which only the sandbox makes).
	Amount     Money
	SuccessURL string
	CancelURL  string
	ExpiresAt  time.Time
}

// Checkout is an open hosted checkout.
type Checkout struct {
	ProviderID string `json:"provider_id"`
	URL        string `json:"url"`
}

// ChargeRequest asks for an off-session charge of the account's default
// payment method (renewals).
type ChargeRequest struct {
	// ChargeID is ours and the provider's idempotency key: retrying a charge
	// never charges twice.
	ChargeID    string
	AccountID   uuid.UUID
	Amount      Money
	Description string
	// CustomerEmail is the account owner's address now: the provider's
	// customer, whom the provider mails itself (debit notices, receipts),
	// is kept addressed to it.
	CustomerEmail string
}

// ChargeResult is the outcome of an off-session charge.
type ChargeResult struct {
	Paid bool `json:"paid"`
	// Pending: accepted and not settled yet (a SEPA debit "processing"
	// for days): neither paid nor failed; the same ChargeID asks again.
	Pending       bool   `json:"pending,omitempty"`
	ProviderID    string `json:"provider_id"`
	FailureReason string `json:"failure_reason,omitempty"`
}

// PaymentMethod is a saved way to pay: a card or a SEPA direct-debit mandate
// (SPEC §3's mandate).
type PaymentMethod struct {
	ID     string `json:"id"`
	Method string `json:"method"` // "card" or "directdebit"
	// Card: brand, last four digits, expiry. Direct debit: the account
	// number, masked by the provider or by MaskIBAN.
	Brand           string `json:"brand,omitempty"`
	CardNumber      string `json:"card_number,omitempty"`
	CardExpiryMonth int    `json:"card_expiry_month,omitempty"`
	CardExpiryYear  int    `json:"card_expiry_year,omitempty"`
	ConsumerAccount string `json:"consumer_account,omitempty"`
	Default         bool   `json:"default"`
}

// PaymentOutcome is what a payment event says happened.
type PaymentOutcome string

// Payment outcomes.
const (
	PaymentPaid    PaymentOutcome = "paid"
	PaymentFailed  PaymentOutcome = "failed"
	PaymentExpired PaymentOutcome = "expired"
	// PaymentCancelled: the customer went back from the hosted checkout.
	PaymentCancelled PaymentOutcome = "cancelled"
	// PaymentPending: the checkout is complete but its payment (a delayed
	// method such as SEPA debit) is not settled yet; paid or failed follows.
	PaymentPending PaymentOutcome = "pending"
)

// VerificationRequest asks for the verification of a payment method saved
// by a hosted checkout: in the sandbox a charge of Amount (0.01, SPEC §9)
// refunded at once; on Stripe, which refuses a charge under its minimum,
// the setup's own check with the bank (payment/stripepay/verify.go).
type VerificationRequest struct {
	// VerificationID is ours: the base of the idempotency keys of the
	// charge and its refund.
	VerificationID string
	ProviderID     string // the checkout's id at the provider
	AccountID      uuid.UUID
	Amount         Money
}

// RefundRequest asks for a payment back: the whole payment of a hosted
// checkout, or (ops refunds, issue 36) Amount of the payment of a checkout
// or of an off-session charge.
type RefundRequest struct {
	// RefundID is ours and the provider's idempotency key: asking twice
	// refunds once.
	RefundID   string
	ProviderID string // the checkout's id at the provider ("" : ChargeID names the payment)
	AccountID  uuid.UUID
	Amount     Money
	// ChargeID names the payment of an off-session charge (our ChargeID)
	// when ProviderID is "".
	ChargeID string
	// PaymentID is the provider's id of the payment (a PaymentIntent) when
	// it is known, as a charge movement's event gives it: a payment of an
	// erased account, whose customer the provider no longer lists, is
	// found by it.
	PaymentID string
	// Reason is an operator's reason, kept at the provider with the refund
	// ("" : a refund Kudos makes on its own, of a duplicate payment).
	Reason string
}

// PaymentEvent is a verified notification from the provider (a Stripe
// webhook or a sandbox button), stored once by EventID and delivered to the
// subscription workflow of AccountID.
type PaymentEvent struct {
	EventID    string         `json:"event_id"`
	Provider   string         `json:"provider"`
	CheckoutID string         `json:"checkout_id"`
	AccountID  uuid.UUID      `json:"account_id"`
	Outcome    PaymentOutcome `json:"outcome"`
	OccurredAt time.Time      `json:"occurred_at"`
	// LedgerMovement is set on the events of money that moved outside a
	// hosted checkout (issue 36 item 1: off-session charges, refunds); a
	// checkout's event has none. Kept apart from the dispute/return
	// fields so that each kind of movement reads on its own.
	LedgerMovement

	// Dispute is set on the event of a dispute opened or closed (issue 36
	// item 3; CheckoutID and Outcome are empty then).
	Dispute *DisputeEvent `json:"dispute,omitempty"`
	// Return is set on the event of a payment taken back by the bank after
	// it succeeded (a returned SEPA debit; CheckoutID and Outcome empty).
	Return *ReturnEvent `json:"return,omitempty"`
}

// PaymentProvider is a card payment provider with hosted checkout: Stripe in
// production, the sandbox in development and tests.
type PaymentProvider interface {
	// Name is "stripe" or "sandbox".
	Name() string
	// CheckoutOrigin is the origin every checkout URL starts with; the UI
	// follows a checkout_href only when it does (SPEC §4).
	CheckoutOrigin() string
	CreateCheckout(ctx context.Context, req CheckoutRequest) (Checkout, error)
	// ExpireCheckout closes a checkout so it can no longer be paid, and
	// tells how it ended: PaymentExpired when it was closed unpaid (now or
	// before), PaymentPaid when it had been paid, PaymentPending when it is
	// complete and its payment not settled yet, PaymentFailed or
	// PaymentCancelled when it had ended so. A payment is never lost to
	// expiry: the caller applies (or refunds) what it is told was paid.
	ExpireCheckout(ctx context.Context, providerID string) (PaymentOutcome, error)
	// Refund gives back the whole payment of a paid checkout (idempotent
	// by RefundID) and returns the provider's refund id. A refusal that
	// may pass (the provider's balance is short) is an EUnavailable error;
	// one for good is EInvalid.
	Refund(ctx context.Context, req RefundRequest) (string, error)
	// VerifyPaymentMethod verifies the payment method a checkout saved (see
	// VerificationRequest; idempotent by VerificationID). A method
	// that declines is an EInvalid error, and is not kept.
	VerifyPaymentMethod(ctx context.Context, req VerificationRequest) error
	// ChargeOffSession charges the default payment method without the
	// customer present. A declined charge is a result with Paid false, not
	// an error; one accepted and still settling (a SEPA debit) is Pending;
	// errors are for failures worth retrying. Asked again with the same
	// ChargeID it charges nothing new and tells how that charge stands; a
	// payment found under that ChargeID for another amount or currency is
	// an EConflict error (it pays something else, never this charge).
	ChargeOffSession(ctx context.Context, req ChargeRequest) (ChargeResult, error)
	// CancelCharge cancels the charge made under chargeID if it is still
	// settling and the provider lets it be cancelled (a result that is
	// neither paid nor pending), and otherwise tells how it stands (paid,
	// failed, or still pending when it cannot be cancelled).
	CancelCharge(ctx context.Context, accountID uuid.UUID, chargeID string) (ChargeResult, error)
	// CancelOpenCharges cancels every off-session charge of the account
	// that the customer could still complete (one waiting on their
	// authentication, or on a new payment method) and returns the charge
	// ids it cancelled: an erased account's (issue 34) is never paid
	// after its erasure. customerID is the provider's customer the account
	// had (its row is gone by then); a charge processing at the bank is
	// left (it cannot be cancelled: the deletion waited for it).
	CancelOpenCharges(ctx context.Context, accountID uuid.UUID, customerID string) ([]string, error)
	// UseCheckoutMethod makes the payment method that paid the checkout
	// providerID the account's default, so that the next off-session
	// charge (the next renewal) uses it.
	UseCheckoutMethod(ctx context.Context, accountID uuid.UUID, providerID string) error
	PaymentMethods(ctx context.Context, accountID uuid.UUID) ([]PaymentMethod, error)
	DetachPaymentMethod(ctx context.Context, accountID uuid.UUID, id string) error
	// DeleteCustomer deletes the provider's customer of a deleted account
	// (issue 28) with its stored payment methods; customerID is the one the
	// account had (the account's row no longer names it). A customer
	// already gone, or "" (the account never paid), is no error.
	DeleteCustomer(ctx context.Context, accountID uuid.UUID, customerID string) error
}
