package activities_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/activities"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/store"
	"kudos/workflows"
)

// minimumProvider is a payment provider that refuses what Stripe refuses:
// a checkout under the minimum charge (a 400, a refusal for good).
type minimumProvider struct {
	kudos.PaymentProvider
	created []kudos.CheckoutRequest
}

func (p *minimumProvider) Name() string { return "fake" }

func (p *minimumProvider) CreateCheckout(_ context.Context, req kudos.CheckoutRequest) (kudos.Checkout, error) {
	if req.Amount.Amount < 50 {
		return kudos.Checkout{}, kudos.Errorf(kudos.EInvalid, "the payment provider refused the request: amount_too_small")
	}
	p.created = append(p.created, req)
	return kudos.Checkout{ProviderID: "cs_" + req.CheckoutID, URL: "https://pay.example/" + req.CheckoutID}, nil
}

// newAccount stores a user with an account on its trial.
func newAccount(t *testing.T, db *store.DB) uuid.UUID {
	t.Helper()
	key := uuid.NewString()
	_, account, err := db.CreateUser(context.Background(), store.NewUser{
		User:        kudos.User{Email: key + "@example.com", Firstname: "Ann", Lastname: "Lee", PreferredLanguage: "en", OptInTermsOfUse: true},
		AccountName: "Acme",
		Trial:       kudos.Subscription{Plan: kudos.PlanTrial, ShowStatus: kudos.StatusActive},
		Token: store.NewToken{Hash: []byte(key), Purpose: kudos.TokenActivation, ExpiresAt: time.Now().Add(time.Hour),
			Mail: dispatch.Mail(kudos.MailRequest{Key: key, Purpose: kudos.MailActivation, To: key + "@example.com", Language: "en"})},
		StartSubscription: dispatch.SubscriptionStart,
	})
	if err != nil {
		t.Fatal(err)
	}
	return account
}

func activityEnv(acts *activities.Activities) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return env
}

var prices = kudos.PriceList{Starter: 18000, Pro: 46800, Team: 118800, Currency: "EUR"}

