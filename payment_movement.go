package kudos

import "github.com/google/uuid"

// Movement is the kind of money movement a provider event reports outside
// a hosted checkout (issue 36).
type Movement string

// Movements of issue 36 item 1.
const (
	// MovementCharge: an off-session charge (a renewal, a retry of
	// dunning) moved on at the provider: settled (PaymentPaid), still
	// processing (PaymentPending), failed or needing the customer
	// (PaymentFailed). Stripe's payment_intent.* events.
	MovementCharge Movement = "charge"
	// MovementRefund: a payment was given back, in part or in full (Stripe's
	// charge.refunded and refund.updated, a refund made in its dashboard
	// or by `kudos ops refund`). Its Outcome is PaymentPaid.
	MovementRefund Movement = "refund"
	// MovementRefundFailed: a refund failed at the provider after it was
	// made (Stripe's refund.updated with status failed or canceled): the
	// money did not go back. Named by RefundID / ProviderRefundID; Reason
	// is the provider's failure reason.
	MovementRefundFailed Movement = "refund_failed"
)

// LedgerMovement is what a provider event of a movement outside a hosted
// checkout says (the part of kudos.PaymentEvent added by issue 36 item 1).
// The payment it concerns is named by the event's CheckoutID (a checkout's
// payment) or by ChargeID (an off-session charge).
type LedgerMovement struct {
	Movement Movement `json:"movement,omitempty"`
	// ChargeID is our off-session charge's id (ChargeRequest.ChargeID):
	// the charge a MovementCharge is about, or the payment a refund gives
	// back when it was an off-session charge.
	ChargeID string `json:"charge_id,omitempty"`
	// PaymentID is the provider's id of the payment (a PaymentIntent).
	PaymentID string `json:"payment_id,omitempty"`
	// RefundID is our id of a refund Kudos asked for ("" for a refund made
	// at the provider, in its dashboard); ProviderRefundID the
	// provider's, which matches the two.
	RefundID         string `json:"refund_id,omitempty"`
	ProviderRefundID string `json:"provider_refund_id,omitempty"`
	// InvoiceID is the invoice refunded when the one who refunded knew it
	// (ops, the sandbox); otherwise the invoice the payment settled.
	InvoiceID *uuid.UUID `json:"invoice_id,omitempty"`
	// Amount is what moved (a refund's amount), VAT included.
	Amount *Money `json:"amount,omitempty"`
	// Reason is an operator's reason for a refund, or the provider's
	// reason a refund failed (MovementRefundFailed).
	Reason string `json:"reason,omitempty"`
}

// PaymentRef is the reference of the payment a movement concerns, as an
// invoice's paid_by and a refund's checkout_id keep it: the checkout's id,
// else the off-session charge's.
func (m LedgerMovement) PaymentRef(checkoutID string) string {
	if checkoutID != "" {
		return checkoutID
	}
	return m.ChargeID
}

// LedgerRefundID is the id under which a refund is booked: ours when Kudos
// asked for it, else one derived from the provider's refund id (a refund
// made in the provider's dashboard), so that its events book it once.
func (m LedgerMovement) LedgerRefundID() string {
	if m.RefundID != "" {
		return m.RefundID
	}
	return "provider:" + m.ProviderRefundID
}
