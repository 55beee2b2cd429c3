package api

import (
	"time"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/dispatch"
	"kudos/workflows"
)

// registerDeletionRoutes adds account deletion (issue 28): the owner
// schedules it, re-authenticated, and may cancel it during the grace
// period.
func (s *Server) registerDeletionRoutes(v1, acc fiber.Router) {
	// DELETE /v1/accounts/{id} is not under acc's path prefix handlers
	// (the account read is served outside the group): it is guarded the
	// same way.
	v1.Delete("/accounts/:accountId", s.requireSession, s.requireMember, s.scheduleDeletion)
	acc.Post("/deletion/cancel", s.cancelDeletion)
}

// scheduleDeletion schedules the account's deletion at the end of the
// grace period. First every open checkout is closed at the provider (the
// workflow's, and those adding a payment method), so that no hosted page
// stays payable for an account about to be erased; a payment settling at
// the bank (SEPA) cannot be stopped, and refuses the deletion (409, naming
// it) until it has settled. The same update turns auto-renewal off
// (nothing is charged again; what was paid stays paid). Then the deletion,
// its workflow and the members' mails are recorded in one transaction. 202
// {deletion_at}; asking again answers the deletion already scheduled.
func (s *Server) scheduleDeletion(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	sub, err := s.DB.Subscription(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	renewing := sub.Plan.IsPaid() && sub.StartNextPeriod // what the cancel may turn back on
	if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdatePrepareDeletion, nil, nil); err != nil {
		return err
	}
	if err := s.closeMethodCheckouts(c); err != nil {
		return s.giveUpDeletion(c, renewing, err)
	}
	at, err := s.DB.ScheduleAccountDeletion(ctx(c), accountID(c), u.ID,
		s.DB.Now().Add(s.Config.DeletionGrace).UTC().Truncate(time.Second), renewing, dispatch.Deletion())
	if err != nil {
		return s.giveUpDeletion(c, renewing, err)
	}
	s.Outbox.Kick()
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"deletion_at": at})
}

// giveUpDeletion undoes the preparation of a deletion that could not be
// recorded (cause: a step after it failed), unless one is recorded (asked
// twice: the first stands): the subscription takes money requests again,
// and auto-renewal is back on if the preparation turned it off. Without
// it the plan would lapse at its renewal date with no deletion scheduled.
// It answers cause; a failure to undo is logged (the owner's retry
// prepares and undoes again).
func (s *Server) giveUpDeletion(c fiber.Ctx, renewing bool, cause error) error {
	if at, err := s.DB.AccountDeletionAt(ctx(c), accountID(c)); err != nil || at != nil {
		return cause
	}
	err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateDeletionCancelled, workflows.DeletionCancelRequest{AutoRenewal: renewing}, nil)
	if err != nil {
		s.Log.Error("a deletion given up after its preparation could not be undone: auto-renewal may be off", "account", accountID(c),
			"err", err, "cause", cause)
	}
	return cause
}

