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

// ProviderDispute is a dispute (a chargeback) of a payment of Kudos's at
// the provider, as it stands now. A SEPA debit's dispute is not one: Kudos
// books it as a returned payment (ReturnEvent), so the lists leave it out.
type ProviderDispute struct {
	// ID is the provider's dispute id (Kudos's disputes.id).
	ID        string    `json:"id"`
	AccountID uuid.UUID `json:"account_id"`
	// Payment is Kudos's reference of the disputed payment (an invoice's
	// paid_by), as in DisputeEvent.
	Payment string        `json:"payment"`
	Amount  Money         `json:"amount"`
	Status  DisputeStatus `json:"status"`
	Reason  string        `json:"reason,omitempty"`
	Created time.Time     `json:"created"`
}

// Event is the payment event that books the dispute as the provider shows
// it, for the provider reconciliation to record through the webhook's
// intake when the provider's own event never reached Kudos (lost, or gone
// from the provider's list of events). Its id names the dispute and its
// status, so that recording it again is a repeat the intake drops, and
// the subscription workflow books it once (store.RecordDispute: a known
// dispute is only ever closed, never reopened). at is when it is applied:
// the opening's time for an open dispute, the time Kudos learns a
// decision (the provider keeps no time of it).
func (d ProviderDispute) Event(provider string, at time.Time) PaymentEvent {
	if d.Status == DisputeOpen {
		at = d.Created
	}
	return PaymentEvent{EventID: "reconcile_" + d.ID + "_" + string(d.Status), Provider: provider, AccountID: d.AccountID, OccurredAt: at,
		Dispute: &DisputeEvent{ID: d.ID, Status: d.Status, Amount: d.Amount, Payment: d.Payment, Reason: d.Reason}}
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
	// ListDisputes lists the disputes of Kudos's accounts' payments, each
	// as it stands now.
	ListDisputes(ctx context.Context, since, until time.Time, fn func(ProviderDispute) error) error
}
