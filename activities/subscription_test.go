package activities_test

import (
	"context"
	"errors"
	"strings"
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

// TestACodeThatBringsAnUpgradeUnderTheMinimumIsUsed: Starter → Pro five
// days before renewal (3.94 before VAT) is chargeable; a 90 % code brings
// it under Stripe's 0.50, so it is waived, as Stripe Billing does not
// charge an amount under its minimum. The code was used for it, as Stripe
// counts a redemption whatever the amount left: its use is recorded (the
// code's count, the account's one use) and named on the invoice. Before,
// the waiver cleared the discount before the checkout's record: the code
// was never counted, past its max_redemptions and its once per account.
// An upgrade under the minimum without the code (twelve hours) is waived
// without it: the code took nothing, it is not used.
func TestACodeThatBringsAnUpgradeUnderTheMinimumIsUsed(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	one := 1
	code := "WAIVE90-" + strings.ToUpper(uuid.NewString()[:8])
	if err := db.CreatePromotion(ctx, kudos.Promotion{Code: code, PercentOff: 90, Duration: kudos.PromotionOnce, MaxRedemptions: &one}); err != nil {
		t.Fatal(err)
	}
	pay := &minimumProvider{}
	acts := &activities.Activities{Store: db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now}
	upgrade := func(account uuid.UUID, remaining time.Duration) (workflows.OpenCheckoutResult, *kudos.Invoice) {
		t.Helper()
		invoice := uuid.New()
		v, err := activityEnv(acts).ExecuteActivity(workflows.ActivityOpenCheckout, workflows.OpenCheckoutInput{AccountID: account,
			CheckoutID: "co_" + invoice.String(), Purpose: kudos.CheckoutUpgrade, Plan: kudos.PlanPro, FromPlan: kudos.PlanStarter,
			Remaining: remaining, Period: 365 * 24 * time.Hour, InvoiceID: invoice, ExpiresAt: time.Now().Add(time.Hour), PromotionCode: code})
		if err != nil {
			t.Fatalf("OpenCheckout: %v", err)
		}
		var res workflows.OpenCheckoutResult
		if err := v.Get(&res); err != nil || !res.Waived || len(pay.created) != 0 {
			t.Fatalf("result %+v (%v), %d checkouts: want waived, none opened", res, err, len(pay.created))
		}
		inv, err := db.Invoice(ctx, account, invoice)
		if err != nil || inv.Status != kudos.InvoicePaid || inv.Total != 0 {
			t.Fatalf("invoice %+v, %v: want paid at nothing", inv, err)
		}
		return res, inv
	}
	redeemed := func() int {
		t.Helper()
		p, err := db.Promotion(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		return p.Redeemed
	}

	small := newAccount(t, db)
	if res, inv := upgrade(small, 12*time.Hour); res.Promotion != nil || inv.Discount != nil || redeemed() != 0 {
		t.Fatalf("under the minimum without the code: promotion %+v, invoice's discount %+v, %d uses: want the code unused",
			res.Promotion, inv.Discount, redeemed())
	}
	account := newAccount(t, db)
	res, inv := upgrade(account, 5*24*time.Hour)
	if res.WaivedAmount.Amount <= 0 || res.WaivedAmount.Amount >= kudos.MinimumCharge("EUR") {
		t.Fatalf("waived %+v, want the discounted amount under the minimum", res.WaivedAmount)
	}
	if n := redeemed(); n != 1 || inv.Discount == nil || inv.Discount.Code != code || res.Promotion == nil || res.Promotion.Code != code {
		t.Fatalf("the code brought the upgrade under the minimum: %d uses, invoice's discount %+v, promotion %+v: want it used, once",
			n, inv.Discount, res.Promotion)
	}
	if _, err := db.UsablePromotion(ctx, newAccount(t, db), code, kudos.PlanPro, "EUR"); err == nil {
		t.Fatal("a code of one use, used by a waived upgrade, is usable by another account")
	}
}
