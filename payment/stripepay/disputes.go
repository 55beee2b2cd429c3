package stripepay

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// Disputes and returned debits (issue 36 item 3). Stripe announces them as:
//
//   - charge.dispute.created: a dispute (chargeback) opened; and
//     charge.dispute.closed: decided, won (or an inquiry closed as
//     warning_closed, or a dispute prevented before it became a
//     chargeback: no money taken back, booked as won) or lost;
//   - a SEPA Direct Debit taken back by the bank after it succeeded: the
//     charge fails after it had succeeded (charge.failed, its
//     PaymentIntent back to requires_payment_method), or the bank reclaims
//     the money as a dispute (charge.dispute.created of a sepa_debit
//     payment; SEPA disputes are final, with no evidence to give).
//     Both are a ReturnEvent: the invoice the debit paid is due again.
//
// The payment concerned is found by its PaymentIntent's metadata, which
// Kudos wrote on it (the checkout, or the renewal charge's key): Stripe's
// copy in the event is a snapshot, the PaymentIntent is read again.
// Events of payments Kudos did not make are acknowledged and ignored.

// ledgerEventTypes are the event types parseLedgerEvent reads.
var ledgerEventTypes = map[stripe.EventType]bool{
	stripe.EventTypeChargeDisputeCreated: true,
	stripe.EventTypeChargeDisputeClosed:  true,
	stripe.EventTypeChargeFailed:         true,
}

// parseLedgerEvent turns a dispute's event or a SEPA debit's failure into
// a payment event (nil: of no interest).
func (p *Provider) parseLedgerEvent(ctx context.Context, ev stripe.Event) (*kudos.PaymentEvent, error) {
	if ev.ID == "" || ev.Data == nil {
		return nil, kudos.Errorf(kudos.EBadRequest, "Stripe event without an object")
	}
	out := &kudos.PaymentEvent{EventID: ev.ID, Provider: p.Name(), OccurredAt: time.Unix(ev.Created, 0).UTC()}
	var intent string
	if ev.Type == stripe.EventTypeChargeFailed {
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return nil, kudos.Errorf(kudos.EBadRequest, "Stripe event with a malformed charge")
		}
		if ch.PaymentMethodDetails == nil || ch.PaymentMethodDetails.Type != stripe.ChargePaymentMethodDetailsTypeSEPADebit ||
			ch.PaymentIntent == nil {
			return nil, nil // a declined card: the payment's own events tell it
		}
		intent = ch.PaymentIntent.ID
		out.Return = &kudos.ReturnEvent{ID: ch.ID, Amount: money(ch.Amount, ch.Currency), Reason: string(ch.FailureCode)}
	} else {
		var d stripe.Dispute
		if err := json.Unmarshal(ev.Data.Raw, &d); err != nil || d.ID == "" {
			return nil, kudos.Errorf(kudos.EBadRequest, "Stripe event with a malformed dispute")
		}
		if d.PaymentIntent == nil {
			return nil, nil // a charge made without a PaymentIntent: not Kudos's
		}
		intent = d.PaymentIntent.ID
		sepa := sepaDispute(&d)
		switch {
		case sepa && ev.Type == stripe.EventTypeChargeDisputeCreated:
			out.Return = &kudos.ReturnEvent{ID: d.ID, Amount: money(d.Amount, d.Currency), Reason: string(d.Reason)}
		case sepa: // its close says nothing more: the money went back when it was made
			return nil, nil
		default:
			out.Dispute = &kudos.DisputeEvent{ID: d.ID, Status: disputeStatus(ev.Type, d.Status), Amount: money(d.Amount, d.Currency),
				Reason: string(d.Reason)}
		}
	}
	account, payment, err := p.intentOwner(ctx, intent)
	if err != nil || payment == "" {
		return nil, err
	}
	out.AccountID = account
	if out.Dispute != nil {
		out.Dispute.Payment = payment
	} else {
		out.Return.Payment = payment
	}
	return out, nil
}

// sepaDispute reports whether d is a SEPA debit's dispute: the bank took
// the debit back (SEPA disputes are final), which Kudos books as a returned
// payment, not as a dispute.
func sepaDispute(d *stripe.Dispute) bool {
	return d.PaymentMethodDetails != nil && d.PaymentMethodDetails.Type == "sepa_debit"
}

// disputeStatus is how Kudos books a dispute Stripe says stands at s: a
// decision (won, lost), or open while the network decides. Two ends take
// no money back and are booked as won:
//   - an inquiry closed without a chargeback (warning_closed);
//   - a dispute prevented before it became a chargeback (prevented: Visa
//     RDR, announced as prevented from its first event). When the
//     prevention resolved it by refunding the payment, Stripe makes that
//     refund, and it reaches Kudos as a refund made at the provider,
//     booked with its credit note like any other.
func disputeStatus(typ stripe.EventType, s stripe.DisputeStatus) kudos.DisputeStatus {
	switch {
	case s == stripe.DisputeStatusLost:
		return kudos.DisputeLost
	case s == stripe.DisputeStatusWon || s == stripe.DisputeStatusPrevented ||
		(typ == stripe.EventTypeChargeDisputeClosed && s == stripe.DisputeStatusWarningClosed):
		return kudos.DisputeWon
	}
	return kudos.DisputeOpen
}

// intentOwner reads PaymentIntent id again and returns the account and
// Kudos's reference of the payment from its metadata (its checkout, or
// its renewal charge's key); "" for a payment Kudos did not make.
func (p *Provider) intentOwner(ctx context.Context, id string) (uuid.UUID, string, error) {
	if id == "" {
		return uuid.Nil, "", nil
	}
	pi, err := p.sc.V1PaymentIntents.Retrieve(ctx, id, nil)
	if err != nil {
		return uuid.Nil, "", fmt.Errorf("stripepay: get payment %s: %w", id, err)
	}
	account, ok := kudosAccount(pi.Metadata)
	if !ok {
		return uuid.Nil, "", nil
	}
	return account, paymentRef(pi.Metadata), nil
}

// money is a Stripe amount in Kudos's form (ISO code upper case).
func money(amount int64, currency stripe.Currency) kudos.Money {
	return kudos.Money{Amount: amount, Currency: strings.ToUpper(string(currency))}
}
