package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// quotedCheckoutOpen reports whether the open checkout, not settling yet,
// prices its invoice by a quote taken when it opened (a plan, an upgrade),
// rather than paying an invoice priced before it (whose quote is that
// invoice's).
func (s *subscription) quotedCheckoutOpen() bool {
	c := s.st.Checkout
	return c != nil && !c.Pending && c.Purpose.ChangesPlan() && !c.Purpose.PaysExistingInvoice()
}

// validateQuoteChanged rejects the news of a changed billing address
// (nothing is recorded in the history) when no open checkout was priced by
// a quote of its own: none is open, its payment is settling already (made
// at its quote), or it pays an invoice priced before it. While the lock is
// held the news is taken: an update may be opening a checkout priced by
// the address as it was read before the change.
func (s *subscription) validateQuoteChanged(_ workflow.Context) error {
	if !s.quotedCheckoutOpen() && !s.mu.IsLocked() {
		return invalid(ErrTypeInvalidTransition, "no open checkout priced by a quote")
	}
	return nil
}

// quoteChanged closes the open checkout, at the provider too, when the
// quote it was priced by no longer holds: the billing address names
// another buyer, or the VAT decided for it changed (the buyer moved, a VAT
// id was verified or dropped). Its invoice would otherwise be made out
// with a VAT decided for someone else (issue 34). The provider is asked
// first, as at expiry: a checkout paid meanwhile is settled, at its quote,
// and one whose payment turned out to be settling stays. The customer
// opens a new checkout, priced for the buyer as they are now.
//
// It is sent through the outbox (Tell), which waits only until it is
// accepted: the provider is asked with the retried transition.
func (s *subscription) quoteChanged(ctx workflow.Context) error {
	s.withLock(ctx, func() {
		if !s.quotedCheckoutOpen() { // it closed while the news waited for the lock
			return
		}
		c := s.st.Checkout
		holds := true
		if err := s.run(ctx, ActivityQuoteHolds, CheckoutRef{AccountID: s.st.AccountID, CheckoutID: c.ID}, &holds); err != nil || holds {
			return
		}
		s.log.Info("the billing address no longer fits the open checkout's quote: closed", "checkout", c.ID, "purpose", c.Purpose)
		_ = s.expireOpenCheckout(ctx)
		s.wake.SendAsync(true)
	})
	return nil
}
