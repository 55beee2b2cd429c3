package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestPromotionUsesAreCountedUnderConcurrency: a code capped at two uses,
// entered by eight accounts whose checkouts are recorded at the same time,
// is held by exactly two (the others get promotion_used_up and record
// nothing); a checkout that closes unpaid gives its use back, and another
// account can then take it; the checkout's invoice keeps its discount line.
func TestPromotionUsesAreCountedUnderConcurrency(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	two := 2
	if err := db.CreatePromotion(ctx, kudos.Promotion{Code: "duo", PercentOff: 20, Duration: kudos.PromotionOnce, MaxRedemptions: &two}); err != nil {
		t.Fatal(err)
	}
	account := func() uuid.UUID {
		id := uuid.New()
		if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool.Exec(ctx, `INSERT INTO subscriptions (account_id, plan, show_status, trial_expires_at, start_next_period)
			VALUES ($1, 'TRIAL', 'active', $2, false)`, id, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	checkout := func(acc uuid.UUID) (string, uuid.UUID, error) {
		id := uuid.New()
		inv := kudos.Invoice{ID: id, AccountID: acc, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro, Net: 8000, VAT: 1680,
			VATRate: 21, Total: 9680, Currency: "EUR", Status: kudos.InvoiceProcessing,
			Discount: &kudos.InvoiceDiscount{Code: "DUO", Amount: 2000}}
		co := "co_" + id.String()
		return co, id, db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: co, AccountID: acc, Purpose: kudos.CheckoutSubscription,
			Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_" + id.String(), URL: "https://pay.example/x",
			ExpiresAt: time.Now().Add(time.Hour), Invoice: &inv})
	}
	var mu sync.Mutex
	var held []string
	var heldInvoice uuid.UUID
	var wg sync.WaitGroup
	for range 8 {
		acc := account()
		wg.Add(1)
		go func() {
			defer wg.Done()
			co, inv, err := checkout(acc)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				held, heldInvoice = append(held, co), inv
			case kudos.ErrorCode(err) == kudos.EInvalid:
				if f := promotionField(err); f != kudos.FPromotionUsedUp {
					t.Errorf("refused with %q, want promotion_used_up", f)
				}
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, err := db.Promotion(ctx, "DUO")
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != 2 || p.Redeemed != 2 {
		t.Fatalf("%d checkouts hold a use, redeemed = %d; want 2 and 2", len(held), p.Redeemed)
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM checkouts`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d checkouts recorded (%v), want 2", n, err)
	}
	var accOf uuid.UUID
	if err := db.Pool.QueryRow(ctx, `SELECT account_id FROM checkouts WHERE invoice_id = $1`, heldInvoice).Scan(&accOf); err != nil {
		t.Fatal(err)
	}
	inv, err := db.Invoice(ctx, accOf, heldInvoice)
	if err != nil || inv.Discount == nil || inv.Discount.Code != "DUO" || inv.Discount.Amount != 2000 || inv.Net != 8000 {
		t.Fatalf("invoice %+v (%v), want its discount line DUO 20.00 and net 80.00", inv, err)
	}
	if err := db.ReleasePromotion(ctx, held[0]); err != nil {
		t.Fatal(err)
	}
	if err := db.ReleasePromotion(ctx, held[0]); err != nil { // a repeat gives nothing back twice
		t.Fatal(err)
	}
	if p, _ = db.Promotion(ctx, "DUO"); p.Redeemed != 1 {
		t.Fatalf("after a release redeemed = %d, want 1", p.Redeemed)
	}
	if _, _, err := checkout(account()); err != nil {
		t.Fatalf("the use given back is taken again: %v", err)
	}
	if _, _, err := checkout(account()); promotionField(err) != kudos.FPromotionUsedUp {
		t.Fatalf("a third use: %v, want promotion_used_up", err)
	}
}

// promotionField is the fields.promotion_code of a 422, "" for any other.
func promotionField(err error) string {
	var e *kudos.Error
	if errors.As(err, &e) {
		return e.Fields["promotion_code"]
	}
	return ""
}

// TestAnInvoiceWithADiscountIsPaidThroughACheckout: a renewal discounted
// by the code of the plan's purchase (a forever code), left due (dunning,
// auto-renewal off, a lost dispute's year billed again), is paid through a
// checkout of that invoice. Recording that checkout took a second use of
// the code for the account, which the first purchase holds: refused as
// promotion_already_redeemed, so the invoice could never be paid. Paying an
// invoice takes no use of its code: the use was taken when the plan was
// bought.
func TestAnInvoiceWithADiscountIsPaidThroughACheckout(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	if err := db.CreatePromotion(ctx, kudos.Promotion{Code: "loyal", PercentOff: 20, Duration: kudos.PromotionForever}); err != nil {
		t.Fatal(err)
	}
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	discounted := func(kind kudos.InvoiceKind, status kudos.InvoiceStatus) kudos.Invoice {
		return kudos.Invoice{ID: uuid.New(), AccountID: account, Kind: kind, Plan: kudos.PlanPro, Net: 8000, VAT: 1680,
			VATRate: 21, Total: 9680, Currency: "EUR", Status: status, Discount: &kudos.InvoiceDiscount{Code: "LOYAL", Amount: 2000}}
	}
	record := func(purpose kudos.CheckoutPurpose, inv kudos.Invoice) (string, error) {
		co := "co_" + inv.ID.String()
		return co, db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: co, AccountID: account, Purpose: purpose, Plan: kudos.PlanPro,
			InvoiceID: &inv.ID, Provider: "fake", ProviderID: "cs_" + co, URL: "https://pay.example/x",
			ExpiresAt: time.Now().Add(time.Hour), Invoice: &inv})
	}
	bought := discounted(kudos.InvoiceSubscription, kudos.InvoiceProcessing)
	co, err := record(kudos.CheckoutSubscription, bought)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SettlePaidCheckout(ctx, account, co, bought.ID, store.Settlement{},
		kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive}); err != nil {
		t.Fatal(err)
	}
	renewal := discounted(kudos.InvoiceRenewal, kudos.InvoiceDue)
	if err := db.CreateInvoice(ctx, renewal); err != nil {
		t.Fatal(err)
	}
	for _, purpose := range []kudos.CheckoutPurpose{kudos.CheckoutRenewal, kudos.CheckoutInvoice} {
		if _, err := record(purpose, renewal); err != nil {
			t.Fatalf("a %s checkout of the discounted renewal: %v, want it recorded", purpose, err)
		}
		renewal.ID = uuid.New() // the next purpose's checkout gets an id of its own
		if err := db.CreateInvoice(ctx, renewal); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := db.Promotion(ctx, "LOYAL"); err != nil || p.Redeemed != 1 {
		t.Fatalf("the code's uses %+v (%v), want 1: the purchase's", p, err)
	}
}
