package activities_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/activities"
	"kudos/internal/testenv"
	"kudos/invoicepdf"
	"kudos/workflows"
)

// TestAnIssuedInvoiceIsNeverDrawnAgain: an invoice numbered and stored at
// its first payment was drawn again when it was paid again (its debit
// returned, then paid on a retry or its checkout), from the account as it
// is then: the owner's language and e-mail of today, under the number the
// customer already had. An issued invoice's document stays as issued.
func TestAnIssuedInvoiceIsNeverDrawnAgain(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	invoice := uuid.New()
	if err := db.CreateInvoice(ctx, kudos.Invoice{ID: invoice, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanStarter,
		Net: 18000, VAT: 3780, VATRate: 21, Total: 21780, Currency: "EUR", Status: kudos.InvoiceProcessing}); err != nil {
		t.Fatal(err)
	}
	if err := db.PayInvoice(ctx, invoice, "co_"+uuid.NewString()); err != nil {
		t.Fatal(err)
	}
	storage := &flakyStorage{}
	env := activityEnv(&activities.Activities{Store: db, Storage: storage, Now: time.Now})
	render := func() []byte {
		t.Helper()
		if _, err := env.ExecuteActivity(workflows.ActivityRenderInvoicePDF, workflows.InvoicePDFInput{AccountID: account,
			InvoiceID: invoice}); err != nil {
			t.Fatal(err)
		}
		inv, err := db.Invoice(ctx, account, invoice)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(storage.objects[invoicepdf.Key(account, inv.Number)])
	}
	issued := render()
	if len(issued) == 0 {
		t.Fatal("no PDF stored for the paid invoice")
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE users SET preferred_language = 'fr'
		WHERE id IN (SELECT user_id FROM memberships WHERE account_id = $1)`, account); err != nil {
		t.Fatal(err)
	}
	if again := render(); !bytes.Equal(again, issued) {
		t.Fatalf("the issued invoice's PDF was drawn again (%d bytes, was %d): its document must stay as issued", len(again), len(issued))
	}
}
