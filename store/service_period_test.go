package store_test

import (
	"context"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestANumberedInvoiceIsNeverRewrittenByALaterPayment: a renewal invoice
// numbered when its SEPA debit first settled, due again since the debit
// came back and left due when the plan expired, is paid weeks later; the
// payment starts a new period (store.Settlement.NewPeriod). An invoice
// numbered before is an issued document: its number and service period
// stay as issued. Only an invoice numbered by this payment (a due one never
// paid) takes the new period.
func TestANumberedInvoiceIsNeverRewrittenByALaterPayment(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, false)
	issued := kudos.ServicePeriod{From: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	now := time.Now().UTC().Truncate(time.Second)
	later := kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, PeriodStartedAt: &now}
	renewalAt := now.AddDate(1, 0, 0)
	later.PlanRenewalAt = &renewalAt
	for _, numbered := range []bool{true, false} {
		checkout, inv := paidInvoice(t, db, account, kudos.InvoiceProcessing)
		if _, err := db.Pool.Exec(ctx, `UPDATE invoices SET kind = 'RENEWAL', service_from = $2, service_to = $3 WHERE id = $1`,
			inv, issued.From, issued.To); err != nil {
			t.Fatal(err)
		}
		if numbered { // paid by its first debit, which came back
			if err := db.PayInvoice(ctx, inv, "renewal:first-debit"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Pool.Exec(ctx, `UPDATE invoices SET status = 'DUE_PAYMENT', paid_at = NULL WHERE id = $1`, inv); err != nil {
			t.Fatal(err)
		}
		var before string
		if err := db.Pool.QueryRow(ctx, `SELECT COALESCE(number, '') FROM invoices WHERE id = $1`, inv).Scan(&before); err != nil {
			t.Fatal(err)
		}
		settled, err := db.SettlePaidCheckout(ctx, account, checkout, inv, store.Settlement{NewPeriod: true}, later)
		if err != nil {
			t.Fatal(err)
		}
		want := issued
		if !numbered {
			want = kudos.ServicePeriod{From: now, To: renewalAt}
		}
		if settled.Service == nil || !settled.Service.From.Equal(want.From) || !settled.Service.To.Equal(want.To) ||
			(numbered && settled.Number != before) || settled.Number == "" {
			t.Fatalf("numbered before %v (%q): settled as %q for %+v, want %+v", numbered, before, settled.Number, settled.Service, want)
		}
	}
}
