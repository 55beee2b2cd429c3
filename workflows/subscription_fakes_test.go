package workflows_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"kudos"
	"kudos/workflows"
)

// fakeActivities records every subscription activity call; its methods
// have the names of the real ones, so the workflow runs against it.
type fakeActivities struct {
	mu             sync.Mutex
	writes         []kudos.Subscription
	opened         []workflows.OpenCheckoutInput
	closed         []workflows.CloseCheckoutInput
	renewals       []workflows.RenewalInput
	dues           []workflows.DueInvoiceInput
	pdfs           []workflows.InvoicePDFInput
	declineRenewal bool
	// expired are the checkouts closed at the provider; expireOutcome is
	// what the provider says of them ("" : expired).
	expired       []workflows.ExpireCheckoutInput
	expireOutcome kudos.PaymentOutcome
	// checkouts is the read model's checkouts (LoadCheckout); refunds the
	// checkouts refunded.
	checkouts map[string]kudos.CheckoutRecord
	refunds   []workflows.CheckoutRef
	// onLoad runs while LoadCheckout runs (a moment in which the workflow
	// waits on an activity).
	onLoad func()
	// lifecycle is what LoadLifecycle answers; renewalResults, when set,
	// answer the renewal charges in turn (then declineRenewal decides).
	lifecycle      kudos.Lifecycle
	renewalResults []workflows.RenewalResult
	// mails are the billing mails asked for; sent those the e-mail
	// workflow delivered.
	mails []workflows.BillingMailInput
	sent  []kudos.MailRequest
	// verified are the payment methods verified.
	verified []workflows.CheckoutRef
	// settlements are the payments settled by SettlePayment; separate
	// counts SettlePaidCheckout run on its own (runs from before).
	settlements []workflows.SettlePaymentInput
	separate    int
	// applied are the payment events marked applied (by their own
	// activity, or with a write or a settlement).
	applied []string
	// refundRefusals answer the refunds in turn ("temporary", "permanent"
	// or "" for done); refundInputs are the refunds asked for.
	refundRefusals []string
	refundInputs   []workflows.RefundInput
	// cancels are the renewal charges cancelled; cancelResult answers them.
	cancels      []workflows.RenewalInput
	cancelResult workflows.RenewalResult
	// onOpen runs (once) while OpenCheckout runs.
	onOpen func()
	// staleQuotes are the checkouts whose quote no longer holds
	// (QuoteHolds); quoteChecks counts the questions.
	staleQuotes map[string]bool
	quoteChecks int
	// booked are the provider refunds booked (BookRefund).
	booked []workflows.BookRefundInput
	// promotions are the promotion codes OpenCheckout knows (their terms).
	promotions map[string]kudos.Discount
	// openChargeCancels counts CancelOpenCharges; strays are the renewal
	// charges given back by RefundStrayCharge (each refunded).
	openChargeCancels int
	strays            []workflows.StrayChargeInput
}

func (f *fakeActivities) CancelOpenCharges(context.Context, workflows.CustomerRef) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.openChargeCancels++
	return nil
}

func (f *fakeActivities) RefundStrayCharge(_ context.Context, in workflows.StrayChargeInput) (workflows.StrayChargeResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.strays = append(f.strays, in)
	return workflows.StrayChargeResult{Refunded: true}, nil
}

func (f *fakeActivities) MarkEventsApplied(_ context.Context, in workflows.MarkEventsAppliedInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, in.EventIDs...)
	return nil
}

func (f *fakeActivities) CancelRenewalCharge(_ context.Context, in workflows.RenewalInput) (workflows.RenewalResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels = append(f.cancels, in)
	return f.cancelResult, nil
}

func (f *fakeActivities) LoadLifecycle(context.Context, workflows.LifecycleInput) (kudos.Lifecycle, error) {
	return f.lifecycle, nil
}

