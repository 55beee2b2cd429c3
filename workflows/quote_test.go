package workflows_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// quoteNews sends the quote_changed update (no argument) and returns
// whether it was rejected.
func (e *subEnv) quoteNews() *updateOutcome {
	out := &updateOutcome{}
	e.UpdateWorkflow(workflows.UpdateQuoteChanged, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept:   func() {},
		OnReject:   func(err error) { out.rejected, out.done = err, true },
		OnComplete: func(_ any, err error) { out.failed, out.done = err, true },
	})
	return out
}

// TestAChangedQuoteClosesTheOpenCheckout (issue 34, item 4): news of a
// changed billing address leaves an open checkout whose quote holds as it
// is; once its quote no longer holds the checkout is closed at the
// provider and here (expired), and the account is no longer processing.
// With nothing open the news is rejected (nothing asked, nothing in the
// history).
func TestAChangedQuoteClosesTheOpenCheckout(t *testing.T) {
	e := newSubEnv(t)
	var idle *updateOutcome
	e.at(time.Hour, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam}) })
	e.at(2*time.Hour, func() {
		if u := e.quoteNews(); u.rejected != nil {
			t.Errorf("news with a checkout open rejected: %v", u.rejected)
		}
	})
	e.at(3*time.Hour, func() {
		if len(e.acts.expired) != 0 || e.state().Checkout == nil || e.acts.quoteChecks != 1 {
			t.Errorf("a quote that holds: expired %+v, checks %d", e.acts.expired, e.acts.quoteChecks)
		}
		e.acts.mu.Lock()
		e.acts.staleQuotes = map[string]bool{e.acts.opened[0].CheckoutID: true}
		e.acts.mu.Unlock()
		e.quoteNews()
	})
	e.at(4*time.Hour, func() {
		if len(e.acts.expired) != 1 || len(e.acts.closed) != 1 || e.acts.closed[0].Outcome != kudos.PaymentExpired {
			t.Errorf("a quote that no longer holds: expired %+v, closed %+v", e.acts.expired, e.acts.closed)
		}
		if s := e.state(); s.Checkout != nil || s.DisplayStatus() != kudos.StatusActive || s.Plan != kudos.PlanTrial {
			t.Errorf("after the close: %+v", s)
		}
		idle = e.quoteNews()
	})
	e.at(5*time.Hour, func() {
		if !idle.done || idle.rejected == nil {
			t.Errorf("news with nothing open: %+v, want rejected", idle)
		}
		if e.acts.quoteChecks != 2 {
			t.Errorf("%d quote checks, want 2", e.acts.quoteChecks)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}

// TestAQuoteChangedWhileTheCheckoutOpens (issue 34, item 4): the billing
// address changes while the checkout is being opened (its price read the
// address before the change): the news is taken while the opening holds
// the lock, and once the checkout is open its quote is asked about and it
// is closed.
func TestAQuoteChangedWhileTheCheckoutOpens(t *testing.T) {
	e := newSubEnv(t)
	var news *updateOutcome
	e.at(time.Hour, func() {
		e.acts.onOpen = func() {
			e.acts.mu.Lock()
			e.acts.staleQuotes = map[string]bool{"*": true}
			e.acts.mu.Unlock()
		}
		e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam})
		news = e.quoteNews() // taken while the update holds the lock
	})
	e.at(2*time.Hour, func() {
		if news == nil || news.rejected != nil || !news.done {
			t.Errorf("news during the opening: %+v", news)
		}
		if len(e.acts.opened) != 1 || len(e.acts.expired) != 1 || e.state().Checkout != nil {
			t.Errorf("opened %d, expired %+v, open %+v: want the stale checkout closed", len(e.acts.opened), e.acts.expired,
				e.state().Checkout)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*24*time.Hour))
	assertCanceled(t, e)
}
