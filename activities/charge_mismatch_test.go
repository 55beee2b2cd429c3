package activities_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/activities"
	"kudos/internal/testenv"
	"kudos/payment/sandbox"
	"kudos/workflows"
)

// TestAChargeKeyPaidForAnotherAmountPaysNoInvoice: the provider holds a
// payment under a renewal charge's key (the renewal's year, 217.80, paid
// when the customer authenticated it late), and ChargeRenewal is asked to
// pay another invoice of the period under that key (a returned upgrade's,
// 261.36). The sandbox, as the Stripe adapter, found the key's payment and
// reported it paid whatever its amount, and the upgrade's invoice was paid
// by the year's money. It pays nothing now: unpaid (charge_mismatch), the
// invoice not paid by that key, nothing charged again.
func TestAChargeKeyPaidForAnotherAmountPaysNoInvoice(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	pay := &sandbox.Provider{DB: db, BaseURL: "http://127.0.0.1:8080"}
	env := activityEnv(&activities.Activities{Store: db, Payments: pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now})
	key := kudos.RenewalChargeID(account, time.Now().Truncate(time.Second))
	if _, err := db.Pool.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid) VALUES ($1, $2, 21780, 'EUR', true)`,
		key, account); err != nil {
		t.Fatal(err)
	}
	upgrade := uuid.New()
	if err := db.CreateInvoice(ctx, kudos.Invoice{ID: upgrade, AccountID: account, Kind: kudos.InvoiceUpgrade, Plan: kudos.PlanPro,
		Net: 21600, VAT: 4536, VATRate: 21, Total: 26136, Currency: "EUR", Status: kudos.InvoiceDue}); err != nil {
		t.Fatal(err)
	}
	v, err := env.ExecuteActivity(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: account, Plan: kudos.PlanPro,
		InvoiceID: upgrade, ChargeID: key})
	if err != nil {
		t.Fatalf("ChargeRenewal: %v", err)
	}
	var res workflows.RenewalResult
	if err := v.Get(&res); err != nil || res.Paid || res.FailureReason != workflows.FailureChargeMismatch {
		t.Fatalf("result %+v (%v), want unpaid, %s", res, err, workflows.FailureChargeMismatch)
	}
	if paid, err := db.InvoicePaidBy(ctx, account, key); err != nil || paid {
		t.Fatalf("an invoice paid by the year's charge: %v %v, want none", paid, err)
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM sandbox_charges WHERE account_id = $1`, account).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d sandbox charges (%v), want the year's only", n, err)
	}
}
