package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/tracing"
)

func (s *subscription) registerHandlers(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QuerySubscription, func() (kudos.SubscriptionState, error) { return s.st, nil }); err != nil {
		return err
	}
	updates := []struct {
		name      string
		handler   any
		validator any
	}{
		{UpdateCreateSubscription, s.create, s.validateCreate},
		{UpdateUpgradeSubscription, s.upgrade, s.validateUpgrade},
		{UpdatePayInvoice, s.payInvoice, s.validatePayInvoice},
		{UpdateSetAutoRenewal, s.setAutoRenewal, s.validateAutoRenewal},
		{UpdateCancelCheckout, s.cancelCheckout, nil},
		{UpdateQuoteChanged, s.quoteChanged, s.validateQuoteChanged},
		{UpdatePrepareDeletion, s.prepareDeletion, s.validatePrepareDeletion},
		{UpdateDeletionCancelled, s.deletionCancelled, nil},
		{UpdatePaymentEvent, s.paymentEvent, nil},
		{UpdateScheduleDowngrade, s.scheduleDowngrade, s.validateDowngrade},
		{UpdateCancelScheduledChange, s.cancelScheduledChange, nil},
		{UpdateChangeSeats, s.changeSeats, s.validateChangeSeats},
	}
	for _, u := range updates {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, u.name, u.handler, workflow.UpdateHandlerOptions{Validator: u.validator}); err != nil {
			return err
		}
	}
	return nil
}

func invalid(typ, format string, args ...any) error {
	return temporal.NewApplicationError(fmt.Sprintf(format, args...), typ)
}

// notDeleting refuses, while the account's deletion is prepared or
// scheduled (State.Deleting), what would take or commit money; what names
// what the owner cancels the deletion to do.
func (s *subscription) notDeleting(what string) error {
	if s.st.Deleting {
		return invalid(ErrTypeAccountBeingDeleted, "This account is being deleted: cancel the deletion to %s", what)
	}
	return nil
}

// validateCreate: a plan is started from the trial (running or expired).
func (s *subscription) validateCreate(_ workflow.Context, req PlanRequest) error {
	if !req.Plan.IsPaid() {
		return invalid(ErrTypeInvalidPlan, "unknown plan %q", req.Plan)
	}
	if err := s.notDeleting("change the plan"); err != nil {
		return err
	}
	if s.st.Plan != kudos.PlanTrial {
		return invalid(ErrTypeInvalidTransition, "the account already has a plan")
	}
	return nil
}

// create opens the checkout of a first plan. A second request for the same
// plan while it is open gets the same checkout: never a second subscription.
func (s *subscription) create(ctx workflow.Context, req PlanRequest) (CheckoutResponse, error) {
	return s.checkoutWith(ctx, kudos.CheckoutSubscription, req.Plan, s.promotionCode(ctx, req), 0, func() (OpenCheckoutInput, error) {
		if err := s.validateCreate(ctx, req); err != nil { // the state may have moved while we waited
			return OpenCheckoutInput{}, err
		}
		return OpenCheckoutInput{Plan: req.Plan, InvoiceID: s.updateKey(ctx, "invoice")}, nil
	})
}

// validateUpgrade: only up the order Starter → Pro → Team, from an active plan.
func (s *subscription) validateUpgrade(_ workflow.Context, req PlanRequest) error {
	if !req.Plan.IsPaid() {
		return invalid(ErrTypeInvalidPlan, "unknown plan %q", req.Plan)
	}
	if !s.st.Plan.IsPaid() || s.st.Status != kudos.StatusActive || s.st.RenewalAt == nil {
		return invalid(ErrTypeInvalidTransition, "only an active plan can be upgraded")
	}
	if err := s.notDeleting("change the plan"); err != nil {
		return err
	}
	if s.st.Dunning != nil {
		return invalid(ErrTypeInvalidTransition, "a renewal payment is outstanding")
	}
	if s.st.PendingRenewal != nil {
		return invalid(ErrTypeInvalidTransition, "a renewal payment is being processed")
	}
	if kudos.PlanRank(req.Plan) <= kudos.PlanRank(s.st.Plan) {
		return invalid(ErrTypeInvalidPlan, "%s is not above %s", req.Plan, s.st.Plan)
	}
	return nil
}

