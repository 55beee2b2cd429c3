package kudos

import (
	"time"

	"github.com/google/uuid"
)

// Disputes and returned debits (issue 36 item 3): money the provider takes
// back after a payment succeeded. They arrive as payment events like any
// other (PaymentEvent.Dispute, PaymentEvent.Return) and are applied once by
// the account's subscription workflow.

// DisputeStatus is where a dispute (a chargeback) stands, as Kudos books it.
type DisputeStatus string

// Dispute statuses: open until the card network decides; won (the money
// stays with Kudos: nothing changes) or lost (the money went back to the
// customer: the sale is reversed by a credit note and the period unpaid).
const (
	DisputeOpen DisputeStatus = "open"
	DisputeWon  DisputeStatus = "won"
	DisputeLost DisputeStatus = "lost"
)

// Valid reports whether s is one of the dispute statuses.
func (s DisputeStatus) Valid() bool { return s == DisputeOpen || s == DisputeWon || s == DisputeLost }

// Closed reports whether s is a decision (won or lost), which nothing
// reopens.
func (s DisputeStatus) Closed() bool { return s == DisputeWon || s == DisputeLost }

// DisputeEvent is what a dispute's event says: the provider's dispute, how
// it stands, the amount disputed, and the payment it disputes by Kudos's own
// reference (the checkout id, or the renewal charge's key: what an invoice's
// paid_by names).
type DisputeEvent struct {
	ID      string        `json:"id"`
	Status  DisputeStatus `json:"status"`
	Amount  Money         `json:"amount"`
	Payment string        `json:"payment"`
	// Reason is the provider's reason code (fraudulent, product_not_received, …).
	Reason string `json:"reason,omitempty"`
}

// ReturnEvent says that a payment that had succeeded was taken back by the
// customer's bank (a SEPA debit returned: insufficient funds, a closed
// account, a mandate revoked): Payment is Kudos's reference of it, as in
// DisputeEvent.
type ReturnEvent struct {
	// ID is the provider's object that announced it (the failed charge, or
	// the SEPA dispute), for ops.
	ID      string `json:"id"`
	Payment string `json:"payment"`
	Amount  Money  `json:"amount"`
	Reason  string `json:"reason,omitempty"`
}

// OpenDispute is a dispute the workflow holds open (its state, its query,
// and the DisputeOpen search attribute).
type OpenDispute struct {
	ID        string    `json:"id"`
	InvoiceID uuid.UUID `json:"invoice_id"`
	Amount    Money     `json:"amount"`
	OpenedAt  time.Time `json:"opened_at"`
}

// Dispute is a disputes row: a dispute as Kudos booked it (ops, metrics).
type Dispute struct {
	ID        string        `json:"id"`
	AccountID uuid.UUID     `json:"account_id"`
	InvoiceID *uuid.UUID    `json:"invoice_id,omitempty"`
	Payment   string        `json:"payment"`
	Amount    Money         `json:"amount"`
	Status    DisputeStatus `json:"status"`
	Reason    string        `json:"reason,omitempty"`
	OpenedAt  time.Time     `json:"opened_at"`
	ClosedAt  *time.Time    `json:"closed_at,omitempty"`
	// CreditNoteID is the credit note that reversed the sale of a lost
	// dispute (nil: none).
	CreditNoteID *uuid.UUID `json:"credit_note_id,omitempty"`
}

// DisputeApplied is what booking a dispute's event did: the status it
// moved the dispute to (or found it at: Changed false), and the invoice
// whose payment it disputes (nil: a payment that settled no invoice).
type DisputeApplied struct {
	Status    DisputeStatus `json:"status"`
	Changed   bool          `json:"changed"`
	InvoiceID *uuid.UUID    `json:"invoice_id,omitempty"`
	OpenedAt  time.Time     `json:"opened_at"`
	// Service is the service period of that invoice (nil: none), which
	// tells whether the disputed payment paid the period running now.
	Service *ServicePeriod `json:"service,omitempty"`
	// Kind is that invoice's kind ("" : none), which tells what the
	// disputed payment bought: the period (SUBSCRIPTION, RENEWAL,
	// PAYMENTDUE), an upgrade or extra seats; Seats are the extra seats a
	// SEATS invoice bought.
	Kind  InvoiceKind `json:"kind,omitempty"`
	Seats int         `json:"seats,omitempty"`
	// Plan is that invoice's plan, and PlanBefore, for an UPGRADE
	// invoice, the plan of the paid invoice before it (the plan the period
	// was paid at before the upgrade; "" : none found).
	Plan       Plan `json:"plan,omitempty"`
	PlanBefore Plan `json:"plan_before,omitempty"`
	// Discount is the terms of the promotion code that discounted that
	// invoice, for one more payment (nil: none): a year billed again after
	// the dispute is lost is billed at the price agreed for it.
	Discount *Discount `json:"discount,omitempty"`
	// CreditNoteID is the credit note that reversed the sale of a lost
	// dispute (nil: none).
	CreditNoteID *uuid.UUID `json:"credit_note_id,omitempty"`
	// RefundedBefore: the invoice had been refunded in full before the
	// dispute was lost, so the provider took nothing more back (Stripe
	// withdraws nothing for a charge refunded in full) and nothing is
	// credited.
	RefundedBefore bool `json:"refunded_before,omitempty"`
	// Members are the account's members when a lost dispute of an upgrade
	// or extra seats was booked (0 otherwise): what is taken back must
	// leave a seat for each of them, or the period counts as unpaid.
	Members int `json:"members,omitempty"`
}
