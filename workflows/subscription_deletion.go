package workflows

import (
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// UpdatePrepareDeletion readies the subscription for the account's
// deletion (issue 34), before it is scheduled: the open checkout is closed
// at the provider (a payment found there is applied, as at any close), so
// that no hosted page stays payable for an account that will be erased,
// and auto-renewal is turned off under the same lock (no renewal charge can
// start between the check below and the deletion being recorded); a
// renewal being retried ends unpaid then, so its charges still waiting on
// the customer's authentication are cancelled at the provider first (runs
// since "deletion-cancels-open-charges"). A
// payment settling at the bank (a SEPA debit: a checkout complete and
// settling, or a renewal charge processing) cannot be stopped at the
// provider: the update is refused (409), naming it, and the owner deletes
// the account once it has settled.
const UpdatePrepareDeletion = "prepare_deletion"

// PrepareDeletionResult tells how the open checkout ended ("none": there
// was none).
type PrepareDeletionResult struct {
	Checkout string
}

// validatePrepareDeletion refuses while a payment settles.
func (s *subscription) validatePrepareDeletion(workflow.Context) error {
	return s.paymentSettling()
}

// paymentSettling is the refusal of a deletion while a payment settles at
// the bank, nil when none does.
func (s *subscription) paymentSettling() error {
	const wait = "it cannot be stopped at the bank: the account can be deleted once it has settled (a SEPA debit takes up to 14 days)"
	if p := s.st.PendingRenewal; p != nil {
		return invalid(ErrTypeInvalidTransition, "The renewal payment of %s (invoice %s, SEPA Direct Debit) has been settling since %s; %s",
			p.PeriodStart.UTC().Format("2006-01-02"), p.InvoiceID, p.Since.UTC().Format("2006-01-02"), wait)
	}
	if c := s.st.Checkout; c != nil && c.Pending {
		since := "today"
		if c.PendingSince != nil {
			since = c.PendingSince.UTC().Format("2006-01-02")
		}
		return invalid(ErrTypeInvalidTransition, "The payment of checkout %s (%s %s, SEPA Direct Debit) has been settling since %s; %s",
			c.ID, c.Purpose, c.Plan, since, wait)
	}
	return nil
}

// prepareDeletion turns auto-renewal off and closes the open checkout at
// the provider (cancelled), or applies it when the provider says it was
// paid; one found settling now refuses the deletion like one known to
// settle.
func (s *subscription) prepareDeletion(ctx workflow.Context) (res PrepareDeletionResult, err error) {
	s.withLock(ctx, func() {
		s.inUpdate = true
		defer func() { s.inUpdate = false }()
		if err = s.paymentSettling(); err != nil { // the state may have moved while we waited
			return
		}
		res.Checkout = "none"
		if c := s.st.Checkout; c != nil {
			var outcome kudos.PaymentOutcome
			if outcome, err = s.askProvider(ctx, c); err != nil {
				return
			}
			if outcome == kudos.PaymentExpired || outcome == "" {
				outcome = kudos.PaymentCancelled
			}
			s.log.Info("the account is to be deleted: its open checkout is closed", "checkout", c.ID, "outcome", outcome)
			s.settleOpenCheckout(ctx, outcome, "")
			s.wake.SendAsync(true)
			res.Checkout = string(outcome)
			if err = s.paymentSettling(); err != nil {
				return
			}
		}
		if s.st.Dunning != nil && s.newer(ctx, "deletion-cancels-open-charges") {
			// Auto-renewal off ends the renewal being retried unpaid: a
			// charge of it still waiting on the customer's authentication
			// is cancelled at the provider, or it could be completed
			// during the grace period for a period that never starts (the
			// erasure cancels again what is left then).
			if cerr := s.run(ctx, ActivityCancelOpenCharges, CustomerRef{AccountID: s.st.AccountID}, nil); cerr != nil {
				s.log.Error("the renewal charges waiting on the customer could not be cancelled: the erasure cancels them", "err", cerr)
			}
		}
		if s.st.AutoRenew && s.validateAutoRenewal(ctx, AutoRenewalRequest{}) == nil {
			_ = s.turnAutoRenewal(ctx, false)
		}
		if d := s.st.Dunning; d != nil && d.Returned && s.st.PendingRenewal == nil && s.newer(ctx, "deletion-holds-returned") {
			// A returned debit is retried whatever auto-renewal says, so
			// with auto-renewal stopped before, turning it off above ended
			// nothing: nothing is charged off-session for an account
			// being deleted. Its invoice is held as owed, as a return
			// during the grace is; cancelling the deletion resumes it.
			s.holdDunningOwed()
			s.record(ctx)
			s.wake.SendAsync(true)
		}
		if s.newer(ctx, "deletion-lock") {
			// From here until the deletion is cancelled or given up, money
			// requests are refused here too: one that passed the api's
			// check before the deletion was recorded would otherwise open
			// a checkout, or turn auto-renewal back on, now.
			s.st.Deleting = true
		}
	})
	return res, err
}

// DeletionCancelRequest is the argument of UpdateDeletionCancelled sent
// to a subscription workflow: the account's deletion was cancelled, or
// its scheduling given up after the preparation; AutoRenewal turns back
// on the auto-renewal that the preparation turned off (a plan that no
// longer renews leaves it off).
type DeletionCancelRequest struct {
	AutoRenewal bool
}

// deletionCancelled lifts the refusals of a deletion being prepared or
// scheduled (State.Deleting), and turns auto-renewal back on when asked.
// Sent by the api (with the owner's choice) and by the outbox (without:
// it only lifts them, whatever happened to the api's call); a repeat
// changes nothing.
func (s *subscription) deletionCancelled(ctx workflow.Context, req DeletionCancelRequest) error {
	s.withLock(ctx, func() {
		s.st.Deleting = false
		if req.AutoRenewal && !s.st.AutoRenew && s.validateAutoRenewal(ctx, AutoRenewalRequest{On: true}) == nil {
			_ = s.turnAutoRenewal(ctx, true)
		}
		s.collectOwed(ctx) // a debit returned during the grace is collected now the account goes on
	})
	return nil
}
