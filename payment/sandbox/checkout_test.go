package sandbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/payment/sandbox"
)

// TestACheckoutIDAskedForAnotherAmountIsRefused: CreateCheckout is
// idempotent by CheckoutID, as a retried OpenCheckout needs. Asked again
// under that id for another total (the invoice priced again between the
// two attempts: a VAT id verified, an address edited), the sandbox
// answered the first checkout whatever its amount, and the invoice of
// the second total was paid by the first. As the Stripe adapter, it is
// now an EConflict error and the first checkout, whose page never
// reached the customer, is expired; the same request again still gets
// the same checkout.
func TestACheckoutIDAskedForAnotherAmountIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &sandbox.Provider{DB: testenv.DB(t), BaseURL: "http://127.0.0.1:8080"}
	req := kudos.CheckoutRequest{CheckoutID: "co_" + uuid.NewString(), AccountID: uuid.New(), Purpose: kudos.CheckoutSubscription,
		Description: "Kudos Pro", Amount: kudos.Money{Amount: 56628, Currency: "EUR"},
		SuccessURL: "http://127.0.0.1:8080/ok", CancelURL: "http://127.0.0.1:8080/no", ExpiresAt: time.Now().Add(time.Hour)}
	first, err := p.CreateCheckout(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := p.CreateCheckout(ctx, req); err != nil || again != first {
		t.Fatalf("the same request again: %+v, %v; want %+v", again, err, first)
	}
	for _, other := range []kudos.Money{{Amount: 46800, Currency: "EUR"}, {Amount: 56628, Currency: "USD"}} {
		r := req
		r.Amount = other
		if co, err := p.CreateCheckout(ctx, r); kudos.ErrorCode(err) != kudos.EConflict {
			t.Fatalf("the same id for %d %s: %+v, %v; want an EConflict error", other.Amount, other.Currency, co, err)
		}
	}
	if c, err := p.CheckoutByID(ctx, first.ProviderID); err != nil || c.Status != "expired" {
		t.Fatalf("the first checkout after a request of another amount: %+v, %v; want it expired", c, err)
	}
}
