package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
)

// TestAnOwedInvoicesMailIsCurrentWhileItIsDue: the payment_failed mail of
// a returned debit that nothing retries (Returned, no Date) names no
// payment being retried, so it is current while its invoice is still due,
// and no longer once it has been paid (nor for an erased account, nor when
// the invoice is not the account's).
func TestAnOwedInvoicesMailIsCurrentWhileItIsDue(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	owed := proInvoice(t, db, account, kudos.InvoiceSubscription, kudos.InvoiceDue)
	amount := kudos.Money{Amount: 1210, Currency: "EUR"}
	mail := func(of uuid.UUID) kudos.MailRequest {
		return kudos.MailRequest{Key: "k", Purpose: kudos.MailPaymentFailed, To: "owner@example.com",
			Billing: &kudos.MailBilling{AccountID: of, Plan: kudos.PlanPro, InvoiceID: &owed, Amount: &amount, Returned: true}}
	}
	current := func(req kudos.MailRequest) bool {
		t.Helper()
		ok, err := db.BillingMailCurrent(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !current(mail(account)) {
		t.Fatal("the mail of an owed invoice still due is not current: it would never be sent")
	}
	other := newAccount(t, db)
	withPaidPlan(t, db, other, true)
	if current(mail(other)) {
		t.Fatal("the mail is current for an account the invoice is not of")
	}
	for _, erased := range []string{"now()", "NULL"} { // an erased account has no current mail
		if _, err := db.Pool.Exec(ctx, `UPDATE accounts SET deleted_at = `+erased+` WHERE id = $1`, account); err != nil {
			t.Fatal(err)
		}
		if got := current(mail(account)); got != (erased == "NULL") {
			t.Fatalf("deleted_at %s: current %t", erased, got)
		}
	}
	if err := db.SetInvoiceStatus(ctx, owed, kudos.InvoicePaid); err != nil {
		t.Fatal(err)
	}
	if current(mail(account)) {
		t.Fatal("the mail is still current after the invoice was paid")
	}
}
