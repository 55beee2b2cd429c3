package kudos

import (
	"time"

	"github.com/google/uuid"
)

// InvoiceStatus is the state of an invoice (SPEC §3).
type InvoiceStatus string

// Invoice statuses.
const (
	InvoicePaid       InvoiceStatus = "PAID"
	InvoiceProcessing InvoiceStatus = "PROCESSING"
	// InvoiceDue is a payment request (a year the customer declined, a
	// renewal in dunning): unnumbered until it is paid (issue 34), save
	// those numbered before.
	InvoiceDue InvoiceStatus = "DUE_PAYMENT"
	// InvoiceCredited is the status of every credit note (issue 30).
	InvoiceCredited InvoiceStatus = "CREDITED"
)

// WithinPeriod reports whether an invoice of kind k buys something within
// a period already paid (extra seats, an upgrade), not a period.
func (k InvoiceKind) WithinPeriod() bool { return k == InvoiceSeats || k == InvoiceUpgrade }

// InvoiceKind says what an invoice bills; it decides the description
// (SPEC §4): the plan name, UPGRADE_{plan}, "Renewal {plan}" or
// PAYMENTDUE_{plan}.
type InvoiceKind string

// Invoice kinds.
const (
	InvoiceSubscription InvoiceKind = "SUBSCRIPTION"
	InvoiceUpgrade      InvoiceKind = "UPGRADE"
	InvoiceRenewal      InvoiceKind = "RENEWAL"
	InvoicePaymentDue   InvoiceKind = "PAYMENTDUE"
	// InvoiceSeats bills a Team plan's extra seats bought during a period,
	// prorated for its rest (issue 38).
	InvoiceSeats InvoiceKind = "SEATS"
	// InvoiceCreditNote is a credit note: it gives back (negative amounts)
	// what the invoice it corrects billed, numbered in its own series.
	InvoiceCreditNote InvoiceKind = "CREDIT_NOTE"
)

// InvoiceDescription is the description SPEC §4 renders for kind and plan.
func InvoiceDescription(kind InvoiceKind, plan Plan) string {
	switch kind {
	case InvoiceUpgrade:
		return "UPGRADE_" + string(plan)
	case InvoiceRenewal:
		return "Renewal " + string(plan)
	case InvoicePaymentDue:
		return "PAYMENTDUE_" + string(plan)
	case InvoiceCreditNote:
		return "CREDITNOTE_" + string(plan)
	case InvoiceSeats:
		return "SEATS_" + string(plan)
	}
	return string(plan)
}

// Invoice is a bill of the account. Number is given when the invoice is
// paid, gap-free per year; an invoice whose checkout is still open has
// none, nor has a due one (DUE_PAYMENT: a payment request, issue 34).
type Invoice struct {
	ID          uuid.UUID   `json:"id"`
	AccountID   uuid.UUID   `json:"-"`
	Number      string      `json:"invoice_url"`
	Kind        InvoiceKind `json:"-"`
	Plan        Plan        `json:"-"`
	Description string      `json:"description"`
	Net         int64       `json:"-"`
	VAT         int64       `json:"-"`
	VATRate     float64     `json:"vat_rate"`
	// ReverseCharge: the buyer accounts for the VAT (art. 196 VAT
	// Directive; VATRate is 0). Decided with the rate when the invoice is
	// priced (kudos.DecideVAT) and never changed; a credit note has its
	// invoice's.
	ReverseCharge bool `json:"-"`
	// OutsideEU says why a buyer outside the EU pays no VAT (issue 34; ""
	// otherwise), and SellerVATID is the seller's VAT registration outside
	// the EU the VAT is charged under ("": its own); decided with the rate
	// (kudos.DecideVAT), never changed, a credit note has its invoice's.
	OutsideEU   VATOutsideEU `json:"-"`
	SellerVATID string       `json:"-"`
	// Service is the period of the plan the invoice pays for (Art. 226(7)
	// VAT Directive: the date of the supply; issue 34), printed on its PDF:
	// a renewal's from when it is billed, any other's from its payment; nil
	// before then and on invoices from before it was kept. A credit note
	// has its invoice's.
	Service   *ServicePeriod `json:"-"`
	Total     int64          `json:"-"`
	Currency  string         `json:"currency"`
	Status    InvoiceStatus  `json:"status"`
	CreatedAt time.Time      `json:"created_at"`
	// IssuedAt is when the document was numbered (an invoice at its
	// payment, a credit note when made): its issue date. CreatedAt for one
	// numbered before it was kept; zero while it has no number.
	IssuedAt time.Time `json:"-"`
	// Buyer is the billing address the invoice is made out to, a snapshot
	// that later edits of the address never change: taken with the VAT
	// decision when the invoice was priced (Quoted; a due invoice's too,
	// numbered only when paid), or, on invoices priced before quotes, when
	// it got its number (nil before then). Nil when the account had no
	// billing address.
	Buyer *BillingAddress `json:"-"`
	// Quoted: Buyer and the VAT decision (VATRate, ReverseCharge, OutsideEU,
	// SellerVATID) were decided together, once, when the invoice was priced
	// (kudos.QuoteFor); its numbering and its credit notes keep them.
	Quoted bool `json:"-"`
	// Corrects is, on a credit note, the invoice it corrects (nil on an
	// invoice), and CorrectsNumber that invoice's number.
	Corrects       *uuid.UUID `json:"-"`
	CorrectsNumber string     `json:"-"`
	// Discount is the promotion code's line (nil: none): Net is the price
	// less it, and VAT is computed after it.
	Discount *InvoiceDiscount `json:"-"`
	// Lines are the invoice's lines when it has more than its plan's (a
	// Team plan's extra seats; issue 38), Net their sum
	// less Discount; nil on an invoice
	// of one line (Description, Net).
	Lines []InvoiceLine `json:"-"`
}

// ServicePeriod is when a supply was made: the plan's period an invoice
// pays for, From to To.
type ServicePeriod struct {
	From, To time.Time
}

// IsCreditNote reports whether the document is a credit note.
func (i Invoice) IsCreditNote() bool { return i.Kind == InvoiceCreditNote }

// VATDecision is the VAT the invoice was priced with (kudos.DecideVAT's
// decision, as the invoice keeps it).
func (i Invoice) VATDecision() VATDecision {
	return VATDecision{Rate: i.VATRate, ReverseCharge: i.ReverseCharge, OutsideEU: i.OutsideEU, SellerVATID: i.SellerVATID}
}

// Columns is the period as two nullable timestamps (both nil for a nil
// period), the way Postgres keeps it.
func (p *ServicePeriod) Columns() (from, to *time.Time) {
	if p == nil {
		return nil, nil
	}
	return &p.From, &p.To
}
