package dispatch_test

import (
	"testing"
	"time"

	"kudos/dispatch"
)

// TestThePaymentsListedReachTheSlowestDebit: a SEPA debit may settle
// after Kudos's pending limit (14 days by default; Stripe allows 14
// business days, about three weeks). The provider reconciliation lists the
// provider's payments only as far back as this overlap: one created before
// it and booked in the window was reported payment_unknown ("check the
// charge"), for money Stripe had, and never compared from Stripe's side.
func TestThePaymentsListedReachTheSlowestDebit(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct{ limit, want time.Duration }{
		{336 * time.Hour, 22 * day}, // the default limit: the slowest debit, and a day
		{30 * day, 31 * day},        // a longer limit: the limit, and a day
	} {
		if got := dispatch.PaymentOverlapFor(tc.limit); got != tc.want {
			t.Errorf("PaymentOverlapFor(%v) = %v, want %v", tc.limit, got, tc.want)
		}
	}
	if dispatch.ProviderPaymentOverlap < dispatch.ProviderSlowestDebit+day {
		t.Errorf("ProviderPaymentOverlap %v, want at least %v", dispatch.ProviderPaymentOverlap, dispatch.ProviderSlowestDebit+day)
	}
}
