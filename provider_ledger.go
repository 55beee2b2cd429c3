package kudos

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// ProviderEvent is one event the payment provider emitted, as its own list
// shows it (Stripe's GET /v1/events, the sandbox's sandbox_events): the
// daily provider reconciliation finds there the events the webhook never
// delivered.
type ProviderEvent struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created time.Time `json:"created"`
	// Raw is the provider's own event, for ProviderLedger.ReadEvent.
	Raw any `json:"-"`
}

// ProviderPayment is a payment of Kudos's that succeeded at the provider:
// a hosted checkout's or an off-session charge's (verification charges,
// refunded at once, are not listed).
type ProviderPayment struct {
	// ID is the provider's (a PaymentIntent, a sandbox checkout or charge).
	ID        string    `json:"id"`
	AccountID uuid.UUID `json:"account_id"`
	// Reference is Kudos's id of the payment: the checkout's or the
	// off-session charge's (an invoice's paid_by).
	Reference string    `json:"reference"`
	Amount    Money     `json:"amount"`
	Created   time.Time `json:"created"`
}

// ProviderRefund is a refund of a payment of Kudos's at the provider,
// whether Kudos asked for it or someone made it outside Kudos (the
// provider's dashboard).
type ProviderRefund struct {
	// ID is the provider's refund id (Kudos's refunds.provider_id).
	ID        string    `json:"id"`
	AccountID uuid.UUID `json:"account_id"`
	Amount    Money     `json:"amount"`
	Created   time.Time `json:"created"`
}

// ProviderLedger is the provider's own record of what moved money, listed
// by creation time for the daily provider reconciliation (issue 36). Each
// List call pages through the provider's list (a bounded page at a time,
// never the whole list in memory) and calls fn with every item created in
// [since, until); an error of fn stops the listing and is returned.
type ProviderLedger interface {
	// ListEvents lists the provider's events of the types its intake
	// reads.
	ListEvents(ctx context.Context, since, until time.Time, fn func(ProviderEvent) error) error
	// ReadEvent is what the webhook intake makes of a listed event: the
	// same payment event a delivery of it gives (verified by having been
	// read from the provider's api), or nil for one of no interest.
	ReadEvent(ctx context.Context, ev ProviderEvent) (*PaymentEvent, error)
	// ListPayments lists the succeeded payments of Kudos's accounts.
	ListPayments(ctx context.Context, since, until time.Time, fn func(ProviderPayment) error) error
	// ListRefunds lists the refunds of Kudos's accounts' payments.
	ListRefunds(ctx context.Context, since, until time.Time, fn func(ProviderRefund) error) error
}