// QueueBillingMail records the mail asked for, and queues it once per key
// (as the outbox does).
func (f *fakeActivities) QueueBillingMail(_ context.Context, in workflows.BillingMailInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mails = append(f.mails, in)
	for _, s := range f.sent {
		if s.Key == in.Key {
			return nil
		}
	}
	b := in.Billing
	f.sent = append(f.sent, kudos.MailRequest{Key: in.Key, Purpose: in.Purpose, To: "owner@example.com", Language: "en", Billing: &b})
	return nil
}

func (f *fakeActivities) VerifyPaymentMethod(_ context.Context, in workflows.CheckoutRef) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.verified = append(f.verified, in)
	if c, ok := f.checkouts[in.CheckoutID]; ok {
		c.Status = "paid"
		f.checkouts[in.CheckoutID] = c
	}
	return nil
}

// purposes lists the purposes of the billing mails asked for, in order.
func (f *fakeActivities) purposes() []kudos.MailPurpose {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []kudos.MailPurpose
	for _, m := range f.mails {
		out = append(out, m.Purpose)
	}
	return out
}

// SettlePaidCheckout records what the real one does in one transaction: the
// checkout closed as paid and the subscription row written.
func (f *fakeActivities) SettlePaidCheckout(_ context.Context, in workflows.SettlePaidInput) error {
	f.mu.Lock()
	f.separate++
	f.mu.Unlock()
	f.settle(in)
	return nil
}

func (f *fakeActivities) settle(in workflows.SettlePaidInput) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if in.AppliedEvent != "" {
		f.applied = append(f.applied, in.AppliedEvent)
	}
	f.closed = append(f.closed, workflows.CloseCheckoutInput{AccountID: in.AccountID, CheckoutID: in.CheckoutID, Purpose: in.Purpose,
		InvoiceID: in.InvoiceID, Outcome: kudos.PaymentPaid})
	if c, ok := f.checkouts[in.CheckoutID]; ok {
		c.Status = "paid"
		f.checkouts[in.CheckoutID] = c
	}
	f.writes = append(f.writes, in.Record)
}

// SettlePayment is the settlement, the PDF and the receipt in one, as the
// real one composes the real ones.
func (f *fakeActivities) SettlePayment(ctx context.Context, in workflows.SettlePaymentInput) error {
	f.mu.Lock()
	f.settlements = append(f.settlements, in)
	f.mu.Unlock()
	f.settle(in.SettlePaidInput)
	if err := f.RenderInvoicePDF(ctx, workflows.InvoicePDFInput{AccountID: in.AccountID, InvoiceID: in.InvoiceID}); err != nil {
		return err
	}
	if in.Receipt == nil {
		return nil
	}
	return f.QueueBillingMail(ctx, *in.Receipt)
}

func (f *fakeActivities) ExpireCheckout(_ context.Context, in workflows.ExpireCheckoutInput) (kudos.PaymentOutcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.expired = append(f.expired, in)
	if f.expireOutcome != "" {
		return f.expireOutcome, nil
	}
	return kudos.PaymentExpired, nil
}

func (f *fakeActivities) LoadCheckout(_ context.Context, in workflows.CheckoutRef) (kudos.CheckoutRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.onLoad != nil {
		f.onLoad()
		f.onLoad = nil
	}
	c, ok := f.checkouts[in.CheckoutID]
	if !ok {
		return kudos.CheckoutRecord{}, temporal.NewNonRetryableApplicationError("no such checkout", workflows.ErrTypeNoCheckout, nil)
	}
	return c, nil
}

func (f *fakeActivities) RefundCheckout(_ context.Context, in workflows.RefundInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refundInputs = append(f.refundInputs, in)
	if len(f.refundRefusals) > 0 {
		r := f.refundRefusals[0]
		f.refundRefusals = f.refundRefusals[1:]
		switch {
		case r == "temporary" && in.Deferrable:
			return temporal.NewNonRetryableApplicationError("balance_insufficient", workflows.ErrTypeRefundDeferred, nil)
		case r != "":
			return temporal.NewNonRetryableApplicationError("refused", workflows.ErrTypeProviderRefused, nil)
		}
	}
	f.refunds = append(f.refunds, in.CheckoutRef)
	return nil
}

