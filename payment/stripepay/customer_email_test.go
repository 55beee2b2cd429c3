package stripepay

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// TestTheCustomerIsAddressedToTheOwnerNow: Stripe mails the customer's
// e-mail itself (SEPA mandate and pre-debit notices, receipts, the hosted
// page's address), so the account's Stripe customer follows its owner: a
// checkout or an off-session charge for an owner whose address differs
// from the one last sent updates the customer first, once.
func TestTheCustomerIsAddressedToTheOwnerNow(t *testing.T) {
	p, rec, store := newTestProvider(t, nil)
	ctx := context.Background()
	account := uuid.New()
	checkout := func(id, email string) {
		t.Helper()
		if _, err := p.CreateCheckout(ctx, kudos.CheckoutRequest{CheckoutID: id, AccountID: account, CustomerEmail: email,
			Purpose: kudos.CheckoutSubscription, Description: "Kudos Starter", Amount: kudos.Money{Amount: 100, Currency: "eur"},
			SuccessURL: "https://a/ok", CancelURL: "https://a/no"}); err != nil {
			t.Fatalf("checkout %s: %v", id, err)
		}
	}
	updates := func() []string {
		customer, _ := store.StripeCustomer(ctx, account)
		var emails []string
		for _, r := range rec.find(http.MethodPost, "/v1/customers/"+customer) {
			if r.Form.Has("email") {
				emails = append(emails, r.Form.Get("email"))
			}
		}
		return emails
	}
	checkout("chk_1", "ann@example.com") // creates the customer with it
	checkout("chk_2", "ann@example.com")
	if got := updates(); len(got) != 0 {
		t.Fatalf("the customer's e-mail updated to %v while the owner kept theirs", got)
	}
	checkout("chk_3", "bob@example.com") // the ownership moved to Bob
	checkout("chk_4", "bob@example.com")
	if got := updates(); len(got) != 1 || got[0] != "bob@example.com" {
		t.Fatalf("after the owner changed: customer e-mail updates %v, want [bob@example.com] once", got)
	}
	_, _ = p.ChargeOffSession(ctx, kudos.ChargeRequest{ChargeID: "renewal:1", AccountID: account, CustomerEmail: "carol@example.com",
		Amount: kudos.Money{Amount: 100, Currency: "EUR"}, Description: "renewal"})
	if got := updates(); len(got) != 2 || got[1] != "carol@example.com" {
		t.Fatalf("a renewal charge for a new owner: customer e-mail updates %v, want carol@example.com last", got)
	}
}
