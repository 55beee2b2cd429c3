package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"kudos"
)

// paymentStateSince is the PaymentStateSince search attribute of the
// workflow's state: the moment PaymentState last changed, noted in the state
// (so that it survives continue-as-new) the first time the new value is
// upserted. Upserts are matched on replay by their type only, so histories
// recorded before this attribute existed replay unchanged.
func (s *subscription) paymentStateSince(ctx workflow.Context) time.Time {
	StampPaymentState(&s.st, workflow.Now(ctx))
	return *s.st.PaymentStateSince
}

// StampPaymentState notes in st when its PaymentState took its current value,
// if that value is new: now, or, for a state rebuilt (from the read model,
// or by a run from before PaymentStateSince), when it began as the state
// tells: a checkout when it was opened (its expiry less CheckoutTTL), a
// renewal in dunning at its renewal date; so that a payment stuck since
// before a restart is still found by the runbook's queries.
func StampPaymentState(st *kudos.SubscriptionState, now time.Time) {
	state := PaymentStateOf(st)
	if st.PaymentStateSince != nil && st.PaymentState == state {
		return
	}
	since := now.UTC()
	var began time.Time // when the state began, as the state itself tells
	switch {
	case state == PaymentCheckoutOpen && st.CheckoutTTL > 0:
		began = st.Checkout.ExpiresAt.Add(-st.CheckoutTTL)
	case state == PaymentRetrying:
		began = st.Dunning.PeriodStart
	}
	if !began.IsZero() && began.Before(since) {
		since = began.UTC()
	}
	st.PaymentState, st.PaymentStateSince = state, &since
}