func (f *fakeActivities) OpenCheckout(_ context.Context, in workflows.OpenCheckoutInput) (workflows.OpenCheckoutResult, error) {
	f.mu.Lock()
	onOpen := f.onOpen
	f.onOpen = nil
	f.mu.Unlock()
	if onOpen != nil {
		onOpen()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opened = append(f.opened, in)
	if f.checkouts == nil {
		f.checkouts = map[string]kudos.CheckoutRecord{}
	}
	inv := in.InvoiceID
	f.checkouts[in.CheckoutID] = kudos.CheckoutRecord{ID: in.CheckoutID, ProviderID: "p_" + in.CheckoutID, Purpose: in.Purpose,
		Plan: in.Plan, InvoiceID: &inv, ExpiresAt: in.ExpiresAt, Status: "open"}
	res := workflows.OpenCheckoutResult{ProviderID: "p_" + in.CheckoutID, URL: "https://pay.example/" + in.CheckoutID}
	if d, ok := f.promotions[in.PromotionCode]; ok && in.PromotionCode != "" {
		res.Promotion = &d
	}
	return res, nil
}

func (f *fakeActivities) CloseCheckout(_ context.Context, in workflows.CloseCheckoutInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, in)
	if c, ok := f.checkouts[in.CheckoutID]; ok {
		c.Status = string(in.Outcome)
		f.checkouts[in.CheckoutID] = c
	}
	return nil
}

func (f *fakeActivities) ChargeRenewal(_ context.Context, in workflows.RenewalInput) (workflows.RenewalResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renewals = append(f.renewals, in)
	amount := kudos.Money{Amount: 21780, Currency: "EUR"}
	if len(f.renewalResults) > 0 {
		r := f.renewalResults[0]
		f.renewalResults = f.renewalResults[1:]
		r.Amount = amount
		return r, nil
	}
	if f.declineRenewal {
		return workflows.RenewalResult{Paid: false, FailureReason: "card_declined", Amount: amount}, nil
	}
	return workflows.RenewalResult{Paid: true, Amount: amount}, nil
}

func (f *fakeActivities) CreateDueInvoice(_ context.Context, in workflows.DueInvoiceInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dues = append(f.dues, in)
	return nil
}

func (f *fakeActivities) WriteSubscription(_ context.Context, in workflows.WriteSubscriptionInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if in.AppliedEvent != "" {
		f.applied = append(f.applied, in.AppliedEvent)
	}
	f.writes = append(f.writes, in.Record)
	return nil
}

func (f *fakeActivities) lastWrite() kudos.Subscription {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.writes) == 0 {
		return kudos.Subscription{}
	}
	return f.writes[len(f.writes)-1]
}

const period = 365 * 24 * time.Hour

var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// uuidOne is the account of trialState.
var uuidOne = uuid.MustParse("11111111-1111-1111-1111-111111111111")

// subEnv is a test environment running the subscription workflow on fakes.
type subEnv struct {
	*testsuite.TestWorkflowEnvironment
	t    *testing.T
	acts *fakeActivities
	// bySignal: payment events go as signals, as before the relay
	// delivered them as updates.
	bySignal bool
}

func newSubEnv(t *testing.T) *subEnv {
	var suite testsuite.WorkflowTestSuite
	var out io.Writer = io.Discard
	if os.Getenv("KUDOS_TEST_VERBOSE") != "" {
		out = os.Stderr
	}
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	env.SetWorkflowRunTimeout(10 * period)
	acts := &fakeActivities{}
	env.RegisterWorkflow(workflows.Subscription)
	env.RegisterActivity(acts)
	return &subEnv{TestWorkflowEnvironment: env, t: t, acts: acts}
}

