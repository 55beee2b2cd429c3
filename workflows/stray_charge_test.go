package workflows_test

import (
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// TestAStrayChargeWhileARetrySettlesIsRefunded: the renewal's first charge
// needed authentication; the retry three days later is a debit still
// settling when the customer completes that first charge. The renewal is
// not paid twice: the retry settling stays the one the workflow waits on,
// and the completed first charge is given back in full (api tests cover
// the charge that pays a renewal still owed, and the one completed after
// the renewal was paid on its checkout).
func TestAStrayChargeWhileARetrySettlesIsRefunded(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{{FailureReason: workflows.FailureAuthenticationRequired}, {Pending: true}}
	st := paidState(kudos.PlanPro, day)
	amount := kudos.Money{Amount: 21780, Currency: "EUR"}
	var first string
	e.at(day+72*time.Hour+time.Hour, func() {
		s := e.state()
		if s.PendingRenewal == nil || s.Dunning == nil || len(e.acts.renewals) != 2 {
			t.Fatalf("want the retry settling: pending %+v, dunning %+v, charges %+v", s.PendingRenewal, s.Dunning, e.acts.renewals)
		}
		first = e.acts.renewals[0].ChargeID
		e.sendMovement(kudos.PaymentEvent{EventID: "evt_first_authenticated", Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{
			Movement: kudos.MovementCharge, ChargeID: first, PaymentID: "pi_first", Amount: &amount}})
	})
	e.at(day+72*time.Hour+2*time.Hour, func() {
		s := e.state()
		if s.PendingRenewal == nil || s.PendingRenewal.ChargeID == first || s.Dunning == nil {
			t.Errorf("after the stray charge: pending %+v, dunning %+v", s.PendingRenewal, s.Dunning)
		}
		if len(e.acts.strays) != 1 || e.acts.strays[0].ChargeID != first || e.acts.strays[0].Amount != amount ||
			e.acts.strays[0].PaymentID != "pi_first" || e.acts.strays[0].Plan != kudos.PlanPro {
			t.Errorf("refunds of stray charges %+v, want the first charge's", e.acts.strays)
		}
		if len(e.acts.renewals) != 2 {
			t.Errorf("charge calls %+v, want no ask under the stray charge's key", e.acts.renewals)
		}
		if !contains(e.acts.applied, "evt_first_authenticated") {
			t.Errorf("events marked applied: %v", e.acts.applied)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}
