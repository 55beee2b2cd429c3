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
func (s *subscription) paymentStateSince(ctx workflow.Context, state string) time.Time {
	stampPaymentState(&s.st, state, workflow.Now(ctx))
	return *s.st.PaymentStateSince
}

// paymentState is the PaymentState search attribute of the run: runs from
// before version 3 know no "pending", so that their histories replay with
// the same upserts.
func (s *subscription) paymentState() string {
	if s.round3 {
		return PaymentStateOf(&s.st)
	}
	return paymentStateBefore3(&s.st)
}

// StampPaymentState notes in st when its PaymentState took its current value,
// if that value is new: now, or, for a state rebuilt (from the read model,
// or by a run from before PaymentStateSince), when it began as the state
// tells: a checkout when it was opened (its expiry less CheckoutTTL), a
// payment in dunning when its schedule began (the renewal date, or when a
// debit came back); so that a payment stuck since
// before a restart is still found by the runbook's queries.
func StampPaymentState(st *kudos.SubscriptionState, now time.Time) {
	stampPaymentState(st, PaymentStateOf(st), now)
}

// stampPaymentState is StampPaymentState with the state given.
func stampPaymentState(st *kudos.SubscriptionState, state string, now time.Time) {
	if st.PaymentStateSince != nil && st.PaymentState == state {
		return
	}
	since := now.UTC()
	var began time.Time // when the state began, as the state itself tells
	switch {
	case state == PaymentCheckoutOpen && st.CheckoutTTL > 0 && st.Checkout != nil:
		began = st.Checkout.ExpiresAt.Add(-st.CheckoutTTL)
	case state == PaymentPending && st.PendingRenewal != nil:
		began = st.PendingRenewal.Since
	case state == PaymentPending && st.Checkout != nil && st.Checkout.PendingSince != nil:
		began = *st.Checkout.PendingSince
	case state == PaymentRetrying: // since the schedule's base: the renewal date, or when a debit came back
		began = st.Dunning.Base()
	}
	if !began.IsZero() && began.Before(since) {
		since = began.UTC()
	}
	st.PaymentState, st.PaymentStateSince = state, &since
}
