package activities_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/activities"
	"kudos/auth"
	"kudos/internal/testenv"
	"kudos/mailer"
	"kudos/store"
	"kudos/workflows"
)

// mailEnv is the mail activity on a real database and a real capture inbox.
type mailEnv struct {
	db    *store.DB
	inbox *mailer.Inbox
	acts  *activities.Activities
}

func newMailEnv(t *testing.T) *mailEnv {
	t.Helper()
	db := testenv.DB(t)
	inbox, sender := testenv.Inbox(t)
	return &mailEnv{db: db, inbox: inbox, acts: &activities.Activities{Store: db, Mailer: sender, Render: mailer.Render,
		Tokens: auth.NewMailTokens("mail-test-secret"), PublicURL: "http://127.0.0.1:8080", Now: time.Now}}
}

// send runs SendMail for req and returns its result.
func (e *mailEnv) send(t *testing.T, req kudos.MailRequest) (workflows.SendMailResult, error) {
	t.Helper()
	var res workflows.SendMailResult
	v, err := activityEnv(e.acts).ExecuteActivity(workflows.ActivitySendMail, req)
	if err == nil {
		err = v.Get(&res)
	}
	return res, err
}

// dueInvoice stores a DUE_PAYMENT renewal invoice (a failed payment names one).
func dueInvoice(t *testing.T, db *store.DB, account uuid.UUID) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if err := db.CreateInvoice(context.Background(), kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceRenewal,
		Plan: kudos.PlanStarter, Net: 18000, VAT: 3780, VATRate: 21, Total: 21780, Currency: "EUR", Status: kudos.InvoiceDue}); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestStaleBillingMailsAreSkipped: a billing mail whose situation changed
// before it went out (the trial bought, the renewal date moved, auto-renewal
// stopped, the failed payment settled, the plan reactivated) is not sent,
// and is recorded as done so that its retries stop; one still true is sent.
// Dates travel through the workflow with nanoseconds and any zone; Postgres
// keeps microseconds.
func TestStaleBillingMailsAreSkipped(t *testing.T) {
	e := newMailEnv(t)
	ctx := context.Background()
	brussels := time.FixedZone("CET", 3600)
	deadline := time.Date(2027, 3, 5, 9, 30, 0, 123456789, time.UTC) // ns: Postgres keeps µs
	inZone := deadline.In(brussels)
	later := deadline.Add(time.Microsecond)
	amount := &kudos.Money{Amount: 21780, Currency: "EUR"}
	renewal := deadline.AddDate(1, 0, 0)

	type situation func(account, invoice uuid.UUID) kudos.Subscription
	trial := func(uuid.UUID, uuid.UUID) kudos.Subscription {
		return kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusActive, TrialExpiresAt: &deadline}
	}
	paid := func(autoRenew bool) situation {
		return func(uuid.UUID, uuid.UUID) kudos.Subscription {
			return kudos.Subscription{Plan: kudos.PlanStarter, ShowStatus: kudos.StatusActive, PeriodStartedAt: &deadline,
				PlanRenewalAt: &renewal, StartNextPeriod: autoRenew}
		}
	}
	dunning := func(_, invoice uuid.UUID) kudos.Subscription {
		s := paid(true)(uuid.Nil, uuid.Nil)
		s.PaymentRetryAt = &later
		s.FailedPayment = &kudos.FailedPayment{InvoiceID: invoice, Amount: *amount}
		return s
	}
	expired := func(uuid.UUID, uuid.UUID) kudos.Subscription {
		s := paid(true)(uuid.Nil, uuid.Nil)
		s.ShowStatus = kudos.StatusPlanExpired
		return s
	}
	renewalIn := renewal.In(brussels)
	tests := []struct {
		name    string
		state   situation
		purpose kudos.MailPurpose
		billing func(account, invoice uuid.UUID) kudos.MailBilling
		sent    bool
	}{
		{"trial reminder, still on the trial", trial, kudos.MailTrialReminder,
			func(a, _ uuid.UUID) kudos.MailBilling {
				return kudos.MailBilling{AccountID: a, Plan: kudos.PlanTrial, Date: &inZone}
			}, true},
		{"trial reminder, plan bought", paid(true), kudos.MailTrialReminder,
			func(a, _ uuid.UUID) kudos.MailBilling {
				return kudos.MailBilling{AccountID: a, Plan: kudos.PlanTrial, Date: &deadline}
			}, false},
		{"trial reminder, trial already over", func(a, i uuid.UUID) kudos.Subscription {
			s := trial(a, i)
			s.ShowStatus = kudos.StatusTrialExpired
			return s
		}, kudos.MailTrialReminder,
			func(a, _ uuid.UUID) kudos.MailBilling {
				return kudos.MailBilling{AccountID: a, Plan: kudos.PlanTrial, Date: &deadline}
			}, false},
		{"trial reminder, trial end moved by a microsecond", trial, kudos.MailTrialReminder,
			func(a, _ uuid.UUID) kudos.MailBilling {
				return kudos.MailBilling{AccountID: a, Plan: kudos.PlanTrial, Date: &later}
			}, false},
		{"renewal reminder, renews", paid(true), kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, Date: &renewalIn, AutoRenew: true}
		}, true},
		{"renewal reminder, ends", paid(false), kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Date: &renewal}
		}, true},
		{"renewal reminder, auto-renewal stopped since", paid(false), kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, Date: &renewal, AutoRenew: true}
		}, false},
		{"renewal reminder, auto-renewal restarted since", paid(true), kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Date: &renewal}
		}, false},
		{"renewal reminder, another renewal date", paid(true), kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, Date: &deadline, AutoRenew: true}
		}, false},
		{"renewal reminder, plan expired", expired, kudos.MailRenewalReminder, func(a, _ uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, Date: &renewal, AutoRenew: true}
		}, false},
		{"payment failed, still retried", dunning, kudos.MailPaymentFailed, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &later}
		}, true},
		{"payment failed, settled since", paid(true), kudos.MailPaymentFailed, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &later}
		}, false},
		{"action required, still retried", dunning, kudos.MailPaymentActionRequired, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, PayURL: "https://pay.example/cs_1?a=1&b=2"}
		}, true},
		{"action required, another payment failing", dunning, kudos.MailPaymentActionRequired, func(a, _ uuid.UUID) kudos.MailBilling {
			other := uuid.New()
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &other, PayURL: "https://pay.example/cs_1"}
		}, false},
		{"plan expired, still expired", expired, kudos.MailPlanExpired, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &renewal}
		}, true},
		{"plan expired, reactivated since", paid(true), kudos.MailPlanExpired, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv}
		}, false},
		{"receipt, always", trial, kudos.MailPaymentReceipt, func(a, inv uuid.UUID) kudos.MailBilling {
			return kudos.MailBilling{AccountID: a, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, InvoiceNumber: "KUD-2027-000001",
				PeriodStart: &deadline, PeriodEnd: &renewal}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			account := newAccount(t, e.db)
			invoice := dueInvoice(t, e.db, account)
			if err := e.db.WriteSubscription(ctx, account, tt.state(account, invoice)); err != nil {
				t.Fatal(err)
			}
			to := uuid.NewString() + "@example.com"
			b := tt.billing(account, invoice)
			req := kudos.MailRequest{Key: "billing:" + uuid.NewString(), Purpose: tt.purpose, To: to, Language: "nl", Name: "Ann", Billing: &b}
			res, err := e.send(t, req)
			if err != nil {
				t.Fatalf("SendMail: %v", err)
			}
			msgs := e.inbox.Messages(to)
			if tt.sent {
				if res.Skipped || res.AlreadySent || len(msgs) != 1 || msgs[0].Purpose != string(tt.purpose) {
					t.Fatalf("result %+v, %d messages: want one %s mail sent", res, len(msgs), tt.purpose)
				}
			} else if !res.Skipped || len(msgs) != 0 {
				t.Fatalf("result %+v, %d messages: a stale %s mail must be skipped", res, len(msgs), tt.purpose)
			}
			if done, err := e.db.MailSent(ctx, req.Key); err != nil || !done {
				t.Fatalf("MailSent = %v, %v: a sent or skipped mail must be recorded as done, so that retries stop", done, err)
			}
			// A retry does nothing.
			if res, err := e.send(t, req); err != nil || !res.AlreadySent || len(e.inbox.Messages(to)) != len(msgs) {
				t.Fatalf("retry: %+v, %v", res, err)
			}
		})
	}
}