func trialState(expiresIn time.Duration) kudos.SubscriptionState {
	exp := start.Add(expiresIn)
	return kudos.SubscriptionState{AccountID: uuid.MustParse("11111111-1111-1111-1111-111111111111"), Plan: kudos.PlanTrial,
		Status: kudos.StatusActive, TrialExpiresAt: &exp, Period: period, CheckoutTTL: 24 * time.Hour}
}

func paidState(plan kudos.Plan, renewIn time.Duration) kudos.SubscriptionState {
	s := trialState(-time.Hour)
	periodStart, renew := start.Add(renewIn-period), start.Add(renewIn)
	s.Plan, s.Status, s.AutoRenew, s.PeriodStartedAt, s.RenewalAt = plan, kudos.StatusActive, true, &periodStart, &renew
	return s
}

// at runs fn at start+d of the workflow's clock.
func (e *subEnv) at(d time.Duration, fn func()) { e.RegisterDelayedCallback(fn, d) }

// update sends an update and returns a pointer that holds its outcome.
type updateOutcome struct {
	rejected, failed error
	result           workflows.CheckoutResponse
	done             bool
}

func (e *subEnv) update(name string, arg any) *updateOutcome {
	return e.updateWithID(uuid.NewString(), name, arg)
}

// updateWithID sends an update under a chosen id (a reset re-applies an
// update with its id).
func (e *subEnv) updateWithID(id, name string, arg any) *updateOutcome {
	out := &updateOutcome{}
	e.UpdateWorkflow(name, id, &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { out.rejected, out.done = err, true },
		OnComplete: func(res any, err error) {
			out.failed, out.done = err, true
			if r, ok := res.(workflows.CheckoutResponse); ok {
				out.result = r
			}
		},
	}, arg)
	return out
}

func (e *subEnv) state() kudos.SubscriptionState {
	v, err := e.QueryWorkflow(workflows.QuerySubscription)
	if err != nil {
		e.t.Fatal(err)
	}
	var s kudos.SubscriptionState
	if err := v.Get(&s); err != nil {
		e.t.Fatal(err)
	}
	return s
}

// sendEvent delivers a payment event as the outbox relay does: an update
// (a new update id each time, as for a repeat stored under another event
// id), or a signal when bySignal is set.
func (e *subEnv) sendEvent(id, checkoutID string, outcome kudos.PaymentOutcome) {
	ev := kudos.PaymentEvent{EventID: id, CheckoutID: checkoutID, Outcome: outcome}
	if e.bySignal {
		e.SignalWorkflow(workflows.SignalPaymentEvent, ev)
		return
	}
	e.UpdateWorkflow(workflows.UpdatePaymentEvent, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { e.t.Errorf("payment event %s rejected: %v", id, err) },
		OnComplete: func(_ any, err error) {
			if err != nil {
				e.t.Errorf("payment event %s failed: %v", id, err)
			}
		},
	}, ev)
}

func (e *subEnv) openedID(i int) string {
	e.acts.mu.Lock()
	defer e.acts.mu.Unlock()
	if i >= len(e.acts.opened) {
		e.t.Fatalf("checkout %d was not opened (%d opened)", i, len(e.acts.opened))
	}
	return e.acts.opened[i].CheckoutID
}

func (f *fakeActivities) RenderInvoicePDF(_ context.Context, in workflows.InvoicePDFInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pdfs = append(f.pdfs, in)
	return nil
}

// nextRun is the state the run handed on when it continued as new (the
// test fails if it ended otherwise).
func (e *subEnv) nextRun() kudos.SubscriptionState {
	e.t.Helper()
	var can *workflow.ContinueAsNewError
	if err := e.GetWorkflowError(); !errors.As(err, &can) {
		e.t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	var next kudos.SubscriptionState
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		e.t.Fatal(err)
	}
	return next
}

// QuoteHolds answers whether the checkout's quote holds: not for those in
// staleQuotes (all of them under "*").
func (f *fakeActivities) QuoteHolds(_ context.Context, in workflows.CheckoutRef) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.quoteChecks++
	return !f.staleQuotes[in.CheckoutID] && !f.staleQuotes["*"], nil
}
