package store_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
)

// TestInvoiceNumbersAreUniqueAndGapFree finalises invoices concurrently:
// every number is given once and none is skipped.
func TestInvoiceNumbersAreUniqueAndGapFree(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account); err != nil {
		t.Fatal(err)
	}
	const n = 40
	ids := make([]uuid.UUID, n)
	for i := range ids {
		ids[i] = uuid.New()
		inv := kudos.Invoice{ID: ids[i], AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro,
			Net: 100, VAT: 21, VATRate: 21, Total: 121, Currency: "EUR", Status: kudos.InvoiceProcessing}
		if err := db.CreateInvoice(ctx, inv); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status := kudos.InvoicePaid
			if i%3 == 0 {
				status = kudos.InvoiceDue
			}
			errs <- db.SetInvoiceStatus(ctx, id, status)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	invs, err := db.Invoices(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	var numbers []string
	for _, inv := range invs {
		numbers = append(numbers, inv.Number)
	}
	sort.Strings(numbers)
	year := time.Now().UTC().Year()
	for i, got := range numbers {
		if want := fmt.Sprintf("KUD-%d-%06d", year, i+1); got != want {
			t.Fatalf("number %d is %s, want %s (all: %v)", i, got, want, numbers)
		}
	}
	// Finalising again changes nothing; a paid invoice stays paid.
	if err := db.SetInvoiceStatus(ctx, ids[1], kudos.InvoiceDue); err != nil {
		t.Fatal(err)
	}
	if inv, _ := db.Invoice(ctx, account, ids[1]); inv.Status != kudos.InvoicePaid || inv.Number == "" {
		t.Fatalf("invoice %+v", inv)
	}
}