// TestBillingMailForAnUnknownAccountIsSkipped: an account that is gone gets
// no billing mail.
func TestBillingMailForAnUnknownAccountIsSkipped(t *testing.T) {
	e := newMailEnv(t)
	d := time.Now()
	req := kudos.MailRequest{Key: "billing:gone", Purpose: kudos.MailTrialReminder, To: "gone@example.com", Language: "en",
		Billing: &kudos.MailBilling{AccountID: uuid.New(), Plan: kudos.PlanTrial, Date: &d}}
	res, err := e.send(t, req)
	if err != nil || !res.Skipped || len(e.inbox.Messages("gone@example.com")) != 0 {
		t.Fatalf("result %+v, %v", res, err)
	}
}

// TestBadBillingMailIsNotRetried: a billing mail that cannot be rendered
// (a payment page that is not an http(s) URL, a missing fact) fails for
// good, sends nothing and records nothing.
func TestBadBillingMailIsNotRetried(t *testing.T) {
	e := newMailEnv(t)
	account := newAccount(t, e.db)
	inv := dueInvoice(t, e.db, account)
	amount := &kudos.Money{Amount: 21780, Currency: "EUR"}
	for name, b := range map[string]kudos.MailBilling{
		"javascript pay URL": {AccountID: account, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, PayURL: "javascript:alert(1)"},
		"no amount":          {AccountID: account, Plan: kudos.PlanStarter, InvoiceID: &inv, PayURL: "https://pay.example/x"},
	} {
		req := kudos.MailRequest{Key: "bad:" + name, Purpose: kudos.MailPaymentActionRequired, To: "bad@example.com", Language: "en", Billing: &b}
		_, err := e.send(t, req)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != workflows.ErrTypeBadMail {
			t.Errorf("%s: %v, want a non-retryable %s", name, err, workflows.ErrTypeBadMail)
		}
		if done, _ := e.db.MailSent(context.Background(), req.Key); done || len(e.inbox.Messages("bad@example.com")) != 0 {
			t.Errorf("%s: a bad mail was sent or recorded", name)
		}
	}
}