// upgrade opens the checkout of the prorated difference to a higher plan.
func (s *subscription) upgrade(ctx workflow.Context, req PlanRequest) (CheckoutResponse, error) {
	return s.checkoutWith(ctx, kudos.CheckoutUpgrade, req.Plan, s.promotionCode(ctx, req), 0, func() (OpenCheckoutInput, error) {
		if err := s.validateUpgrade(ctx, req); err != nil {
			return OpenCheckoutInput{}, err
		}
		return OpenCheckoutInput{Plan: req.Plan, FromPlan: s.st.Plan, InvoiceID: s.updateKey(ctx, "invoice"),
			Remaining: s.st.RenewalAt.Sub(workflow.Now(ctx)), Period: s.currentPeriod()}, nil
	})
}

// currentPeriod is the length of the period being paid, which an upgrade
// prorates: since version 3 its real length (a calendar year is 365 or 366
// days), the configured period before.
func (s *subscription) currentPeriod() time.Duration {
	if s.round3 && s.st.PeriodStartedAt != nil && s.st.RenewalAt != nil {
		return s.st.RenewalAt.Sub(*s.st.PeriodStartedAt)
	}
	return s.st.Period
}

// validatePayInvoice: the invoice must be the account's due invoice, or the
// renewal being retried (dunning: the customer pays it without waiting for
// the next attempt).
func (s *subscription) validatePayInvoice(_ workflow.Context, req PayInvoiceRequest) error {
	if _, ok := s.payable(req.InvoiceID); !ok {
		return invalid(ErrTypeInvalidTransition, "this invoice is not due")
	}
	if err := s.notDeleting("pay an invoice"); err != nil {
		return err
	}
	if p := s.st.PendingRenewal; p != nil && p.InvoiceID == req.InvoiceID { // paying it again could take the money twice
		return invalid(ErrTypeInvalidTransition, "a payment of this invoice is being processed")
	}
	return nil
}

// payable returns the plan the account is on once an unpaid invoice of it
// is paid: the due invoice of an expired plan (its plan), the renewal
// being retried, or an invoice owed since its debit came back (the plan it
// is on: paying a debt changes no plan, so its checkout is checked and
// counted against that plan's seats, never the older invoice's).
func (s *subscription) payable(invoiceID uuid.UUID) (kudos.Plan, bool) {
	switch {
	case s.st.Due != nil && s.st.Due.ID == invoiceID:
		return s.st.Due.Plan, true
	case s.st.Dunning != nil && s.st.Dunning.InvoiceID == invoiceID:
		return s.st.Plan, true
	}
	if s.st.Owes(invoiceID) {
		return s.st.Plan, true
	}
	return "", false
}

// payInvoice opens the checkout of the due invoice ('continue with plan').
func (s *subscription) payInvoice(ctx workflow.Context, req PayInvoiceRequest) (CheckoutResponse, error) {
	if err := s.validatePayInvoice(ctx, req); err != nil {
		return CheckoutResponse{}, err
	}
	plan, _ := s.payable(req.InvoiceID)
	return s.checkoutOf(ctx, kudos.CheckoutInvoice, plan, req.InvoiceID, func() (OpenCheckoutInput, error) {
		if err := s.validatePayInvoice(ctx, req); err != nil {
			return OpenCheckoutInput{}, err
		}
		return OpenCheckoutInput{Plan: plan, InvoiceID: req.InvoiceID}, nil
	})
}

// checkoutOf returns the open checkout for (purpose, plan) that pays
// invoice if there is one, or replaces any other open checkout with a new
// one built by input (two invoices of one plan may be payable at once: an
// expired plan's and one owed).
func (s *subscription) checkoutOf(ctx workflow.Context, purpose kudos.CheckoutPurpose, plan kudos.Plan, invoice uuid.UUID,
	input func() (OpenCheckoutInput, error)) (resp CheckoutResponse, err error) {
	return s.checkoutFor(ctx, purpose, plan, "", 0, invoice, input)
}