// TestUpgradeUnderTheMinimumChargeIsWaived: Starter → Pro 12 hours before
// renewal prorates to €0.47 with VAT, under Stripe's €0.50. Stripe answers
// 400; retried, the upgrade would never end. It is applied without a charge
// on a paid invoice of zero.
func TestUpgradeUnderTheMinimumChargeIsWaived(t *testing.T) {
	db := testenv.DB(t)
	account := newAccount(t, db)
	pay := &minimumProvider{}
	env := activityEnv(&activities.Activities{Store: db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now})
	invoice := uuid.New()
	v, err := env.ExecuteActivity(workflows.ActivityOpenCheckout, workflows.OpenCheckoutInput{AccountID: account, CheckoutID: "co_1",
		Purpose: kudos.CheckoutUpgrade, Plan: kudos.PlanPro, FromPlan: kudos.PlanStarter, Remaining: 12 * time.Hour,
		Period: 365 * 24 * time.Hour, InvoiceID: invoice, ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatalf("OpenCheckout: %v", err)
	}
	var res workflows.OpenCheckoutResult
	if err := v.Get(&res); err != nil || !res.Waived || res.WaivedAmount.Amount != 47 || len(pay.created) != 0 {
		t.Fatalf("result %+v (%v), %d checkouts: want waived 47 and none opened", res, err, len(pay.created))
	}
	inv, err := db.Invoice(context.Background(), account, invoice)
	if err != nil || inv.Status != kudos.InvoicePaid || inv.Total != 0 || inv.Number == "" || inv.Description != "UPGRADE_PRO" {
		t.Fatalf("invoice %+v, %v", inv, err)
	}
}

// TestSeatsUnderTheMinimumChargeAreWaivedLineAndAll: a seat bought in the
// last hours of the period costs less than the provider charges, so it is
// waived like such an upgrade; the invoice's lines must add up to its net
// of zero (its seat line kept the prorated price, above a subtotal of
// nothing), while still naming the seat bought.
func TestSeatsUnderTheMinimumChargeAreWaivedLineAndAll(t *testing.T) {
	db := testenv.DB(t)
	account := newAccount(t, db)
	pay := &minimumProvider{}
	withSeats := prices
	withSeats.Seat = 10800
	env := activityEnv(&activities.Activities{Store: db, Payments: pay, Prices: withSeats, UIBase: "http://127.0.0.1:8080", Now: time.Now})
	invoice := uuid.New()
	v, err := env.ExecuteActivity(workflows.ActivityOpenCheckout, workflows.OpenCheckoutInput{AccountID: account, CheckoutID: "co_seats",
		Purpose: kudos.CheckoutSeats, Plan: kudos.PlanTeam, ExtraSeats: 1, Remaining: 12 * time.Hour,
		Period: 365 * 24 * time.Hour, InvoiceID: invoice, ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatalf("OpenCheckout: %v", err)
	}
	var res workflows.OpenCheckoutResult
	if err := v.Get(&res); err != nil || !res.Waived || len(pay.created) != 0 {
		t.Fatalf("result %+v (%v), %d checkouts: want waived and none opened", res, err, len(pay.created))
	}
	inv, err := db.Invoice(context.Background(), account, invoice)
	if err != nil || inv.Status != kudos.InvoicePaid || inv.Total != 0 || inv.Net != 0 {
		t.Fatalf("invoice %+v, %v", inv, err)
	}
	if len(inv.Lines) != 1 || inv.Lines[0].Quantity != 1 || kudos.LinesNet(inv.Lines) != inv.Net {
		t.Fatalf("waived seats invoice lines %+v: want the one seat, adding up to the net %d", inv.Lines, inv.Net)
	}
}

// TestProviderRefusalIsNotRetried: a checkout the provider refuses for
// good is a non-retryable business failure, handled by the workflow, not
// an error retried every minute forever.
func TestProviderRefusalIsNotRetried(t *testing.T) {
	db := testenv.DB(t)
	account := newAccount(t, db)
	env := activityEnv(&activities.Activities{Store: db, Payments: &minimumProvider{}, Prices: kudos.PriceList{Starter: 10, Pro: 20, Team: 30, Currency: "EUR"},
		UIBase: "http://127.0.0.1:8080", Now: time.Now})
	_, err := env.ExecuteActivity(workflows.ActivityOpenCheckout, workflows.OpenCheckoutInput{AccountID: account, CheckoutID: "co_2",
		Purpose: kudos.CheckoutSubscription, Plan: kudos.PlanStarter, InvoiceID: uuid.New(), ExpiresAt: time.Now().Add(time.Hour)})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != workflows.ErrTypeProviderRefused {
		t.Fatalf("OpenCheckout under the minimum: %v, want a non-retryable %s", err, workflows.ErrTypeProviderRefused)
	}
}

// chargeRecorder is a payment provider that charges off-session as
// Stripe's adapter does: an amount of nothing is an error, which Temporal
// retries.
type chargeRecorder struct {
	kudos.PaymentProvider
	charged []kudos.ChargeRequest
}

func (p *chargeRecorder) ChargeOffSession(_ context.Context, req kudos.ChargeRequest) (kudos.ChargeResult, error) {
	p.charged = append(p.charged, req)
	if req.Amount.Amount <= 0 {
		return kudos.ChargeResult{}, errors.New("stripepay: want a positive amount")
	}
	return kudos.ChargeResult{Paid: true}, nil
}

// TestARenewalDiscountedToNothingIsPaidWithoutACharge: a renewal whose
// promotion takes its whole price off (a 100 % code for ever) asked the
// provider to charge nothing; Stripe's adapter refused with an error that
// was retried for ever, inside the workflow's lock, so every later request
// of the account waited behind it. A renewal of nothing is paid without a
// charge.
func TestARenewalDiscountedToNothingIsPaidWithoutACharge(t *testing.T) {
	db := testenv.DB(t)
	account := newAccount(t, db)
	pay := &chargeRecorder{}
	env := activityEnv(&activities.Activities{Store: db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now})
	invoice := uuid.New()
	if err := db.CreateInvoice(context.Background(), kudos.Invoice{ID: invoice, AccountID: account, Kind: kudos.InvoiceRenewal,
		Plan: kudos.PlanStarter, Currency: "EUR", Status: kudos.InvoiceProcessing,
		Discount: &kudos.InvoiceDiscount{Code: "FREE", Amount: prices.Starter}}); err != nil {
		t.Fatal(err)
	}
	v, err := env.ExecuteActivity(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: account, Plan: kudos.PlanStarter,
		InvoiceID: invoice, ChargeID: kudos.RenewalChargeID(account, time.Now())})
	if err != nil {
		t.Fatalf("ChargeRenewal of nothing: %v, want paid without a charge", err)
	}
	var res workflows.RenewalResult
	if err := v.Get(&res); err != nil || !res.Paid || len(pay.charged) != 0 {
		t.Fatalf("result %+v (%v), %d charges: want paid and none made", res, err, len(pay.charged))
	}
	inv, err := db.Invoice(context.Background(), account, invoice)
	if err != nil || inv.Status != kudos.InvoicePaid || inv.Number == "" {
		t.Fatalf("invoice %+v, %v: want PAID and numbered", inv, err)
	}
}
