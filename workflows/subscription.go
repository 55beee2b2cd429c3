package workflows

import (
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/store"
)

// Names of the subscription workflow's updates, signal and query.
const (
	UpdateCreateSubscription  = "create_subscription"
	UpdateUpgradeSubscription = "upgrade_subscription"
	UpdatePayInvoice          = "pay_invoice"
	UpdateSetAutoRenewal      = "set_auto_renewal"
	SignalPaymentEvent        = "payment_event"
	QuerySubscription         = "subscription"
)

// Error types of rejected updates (validators), which the api maps to 409
// and 422 answers.
const (
	ErrTypeInvalidPlan       = "InvalidPlan"
	ErrTypeInvalidTransition = "InvalidTransition"
)

// PaymentState values of the PaymentState search attribute.
const (
	PaymentNone         = "none"
	PaymentCheckoutOpen = "checkout_open"
	PaymentDue          = "due"
)

// SubscriptionWorkflowID is the ID of an account's subscription workflow.
func SubscriptionWorkflowID(accountID uuid.UUID) string { return "subscription:" + accountID.String() }

// SubscriptionState is the whole state of an account's subscription; it is
// the workflow's input, carried across continue-as-new.
type SubscriptionState struct {
	AccountID uuid.UUID
	Plan      kudos.Plan
	// Status is active, trial_expired or plan_expired; "processing" is what
	// the read model shows while Checkout is open.
	Status          kudos.ShowStatus
	TrialExpiresAt  *time.Time
	PeriodStartedAt *time.Time
	RenewalAt       *time.Time
	AutoRenew       bool
	// Period and CheckoutTTL come from the configuration at start.
	Period      time.Duration
	CheckoutTTL time.Duration
	Checkout    *OpenCheckout
	Due         *DueInvoice
	// Renewals counts renewal charges (their idempotency keys).
	Renewals int
	// SeenEvents are the latest payment event ids, to drop duplicates.
	SeenEvents []string
}

// OpenCheckout is the account's one open hosted checkout.
type OpenCheckout struct {
	ID         string
	ProviderID string
	URL        string
	Purpose    kudos.CheckoutPurpose
	Plan       kudos.Plan
	InvoiceID  uuid.UUID
	ExpiresAt  time.Time
}

// DueInvoice is the DUE_PAYMENT invoice that reactivates an expired plan.
type DueInvoice struct {
	ID   uuid.UUID
	Plan kudos.Plan
}

// PlanRequest is the argument of the create and upgrade updates.
type PlanRequest struct {
	Plan kudos.Plan
}

// PayInvoiceRequest is the argument of the pay-invoice update.
type PayInvoiceRequest struct {
	InvoiceID uuid.UUID
}

// AutoRenewalRequest is the argument of the set-auto-renewal update.
type AutoRenewalRequest struct {
	On bool
}

// CheckoutResponse is the answer of the updates that open a checkout.
type CheckoutResponse struct {
	CheckoutHref string
}

// DisplayStatus is the show_status of the read model.
func (s *SubscriptionState) DisplayStatus() kudos.ShowStatus {
	if s.Checkout != nil && s.Checkout.Purpose != kudos.CheckoutPaymentMethod {
		return kudos.StatusProcessing
	}
	return s.Status
}

// Record is the read model of the state.
func (s *SubscriptionState) Record() store.SubscriptionRecord {
	return store.SubscriptionRecord{Plan: s.Plan, Status: s.DisplayStatus(), TrialExpiresAt: s.TrialExpiresAt,
		PeriodStartedAt: s.PeriodStartedAt, RenewalAt: s.RenewalAt, StartNextPeriod: s.AutoRenew}
}

// paymentState is the PaymentState search attribute.
func (s *SubscriptionState) paymentState() string {
	switch {
	case s.Checkout != nil:
		return PaymentCheckoutOpen
	case s.Due != nil:
		return PaymentDue
	}
	return PaymentNone
}

// StateFromRecord rebuilds the state of an account whose workflow is not
// running (first start, or Update-with-Start after a lost start).
func StateFromRecord(accountID uuid.UUID, r store.SubscriptionRecord, period, checkoutTTL time.Duration) SubscriptionState {
	s := SubscriptionState{AccountID: accountID, Plan: r.Plan, Status: r.Status, TrialExpiresAt: r.TrialExpiresAt,
		PeriodStartedAt: r.PeriodStartedAt, RenewalAt: r.RenewalAt, AutoRenew: r.StartNextPeriod, Period: period, CheckoutTTL: checkoutTTL}
	if s.Status == kudos.StatusProcessing { // a checkout was open when the state was lost: it will not be paid
		s.Status = kudos.StatusActive
		if s.Plan == kudos.PlanTrial && s.TrialExpiresAt != nil && !r.TrialExpiresAt.After(time.Now()) {
			s.Status = kudos.StatusTrialExpired
		}
	}
	return s
}