// checkoutWith is checkout priced with the promotion code code ("" none)
// for what has extraSeats too (a seats checkout's count, issue 38; 0 for
// the others): the open checkout is the same one only with the same code
// and seats.
func (s *subscription) checkoutWith(ctx workflow.Context, purpose kudos.CheckoutPurpose, plan kudos.Plan, code string, extraSeats int,
	input func() (OpenCheckoutInput, error)) (resp CheckoutResponse, err error) {
	return s.checkoutFor(ctx, purpose, plan, code, extraSeats, uuid.Nil, input)
}

// checkoutFor is checkoutWith for a checkout that pays an existing invoice
// (uuid.Nil: one of its own, priced when it opens): the open checkout is
// the same one only when it pays that invoice.
func (s *subscription) checkoutFor(ctx workflow.Context, purpose kudos.CheckoutPurpose, plan kudos.Plan, code string, extraSeats int,
	invoice uuid.UUID, input func() (OpenCheckoutInput, error)) (resp CheckoutResponse, err error) {
	s.withLock(ctx, func() {
		s.inUpdate = true
		defer func() { s.inUpdate = false }()
		if c := s.st.Checkout; c != nil {
			if c.Purpose == purpose && c.Plan == plan && discountCode(c.Promotion) == code && c.ExtraSeats == extraSeats &&
				(invoice == uuid.Nil || c.InvoiceID == invoice) {
				resp.CheckoutHref = c.URL
				return
			}
			if c.Pending {
				err = invalid(ErrTypeInvalidTransition, "a payment is being processed")
				return
			}
			if err = s.expireOpenCheckout(ctx); err != nil { // the provider did not answer in time
				return
			}
			if s.st.Checkout != nil { // its payment turned out to be settling
				err = invalid(ErrTypeInvalidTransition, "a payment is being processed")
				return
			}
		}
		var in OpenCheckoutInput
		if in, err = input(); err != nil {
			return
		}
		in.AccountID, in.Purpose, in.PromotionCode = s.st.AccountID, purpose, code
		in.CheckoutID = "co_" + s.updateKey(ctx, "checkout").String()
		in.ExpiresAt = workflow.Now(ctx).Add(s.st.CheckoutTTL)
		// A debt paid changes no plan: the customer comes back to the
		// invoices (and the account is not shown processing meanwhile:
		// DisplayStatus).
		in.Owed = invoice != uuid.Nil && s.st.Owes(invoice)
		var res OpenCheckoutResult
		if err = s.activity(ctx, updateActivityOptions, ActivityOpenCheckout, in).Get(ctx, &res); err != nil {
			return
		}
		if res.Waived {
			s.log.Info("upgrade under the minimum charge: applied without one", "plan", plan, "amount", res.WaivedAmount)
			s.renderPDF(ctx, in.InvoiceID)
			waived := &kudos.OpenCheckout{ID: in.CheckoutID, Purpose: purpose, Plan: plan, InvoiceID: in.InvoiceID, ExtraSeats: in.ExtraSeats}
			if res.Promotion != nil && s.newer(ctx, "waived-promotion") {
				// The code that brought it under the minimum was used for
				// it: a forever (years) code discounts the renewals, as
				// after a paid checkout.
				waived.Promotion = res.Promotion
			}
			s.applyPaid(ctx, waived)
			resp.Applied = true
			return
		}
		s.st.Checkout = &kudos.OpenCheckout{ID: in.CheckoutID, ProviderID: res.ProviderID, URL: res.URL, Purpose: purpose,
			Plan: plan, InvoiceID: in.InvoiceID, ExpiresAt: in.ExpiresAt, Promotion: res.Promotion, ExtraSeats: in.ExtraSeats}
		s.record(ctx)
		s.wake.SendAsync(true)
		resp.CheckoutHref = res.URL
	})
	return resp, err
}

// validateAutoRenewal: only a paid plan renews.
func (s *subscription) validateAutoRenewal(_ workflow.Context, req AutoRenewalRequest) error {
	if !s.st.Plan.IsPaid() || s.st.Status != kudos.StatusActive {
		return invalid(ErrTypeInvalidTransition, "only an active plan renews")
	}
	if req.On {
		return s.notDeleting("change the plan")
	}
	return nil
}

// setAutoRenewal turns renewal at plan_renewal_at on or off.
func (s *subscription) setAutoRenewal(ctx workflow.Context, req AutoRenewalRequest) error {
	var err error
	s.withLock(ctx, func() { err = s.turnAutoRenewal(ctx, req.On) })
	return err
}

