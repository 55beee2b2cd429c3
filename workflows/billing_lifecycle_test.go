package workflows_test

import (
	"slices"
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// lifecycle is the default lifecycle timing of ARCHITECTURE §4.
var lifecycle = kudos.Lifecycle{TrialReminder: 72 * time.Hour, RenewalReminder: 720 * time.Hour, Trial: 14 * 24 * time.Hour,
	DunningSchedule: []time.Duration{72 * time.Hour, 120 * time.Hour, 168 * time.Hour}}

// dunningOnly is lifecycle without the renewal reminder (the tests of
// dunning start a day before a renewal, when it would go out at once).
var dunningOnly = kudos.Lifecycle{DunningSchedule: lifecycle.DunningSchedule}

const day = 24 * time.Hour

func declined() workflows.RenewalResult {
	return workflows.RenewalResult{FailureReason: "card_declined"}
}

func purposes(ps ...kudos.MailPurpose) []kudos.MailPurpose { return ps }

func TestTrialReminderThenExpiry(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	e.at(11*day-time.Minute, func() {
		if got := e.acts.purposes(); len(got) != 0 {
			t.Errorf("mails before the reminder's time: %v", got)
		}
	})
	e.at(11*day+time.Minute, func() {
		if got := e.acts.purposes(); !slices.Equal(got, purposes(kudos.MailTrialReminder)) {
			t.Errorf("3 days before the trial ends: mails %v", got)
		}
		m := e.acts.mails[0]
		if m.Billing.Date == nil || !m.Billing.Date.Equal(start.Add(14*day)) {
			t.Errorf("the reminder names the end %v", m.Billing.Date)
		}
	})
	e.at(14*day+time.Minute, func() {
		if s := e.state(); s.Status != kudos.StatusTrialExpired {
			t.Errorf("after the trial: %s", s.Status)
		}
		if got := e.acts.purposes(); len(got) != 1 || len(e.acts.sent) != 1 {
			t.Errorf("one reminder, delivered once: %v, %d sent", got, len(e.acts.sent))
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)
}

// proBoughtOnDayOne is a trial with the billing lifecycle whose Pro plan is
// bought and paid on its first day.
func proBoughtOnDayOne(t *testing.T) *subEnv {
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	e.at(day, func() { e.update(workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
	e.at(day+time.Hour, func() { e.sendEvent("ev-1", e.openedID(0), kudos.PaymentPaid) })
	return e
}

func TestPurchaseBeforeTheReminderSendsNoReminder(t *testing.T) {
	e := proBoughtOnDayOne(t)
	e.at(20*day, func() {
		if got := e.acts.purposes(); !slices.Equal(got, purposes(kudos.MailPaymentReceipt)) {
			t.Errorf("a trial bought on day 1: mails %v (a receipt, no trial reminder)", got)
		}
		if r := e.acts.mails[0].Billing; r.InvoiceID == nil || *r.InvoiceID != e.acts.opened[0].InvoiceID || r.PeriodEnd == nil {
			t.Errorf("the receipt: %+v", r)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)
}

// TestAPaymentIsOneLocalActivity: since billing-lifecycle 2 a payment is
// settled, its PDF rendered and its receipt queued by one local activity
// (one marker in the payment's workflow task, not three).
func TestAPaymentIsOneLocalActivity(t *testing.T) {
	e := proBoughtOnDayOne(t)
	e.at(2*day, func() {
		invoice := e.acts.opened[0].InvoiceID
		if len(e.acts.settlements) != 1 || e.acts.separate != 0 {
			t.Fatalf("%d SettlePayment, %d SettlePaidCheckout on its own: want one SettlePayment", len(e.acts.settlements), e.acts.separate)
		}
		s := e.acts.settlements[0]
		if s.InvoiceID != invoice || s.Record.Plan != kudos.PlanPro || s.Receipt == nil || s.Receipt.Purpose != kudos.MailPaymentReceipt ||
			*s.Receipt.Billing.InvoiceID != invoice {
			t.Fatalf("settlement %+v: want invoice %s, the PRO row and its receipt", s, invoice)
		}
		if len(e.acts.pdfs) != 1 || len(e.acts.sent) != 1 {
			t.Fatalf("%d PDFs, %d receipts: want one each", len(e.acts.pdfs), len(e.acts.sent))
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, trialState(14*day))
	assertCanceled(t, e)
}

func TestRenewalReminderThenRenewalAndReceipt(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	st := paidState(kudos.PlanPro, 40*day)
	e.at(10*day-time.Minute, func() {
		if got := e.acts.purposes(); len(got) != 0 {
			t.Errorf("mails 30 days + 1 minute before the renewal: %v", got)
		}
	})
	e.at(10*day+time.Minute, func() {
		got := e.acts.purposes()
		if !slices.Equal(got, purposes(kudos.MailRenewalReminder)) {
			t.Fatalf("30 days before the renewal: mails %v", got)
		}
		if b := e.acts.mails[0].Billing; !b.AutoRenew || !b.Date.Equal(*st.RenewalAt) {
			t.Errorf("the reminder: %+v", b)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun() // the run continued as new
	if got := e.acts.purposes(); !slices.Equal(got, purposes(kudos.MailRenewalReminder, kudos.MailPaymentReceipt)) {
		t.Errorf("mails of the period: %v", got)
	}
	if len(e.acts.renewals) != 1 || len(e.acts.sent) != 2 {
		t.Errorf("%d charges, %d mails sent", len(e.acts.renewals), len(e.acts.sent))
	}
}

func TestRenewalReminderWithAutoRenewalOffSaysThePlanEnds(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	st := paidState(kudos.PlanPro, 40*day)
	st.AutoRenew = false
	e.at(40*day+time.Minute, func() {
		got := e.acts.purposes()
		if !slices.Equal(got, purposes(kudos.MailRenewalReminder, kudos.MailPlanExpired)) {
			t.Errorf("mails: %v", got)
		} else if e.acts.mails[0].Billing.AutoRenew {
			t.Error("the reminder says the plan renews")
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// The renewal charge is declined on its date and on every retry of the
// schedule: the plan stays active with payment_retry_at set until the last
// attempt, then expires with the renewal invoice due.
func TestDeclinedRenewalIsRetriedThenThePlanExpires(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.declineRenewal = true
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	check := func(at time.Duration, attempts int, retry time.Duration) {
		e.at(at, func() {
			s := e.state()
			w := e.acts.lastWrite()
			if s.Status != kudos.StatusActive || s.Dunning == nil || s.Dunning.Attempts != attempts || len(e.acts.renewals) != attempts {
				t.Errorf("at %v: status %s, dunning %+v, %d charges", at, s.Status, s.Dunning, len(e.acts.renewals))
				return
			}
			if w.ShowStatus != kudos.StatusActive || w.PaymentRetryAt == nil || !w.PaymentRetryAt.Equal(renewal.Add(retry)) ||
				w.FailedPayment == nil || w.FailedPayment.Amount.Amount != 21780 {
				t.Errorf("at %v the read model shows %+v (retry %v, failed %+v)", at, w, w.PaymentRetryAt, w.FailedPayment)
			}
			if got := workflows.PaymentStateOf(&s); got != workflows.PaymentRetrying {
				t.Errorf("PaymentState %s", got)
			}
		})
	}
	check(day+time.Hour, 1, 3*day)
	check(day+3*day+time.Hour, 2, 5*day)
	check(day+5*day+time.Hour, 3, 7*day)
	e.at(day+7*day+time.Hour, func() {
		s := e.state()
		w := e.acts.lastWrite()
		if s.Status != kudos.StatusPlanExpired || s.Dunning != nil || s.Due == nil || len(e.acts.renewals) != 4 {
			t.Errorf("after the last attempt: %+v, %d charges", s, len(e.acts.renewals))
			e.CancelWorkflow()
			return
		}
		if w.PaymentRetryAt != nil || w.FailedPayment != nil || w.ShowStatus != kudos.StatusPlanExpired {
			t.Errorf("the read model after the last attempt: %+v", w)
		}
		want := purposes(kudos.MailPaymentFailed, kudos.MailPaymentFailed, kudos.MailPaymentFailed, kudos.MailPlanExpired)
		if got := e.acts.purposes(); !slices.Equal(got, want) {
			t.Errorf("mails %v, want %v", got, want)
		}
		keys := map[string]bool{}
		for _, r := range e.acts.renewals {
			keys[r.ChargeID] = true
			if r.InvoiceID != s.Due.ID {
				t.Errorf("attempt on invoice %s, due %s", r.InvoiceID, s.Due.ID)
			}
		}
		if len(keys) != 4 {
			t.Errorf("every attempt needs its own charge key: %v", keys)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// A card added during dunning is charged at once: paid, the period starts
// at the renewal date and dunning ends.
func TestNewCardDuringDunningRecovers(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{declined(), {Paid: true}}
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	e.at(2*day, func() {
		e.acts.mu.Lock()
		e.acts.checkouts = map[string]kudos.CheckoutRecord{"pm_1": {ID: "pm_1", Purpose: kudos.CheckoutPaymentMethod, Status: "open"}}
		e.acts.mu.Unlock()
		e.sendEvent("ev-card", "pm_1", kudos.PaymentPaid)
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun() // the run continued as new
	w := e.acts.lastWrite()
	if w.PaymentRetryAt != nil || w.FailedPayment != nil || !w.PeriodStartedAt.Equal(renewal) || !w.PlanRenewalAt.Equal(renewal.Add(period)) {
		t.Errorf("after the recovery the read model shows %+v", w)
	}
	if len(e.acts.renewals) != 2 || len(e.acts.verified) != 1 || e.acts.renewals[1].InvoiceID != e.acts.renewals[0].InvoiceID {
		t.Errorf("charges %+v, verified %d", e.acts.renewals, len(e.acts.verified))
	}
	if got := e.acts.purposes(); !slices.Equal(got, purposes(kudos.MailPaymentFailed, kudos.MailPaymentReceipt)) {
		t.Errorf("mails %v", got)
	}
}

// An off-session charge that needs authentication mails a link to the
// provider's page; paying there settles the renewal (no second charge).
func TestAuthenticationRequiredIsCompletedOnTheProvidersPage(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{{FailureReason: workflows.FailureAuthenticationRequired}}
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	e.at(day+time.Hour, func() {
		s := e.state()
		if s.Checkout == nil || s.Checkout.Purpose != kudos.CheckoutRenewal || !s.Checkout.ExpiresAt.Equal(renewal.Add(day)) {
			t.Fatalf("no renewal checkout to authenticate: %+v", s.Checkout)
		}
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusActive {
			t.Errorf("the dashboard shows %s while the customer is asked to authenticate", w.ShowStatus)
		}
		got := e.acts.purposes()
		if !slices.Equal(got, purposes(kudos.MailPaymentActionRequired)) || e.acts.mails[0].Billing.PayURL != s.Checkout.URL {
			t.Errorf("mails %v, %+v", got, e.acts.mails)
		}
		e.sendEvent("ev-auth", s.Checkout.ID, kudos.PaymentPaid)
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun() // the run continued as new
	if len(e.acts.renewals) != 1 {
		t.Errorf("charged %d times", len(e.acts.renewals))
	}
	w := e.acts.lastWrite()
	if w.PaymentRetryAt != nil || !w.PeriodStartedAt.Equal(renewal) {
		t.Errorf("after paying: %+v", w)
	}
	if got := e.acts.purposes(); !slices.Equal(got, purposes(kudos.MailPaymentActionRequired, kudos.MailPaymentReceipt)) {
		t.Errorf("mails %v", got)
	}
}

// A run rebuilt from the read model during dunning keeps retrying on the
// same schedule (nothing charged at the restart itself).
func TestRestartDuringDunningKeepsTheSchedule(t *testing.T) {
	renewal := start.Add(-day)
	retry := renewal.Add(3 * day)
	periodStart := renewal.Add(-period)
	rm := kudos.SubscriptionReadModel{Subscription: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive,
		PlanRenewalAt: &renewal, PeriodStartedAt: &periodStart, StartNextPeriod: true, PaymentRetryAt: &retry,
		FailedPayment: &kudos.FailedPayment{InvoiceID: kudos.PeriodInvoiceID(uuidOne, renewal), Amount: kudos.Money{Amount: 21780, Currency: "EUR"}}}}
	st := kudos.StateFromRecord(uuidOne, rm, period, day, lifecycle, start)
	if st.Dunning == nil || st.Dunning.Attempts != 1 || !st.Dunning.RetryAt.Equal(retry) {
		t.Fatalf("rebuilt dunning: %+v", st.Dunning)
	}
	e := newSubEnv(t)
	e.acts.lifecycle = lifecycle
	e.acts.renewalResults = []workflows.RenewalResult{{Paid: true}}
	e.at(time.Hour, func() {
		if len(e.acts.renewals) != 0 {
			t.Errorf("charged at the restart: %+v", e.acts.renewals)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun() // the run continued as new
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].InvoiceID != rm.FailedPayment.InvoiceID {
		t.Errorf("the retry: %+v", e.acts.renewals)
	}
	if w := e.acts.lastWrite(); !w.PeriodStartedAt.Equal(renewal) {
		t.Errorf("the period starts %v, want the renewal date %v", w.PeriodStartedAt, renewal)
	}
}

// During dunning an upgrade is refused, and stopping auto-renewal ends the
// plan now (its period has ended unpaid).
func TestDunningRefusesUpgradesAndStopsOnAutoRenewalOff(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.declineRenewal = true
	var up *updateOutcome
	e.at(2*day, func() {
		up = e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanTeam})
	})
	e.at(2*day+time.Hour, func() { e.update(workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: false}) })
	e.at(2*day+2*time.Hour, func() {
		if up == nil || up.rejected == nil {
			t.Errorf("upgrade during dunning: %+v", up)
		}
		s := e.state()
		if s.Status != kudos.StatusPlanExpired || s.Dunning != nil || s.Due == nil || len(e.acts.renewals) != 1 {
			t.Errorf("after auto-renewal off during dunning: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanPro, day))
	assertCanceled(t, e)
}

// An upgrade checkout still open at the renewal date is settled first: the
// provider says how it ended; paid, the next period renews the higher
// plan; otherwise it is closed and the old plan renews.
func TestUpgradeCheckoutOpenAtTheRenewal(t *testing.T) {
	for _, tc := range []struct {
		provider kudos.PaymentOutcome
		renews   kudos.Plan
	}{{kudos.PaymentExpired, kudos.PlanStarter}, {kudos.PaymentPaid, kudos.PlanPro}} {
		t.Run(string(tc.provider), func(t *testing.T) {
			e := newSubEnv(t)
			e.acts.lifecycle = dunningOnly
			e.acts.expireOutcome = tc.provider
			e.at(time.Hour, func() { e.update(workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: kudos.PlanPro}) })
			e.ExecuteWorkflow(workflows.Subscription, paidState(kudos.PlanStarter, 2*time.Hour))
			e.nextRun() // the run continued as new
			if len(e.acts.expired) != 1 || len(e.acts.renewals) != 1 || e.acts.renewals[0].Plan != tc.renews {
				t.Fatalf("checkouts closed at the provider %d, renewals %+v; want one renewal of %s", len(e.acts.expired), e.acts.renewals, tc.renews)
			}
		})
	}
}

// A payment of an upgrade priced in a period that has since been renewed
// is refunded: it prorated a period that is over.
func TestLateUpgradePaymentAfterTheRenewalIsRefunded(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	st := paidState(kudos.PlanStarter, day)
	old := start.Add(-2 * day) // opened in the period before this one
	e.acts.checkouts = map[string]kudos.CheckoutRecord{"co_old": {ID: "co_old", Purpose: kudos.CheckoutUpgrade, Plan: kudos.PlanPro,
		InvoiceID: &uuidOne, ExpiresAt: old.Add(24 * time.Hour), Status: "expired"}}
	periodStart := start.Add(-time.Hour)
	st.PeriodStartedAt = &periodStart
	e.at(time.Hour, func() { e.sendEvent("ev-late", "co_old", kudos.PaymentPaid) })
	e.at(2*time.Hour, func() {
		if s := e.state(); s.Plan != kudos.PlanStarter || len(e.acts.refunds) != 1 {
			t.Errorf("a late upgrade of a period that is over: plan %s, refunds %+v", s.Plan, e.acts.refunds)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	assertCanceled(t, e)
}

// During dunning the customer may pay the renewal's invoice at once (the
// invoices page's Pay): the period keeps its renewal date, dunning ends,
// and the next scheduled attempt charges nothing.
func TestPayingTheRetriedInvoiceEndsDunning(t *testing.T) {
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.declineRenewal = true
	st := paidState(kudos.PlanPro, day)
	renewal := *st.RenewalAt
	var pay *updateOutcome
	e.at(2*day, func() {
		s := e.state()
		if s.Dunning == nil {
			t.Fatal("no dunning")
		}
		pay = e.update(workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: s.Dunning.InvoiceID})
	})
	e.at(2*day+time.Minute, func() {
		if pay == nil || pay.rejected != nil || pay.failed != nil || pay.result.CheckoutHref == "" {
			t.Fatalf("paying the retried invoice: %+v", pay)
		}
		if w := e.acts.lastWrite(); w.ShowStatus != kudos.StatusProcessing {
			t.Errorf("while the customer pays it the dashboard shows %s", w.ShowStatus)
		}
		e.sendEvent("ev-pay", e.openedID(0), kudos.PaymentPaid)
	})
	e.ExecuteWorkflow(workflows.Subscription, st)
	e.nextRun() // the run continued as new
	w := e.acts.lastWrite()
	if len(e.acts.renewals) != 1 || w.PaymentRetryAt != nil || w.FailedPayment != nil || !w.PeriodStartedAt.Equal(renewal) ||
		w.ShowStatus != kudos.StatusActive {
		t.Errorf("after paying: %d charges, %+v", len(e.acts.renewals), w)
	}
}