// closeMethodCheckouts closes at the provider the account's open checkouts
// that add a payment method (the api opens them, no workflow owns them):
// one the provider says ended otherwise (saved meanwhile, settling) is left
// to its payment event, which the reconciliation also asks for.
func (s *Server) closeMethodCheckouts(c fiber.Ctx) error {
	open, err := s.DB.OpenMethodCheckouts(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	for _, co := range open {
		outcome, err := s.Payments.ExpireCheckout(ctx(c), co.ProviderID)
		switch {
		case kudos.ErrorCode(err) == kudos.ENotFound:
			outcome = kudos.PaymentExpired
		case err != nil:
			return err
		}
		if outcome == kudos.PaymentExpired || outcome == kudos.PaymentCancelled || outcome == kudos.PaymentFailed {
			if err := s.DB.SetCheckoutStatus(ctx(c), co.ID, string(kudos.PaymentCancelled)); err != nil {
				return err
			}
		}
	}
	return nil
}

// cancelDeletionRequest is the body of an account deletion's cancel:
// re-authentication like scheduling it, and whether to turn back on the
// auto-renewal that scheduling it stopped.
type cancelDeletionRequest struct {
	currentPasswordRequest
	AutoRenewal bool `json:"auto_renewal"`
}

// cancelDeletion cancels the account's scheduled deletion (409 when none
// is), re-authenticated like scheduling it (issue 35: a stolen session must
// not keep an account its owner is erasing). With auto_renewal, the
// auto-renewal that scheduling the deletion stopped is turned back on; a
// plan that no longer renews (it ended meanwhile) leaves it off, as the
// plan tab shows.
func (s *Server) cancelDeletion(c fiber.Ctx) error {
	var req cancelDeletionRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := s.DB.UserByID(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	if err := s.reauthenticateWith(c, u, req.currentPasswordRequest); err != nil {
		return err
	}
	at, stopped, err := s.DB.CancelAccountDeletion(ctx(c), accountID(c), u.ID, req.AutoRenewal, dispatch.Deletion())
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	// The subscription takes money requests again, with the auto-renewal
	// asked back, before the answer (the plan tab reads it next). The
	// outbox's entry sends the same update under the same id: should this
	// call fail, the cancel stands and the entry carries the owner's
	// choice; should both arrive, it applies once.
	err = s.Dispatcher.UpdateAs(ctx(c), accountID(c), dispatch.DeletionUnlockKey(accountID(c), at), workflows.UpdateDeletionCancelled,
		workflows.DeletionCancelRequest{AutoRenewal: req.AutoRenewal && stopped}, nil)
	if err != nil {
		s.Log.Warn("a cancelled deletion's update could not reach the subscription workflow: the outbox delivers it",
			"account", accountID(c), "err", err)
	}
	return c.JSON(fiber.Map{})
}

// notBeingDeleted refuses what would take or commit money from an account
// whose deletion is scheduled (a plan, a renewal, a payment method): the
// owner cancels the deletion first. The refusal has its own code and names
// the deletion and its date (issue 37): a bare 409 reads, in the UI, as an
// edit conflict ("someone else changed this"), which it is not.
func (s *Server) notBeingDeleted(c fiber.Ctx) error {
	return s.notBeingDeletedTo(c, "change the plan")
}

// notBeingDeletedTo is notBeingDeleted whose refusal names what the owner
// cancels the deletion to do ("pay an invoice").
func (s *Server) notBeingDeletedTo(c fiber.Ctx, what string) error {
	at, err := s.DB.AccountDeletionAt(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	if at != nil {
		return kudos.Errorf(kudos.EAccountBeingDeleted, "This account is being deleted on %s: cancel the deletion to %s",
			at.UTC().Format("2 Jan 2006 at 15:04 UTC"), what)
	}
	return nil
}

// scheduleUserDeletion schedules the caller's own deletion (re-authenticated)
// at the end of the grace period: 202 {deletion_at}. The owner of an
// account is refused (409): they transfer it or delete it first. Sign-in
// keeps working until then, and the user can cancel.
func (s *Server) scheduleUserDeletion(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	at, err := s.DB.ScheduleUserDeletion(ctx(c), u.ID, s.DB.Now().Add(s.Config.DeletionGrace).UTC().Truncate(time.Second),
		dispatch.UserDeletion())
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"deletion_at": at})
}

// cancelUserDeletion cancels the caller's scheduled deletion (409 when
// none is), re-authenticated like scheduling it (issue 35). A user who
// belongs to no account then (a sign-in during the grace opens none) is
// given one of their own, as at a sign-in: 200 {account_id}.
func (s *Server) cancelUserDeletion(c fiber.Ctx) error {
	u, err := s.reauthenticatedCaller(c)
	if err != nil {
		return err
	}
	if err := s.DB.CancelUserDeletion(ctx(c), u.ID, dispatch.UserDeletion()); err != nil {
		return err
	}
	id, err := s.ensureAccount(c, u.ID)
	if err != nil {
		return err
	}
	s.Outbox.Kick()
	return c.JSON(fiber.Map{"account_id": id.String()})
}

// userDeletion answers the caller's own scheduled deletion: when, and the
// account that keeps it waiting (issue 35). It is what a user who belongs
// to no account during their grace reads.
func (s *Server) userDeletion(c fiber.Ctx) error {
	d, err := s.DB.UserDeletionOf(ctx(c), session(c).UserID)
	if err != nil {
		return err
	}
	return c.JSON(d)
}
