package stripepay

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
)

// PaymentMethods implements kudos.PaymentProvider: the customer's cards and
// SEPA direct-debit mandates, newest first. Default marks the method a
// renewal would charge: the customer's invoice default, or else the most
// recently saved one (checkouts save methods without making them default).
func (p *Provider) PaymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	customer, err := p.customerID(ctx, accountID)
	if err != nil || customer == "" {
		return []kudos.PaymentMethod{}, err
	}
	def, saved, err := p.savedMethods(ctx, customer)
	if err != nil {
		return nil, err
	}
	defID := ""
	if def != nil && slices.ContainsFunc(saved, func(pm *stripe.PaymentMethod) bool { return pm.ID == def.ID }) {
		defID = def.ID
	} else if len(saved) > 0 {
		defID = saved[0].ID
	}
	out := make([]kudos.PaymentMethod, 0, len(saved))
	for _, pm := range saved {
		m := kudos.PaymentMethod{ID: pm.ID, Default: pm.ID == defID}
		switch {
		case pm.Type == stripe.PaymentMethodTypeCard && pm.Card != nil:
			m.Method = "card"
			m.Brand = string(pm.Card.Brand)
			m.CardNumber = pm.Card.Last4
			m.CardExpiryMonth = int(pm.Card.ExpMonth)
			m.CardExpiryYear = int(pm.Card.ExpYear)
		case pm.Type == stripe.PaymentMethodTypeSEPADebit && pm.SEPADebit != nil:
			m.Method = "directdebit"
			m.ConsumerAccount = "****" + pm.SEPADebit.Last4
		default:
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// DetachPaymentMethod implements kudos.PaymentProvider. A payment method of
// another customer (or of none) is reported as not found, exactly like one
// that does not exist, so that no account learns about another's.
func (p *Provider) DetachPaymentMethod(ctx context.Context, accountID uuid.UUID, id string) error {
	customer, err := p.customerID(ctx, accountID)
	if err != nil {
		return err
	}
	if customer == "" || id == "" {
		return kudos.NotFound()
	}
	pm, err := p.sc.V1PaymentMethods.Retrieve(ctx, id, nil)
	if isNotFound(err) {
		return kudos.NotFound()
	} else if err != nil {
		return fmt.Errorf("stripepay: get payment method %s: %w", id, err)
	}
	if pm.Customer == nil || pm.Customer.ID != customer {
		return kudos.NotFound()
	}
	if _, err := p.sc.V1PaymentMethods.Detach(ctx, id, nil); err != nil {
		return refusedOr(err, "stripepay: detach payment method %s", id)
	}
	return nil
}

// savedMethods returns the customer's invoice default payment method (nil
// when unset; expanded, whatever its type) and its cards and SEPA mandates,
// newest first. A deleted customer has none.
func (p *Provider) savedMethods(ctx context.Context, customer string) (*stripe.PaymentMethod, []*stripe.PaymentMethod, error) {
	cp := &stripe.CustomerRetrieveParams{}
	cp.AddExpand("invoice_settings.default_payment_method")
	c, err := p.sc.V1Customers.Retrieve(ctx, customer, cp)
	if err != nil {
		return nil, nil, fmt.Errorf("stripepay: get customer %s: %w", customer, err)
	}
	if c.Deleted {
		return nil, nil, nil
	}
	var def *stripe.PaymentMethod
	if c.InvoiceSettings != nil && c.InvoiceSettings.DefaultPaymentMethod != nil && c.InvoiceSettings.DefaultPaymentMethod.ID != "" {
		def = c.InvoiceSettings.DefaultPaymentMethod
	}
	lp := &stripe.CustomerListPaymentMethodsParams{Customer: stripe.String(customer)}
	lp.Limit = stripe.Int64(100)
	var saved []*stripe.PaymentMethod
	for pm, err := range p.sc.V1Customers.ListPaymentMethods(ctx, lp).All(ctx) {
		if err != nil {
			return nil, nil, fmt.Errorf("stripepay: list payment methods of %s: %w", customer, err)
		}
		if pm.Type == stripe.PaymentMethodTypeCard || pm.Type == stripe.PaymentMethodTypeSEPADebit {
			saved = append(saved, pm)
		}
	}
	slices.SortStableFunc(saved, func(a, b *stripe.PaymentMethod) int { return cmp.Compare(b.Created, a.Created) })
	return def, saved, nil
}

// DeleteCustomer implements kudos.PaymentProvider: Stripe deletes the
// customer with its payment methods (an unknown customer is already gone).
func (p *Provider) DeleteCustomer(ctx context.Context, _ uuid.UUID, customerID string) error {
	if customerID == "" {
		return nil
	}
	if _, err := p.sc.V1Customers.Delete(ctx, customerID, nil); err != nil && !isNotFound(err) {
		return fmt.Errorf("stripepay: delete customer %s: %w", customerID, err)
	}
	return nil
}