// turnAutoRenewal is setAutoRenewal under the lock (also prepareDeletion's).
func (s *subscription) turnAutoRenewal(ctx workflow.Context, on bool) error {
	if err := s.validateAutoRenewal(ctx, AutoRenewalRequest{On: on}); err != nil || s.st.AutoRenew == on {
		return err
	}
	s.st.AutoRenew = on
	// The period has ended unpaid: stopping renewal ends the plan now.
	// Turning it back on (stopped before a returned debit's retries began)
	// ends nothing: the retries go on (runs since "restart-in-dunning").
	if s.st.Dunning != nil && s.st.PendingRenewal == nil && (!on || !s.newer(ctx, "restart-in-dunning")) {
		if c := s.openForRetried(); !on && c != nil && !c.Pending && s.newer(ctx, "stop-asks-the-checkout") {
			// A run rebuilt from Postgres does not know whether the
			// customer paid the renewal on its checkout: the provider is
			// asked first (closing it if still open), and a debit settling
			// on it decides, as below.
			_ = s.expireOpenCheckout(ctx)
			if s.st.Dunning == nil { // it was paid meanwhile: the period goes on, not renewed after
				s.record(ctx)
				s.wake.SendAsync(true)
				return nil
			}
		}
		if c := s.openForRetried(); !on && c != nil && c.Pending && s.newer(ctx, "stop-while-checkout-settles") {
			// The customer paid the renewal on its checkout and the debit
			// settles: its outcome decides. Paid, the period goes on (and
			// is not renewed after); failed, the plan ends at the next
			// attempt's time (retryRenewal), never charged again.
			s.record(ctx)
			s.wake.SendAsync(true)
			return nil
		}
		s.endDunningUnpaid(ctx)
		s.wake.SendAsync(true)
		return nil
	}
	s.record(ctx)
	s.wake.SendAsync(true)
	return nil
}

// cancelCheckout ends the open checkout at once because the customer backed
// out (the provider's cancel link, the processing overlay). The provider is
// asked first, as at expiry: a checkout that was paid meanwhile is applied,
// one whose payment is settling stays.
func (s *subscription) cancelCheckout(ctx workflow.Context) (res CancelCheckoutResult, err error) {
	s.withLock(ctx, func() {
		s.inUpdate = true
		defer func() { s.inUpdate = false }()
		c := s.st.Checkout
		if c == nil || !c.Purpose.ChangesPlan() { // not one the customer waits on in the app
			res.Status = "none"
			return
		}
		if c.Pending {
			res.Status = string(kudos.PaymentPending)
			return
		}
		var outcome kudos.PaymentOutcome
		if outcome, err = s.askProvider(ctx, c); err != nil {
			return
		}
		if outcome == kudos.PaymentExpired {
			outcome = kudos.PaymentCancelled
		}
		s.settleOpenCheckout(ctx, outcome, "")
		s.wake.SendAsync(true)
		res.Status = string(outcome)
	})
	return res, err
}

// paymentEvent takes a payment event delivered as an update into the
// main loop's queue, which applies it as one delivered as a signal: in the
// order the events came, one at a time (handlers waiting for the lock
// would not keep their order). It has no validator and never fails: once
// accepted (recorded in the history), the event is the workflow's to
// apply, and a repeat of it changes nothing. The update's trace span goes
// with the event, so that the activities that apply it join the trace of
// its webhook (issue 40; no command: old histories replay as they were).
func (s *subscription) paymentEvent(ctx workflow.Context, ev kudos.PaymentEvent) error {
	if span := tracing.WorkflowSpan(ctx); span != nil {
		if s.spans == nil {
			s.spans = map[string]any{}
		}
		s.spans[ev.EventID] = span
	}
	s.inbox.Send(ctx, ev)
	return nil
}

// tracedEvent is ctx carrying the span of the update that delivered ev
// (taken: a second delivery brings its own).
func (s *subscription) tracedEvent(ctx workflow.Context, ev kudos.PaymentEvent) workflow.Context {
	span := s.spans[ev.EventID]
	delete(s.spans, ev.EventID)
	return tracing.WithWorkflowSpan(ctx, span)
}
