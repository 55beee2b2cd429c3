package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
)

// TestAPlanCheckoutHoldsTheSeats (issue 34, item 7): a trial team of two
// (someone joined after the api's check) cannot record a Starter checkout
// (seat_limit, nothing recorded); a team of one can, and while that
// checkout is open the account's seats are Starter's one, so an
// invitation is refused with seat_limit.
func TestAPlanCheckoutHoldsTheSeats(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	team := func(members int) uuid.UUID {
		account := uuid.New()
		exec(`INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account)
		exec(`INSERT INTO subscriptions (account_id, plan, show_status, trial_expires_at, start_next_period)
			VALUES ($1, 'TRIAL', 'active', $2, false)`, account, time.Now().Add(14*24*time.Hour))
		for i := range members {
			user := uuid.New()
			exec(`INSERT INTO users (id, email, firstname, lastname) VALUES ($1, $2, 'A', 'B')`, user, user.String()+"@example.com")
			role := "member"
			if i == 0 {
				role = "owner"
			}
			exec(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)`, account, user, role)
		}
		return account
	}
	starter := func(account uuid.UUID) error {
		id := uuid.New()
		inv := kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanStarter, Net: 100,
			VAT: 21, VATRate: 21, Total: 121, Currency: "EUR", Status: kudos.InvoiceProcessing}
		return db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_" + id.String(), AccountID: account, Purpose: kudos.CheckoutSubscription,
			Plan: kudos.PlanStarter, InvoiceID: &id, Provider: "fake", ProviderID: "cs_" + id.String(), URL: "https://pay.example/x",
			ExpiresAt: time.Now().Add(time.Hour), Invoice: &inv})
	}
	two := team(2)
	if err := starter(two); kudos.ErrorCode(err) != kudos.ESeatLimit {
		t.Fatalf("a Starter checkout for a team of two: %v, want seat_limit", err)
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM checkouts WHERE account_id = $1)
		+ (SELECT count(*) FROM invoices WHERE account_id = $1)`, two).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the refused checkout left %d rows (%v)", n, err)
	}
	one := team(1)
	if s, err := db.Seats(ctx, one); err != nil || s.Limit != 10 {
		t.Fatalf("trial seats %+v (%v)", s, err)
	}
	if err := starter(one); err != nil {
		t.Fatal(err)
	}
	if s, err := db.Seats(ctx, one); err != nil || s.Limit != 1 || s.Used != 1 {
		t.Fatalf("seats while a Starter checkout is open: %+v (%v), want 1 of 1", s, err)
	}
}
