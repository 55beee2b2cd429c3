package workflows

import (
	"github.com/google/uuid"

	"kudos"
)

// Names of the subscription workflow's updates, signal and query.
const (
	UpdateCreateSubscription  = "create_subscription"
	UpdateUpgradeSubscription = "upgrade_subscription"
	UpdatePayInvoice          = "pay_invoice"
	UpdateSetAutoRenewal      = "set_auto_renewal"
	UpdateCancelCheckout      = "cancel_checkout"
	// UpdateQuoteChanged tells the workflow that the account's billing
	// address (or its VAT id's status) changed: an open checkout whose
	// quote no longer holds is closed (issue 34). Sent through the outbox.
	UpdateQuoteChanged = "quote_changed"
	// UpdatePaymentEvent delivers a payment event (the outbox relay). An
	// update to a waiting workflow runs in a workflow task the server
	// persists once, with its outcome; a signal costs three writes.
	UpdatePaymentEvent = "payment_event"
	// SignalPaymentEvent delivered payment events before the update did;
	// histories with it replay, and a signal sent still applies.
	SignalPaymentEvent = "payment_event"
	QuerySubscription  = "subscription"
)

// Error types of rejected updates (validators), which the api maps to 409
// and 422 answers.
const (
	ErrTypeInvalidPlan       = "InvalidPlan"
	ErrTypeInvalidTransition = "InvalidTransition"
	// ErrTypeAccountBeingDeleted refuses what would take or commit money
	// while the account's deletion is prepared or scheduled.
	ErrTypeAccountBeingDeleted = "AccountBeingDeleted"
	// ErrTypePriceChanged refuses a checkout whose price changed while it
	// was being opened (OpenCheckout: the provider held a page of the
	// earlier price under its key); asked again, it opens at the new one.
	ErrTypePriceChanged = "PriceChanged"
)

// PaymentState values of the PaymentState search attribute.
const (
	PaymentNone         = "none"
	PaymentCheckoutOpen = "checkout_open"
	PaymentDue          = "due"
	// PaymentRetrying: a failed renewal charge is being retried (dunning).
	PaymentRetrying = "retrying"
	// PaymentPending: a payment is settling at the provider (a checkout
	// complete with its SEPA debit unpaid, a renewal charge processing).
	PaymentPending = "pending"
)

// SubscriptionWorkflowID is the ID of an account's subscription workflow.
func SubscriptionWorkflowID(accountID uuid.UUID) string { return "subscription:" + accountID.String() }

// PlanRequest is the argument of the create and upgrade updates.
type PlanRequest struct {
	Plan kudos.Plan
	// PromotionCode discounts the checkout (normalized; "" none): the api
	// has checked it, the checkout's activity checks it again and takes a
	// use of it.
	PromotionCode string `json:",omitempty"`
}

// PayInvoiceRequest is the argument of the pay-invoice update.
type PayInvoiceRequest struct {
	InvoiceID uuid.UUID
}

// CancelCheckoutResult says how the open checkout ended when the customer
// backed out: cancelled, paid (it had been paid: applied), pending (its
// payment is settling: it stays), or none (nothing was open).
type CancelCheckoutResult struct {
	Status string
}

// AutoRenewalRequest is the argument of the set-auto-renewal update.
type AutoRenewalRequest struct {
	On bool
}

// CheckoutResponse is the answer of the updates that open a checkout.
type CheckoutResponse struct {
	CheckoutHref string
	// Applied is set when nothing was left to pay (an upgrade under the
	// provider's minimum charge): the change is made, no checkout opened.
	Applied bool
}

// PaymentStateOf is the PaymentState search attribute of a state.
func PaymentStateOf(s *kudos.SubscriptionState) string {
	if s.PendingRenewal != nil || (s.Checkout != nil && s.Checkout.Pending) {
		return PaymentPending
	}
	return paymentStateBefore3(s)
}

// paymentStateBefore3 is PaymentStateOf as runs from before lifecycle
// version 3 knew it (no pending).
func paymentStateBefore3(s *kudos.SubscriptionState) string {
	switch {
	case s.Dunning != nil:
		return PaymentRetrying
	case s.Checkout != nil:
		return PaymentCheckoutOpen
	case s.Due != nil:
		return PaymentDue
	}
	return PaymentNone
}
