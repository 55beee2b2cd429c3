package store_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/invoicepdf"
)

// TestInvoiceNumbersAreUniqueAndGapFree finalises invoices concurrently:
// every number is given once and none is skipped; the due ones (payment
// requests, issue 34) take none.
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
		if (inv.Number == "") != (inv.Status == kudos.InvoiceDue) {
			t.Fatalf("a %s invoice numbered %q", inv.Status, inv.Number)
		}
		if inv.Number != "" {
			numbers = append(numbers, inv.Number)
		}
	}
	if len(numbers) != n-(n+2)/3 {
		t.Fatalf("%d numbered, want %d", len(numbers), n-(n+2)/3)
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

// TestInvoiceKeepsItsBuyerAfterAnAddressEdit issues an invoice, edits the
// billing address, and renders the invoice again: it is still made out to
// the buyer as it was when it got its number. A pro-forma (not numbered)
// shows the address as it is now.
func TestInvoiceKeepsItsBuyerAfterAnAddressEdit(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, owner := uuid.New(), uuid.New()
	for _, q := range []string{`INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`,
		`INSERT INTO users (id, email, firstname, lastname) VALUES ($1, 'owner@acme.example', 'Owner', 'Acme')`,
		`INSERT INTO memberships (account_id, user_id, role) SELECT $1, id, 'owner' FROM users WHERE email = 'owner@acme.example'`} {
		id := account
		if strings.Contains(q, "INTO users") {
			id = owner
		}
		if _, err := db.Pool.Exec(ctx, q, id); err != nil {
			t.Fatal(err)
		}
	}
	old := kudos.BillingAddress{OrganizationName: "Old Buyer BV", StreetAndNumber: "Oude Markt 1", PostalCode: "3000",
		City: "Leuven", Region: "Vlaams-Brabant", Country: "nl_BE", VATID: "BE0999999999"}
	saved, err := db.SaveBillingAddress(ctx, account, old, 0)
	if err != nil {
		t.Fatal(err)
	}
	issued, draft := uuid.New(), uuid.New()
	for _, id := range []uuid.UUID{issued, draft} {
		if err := db.CreateInvoice(ctx, kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro,
			Net: 100, VAT: 21, VATRate: 21, Total: 121, Currency: "EUR", Status: kudos.InvoiceProcessing}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetInvoiceStatus(ctx, issued, kudos.InvoicePaid); err != nil {
		t.Fatal(err)
	}
	edited := old
	edited.OrganizationName, edited.StreetAndNumber, edited.VATID = "New Owner NV", "Nieuwstraat 9", "BE0888888888"
	if _, err := db.SaveBillingAddress(ctx, account, edited, saved.Version); err != nil {
		t.Fatal(err)
	}
	inv, err := db.Invoice(ctx, account, issued)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Buyer == nil || inv.Buyer.OrganizationName != old.OrganizationName || inv.Buyer.VATID != old.VATID ||
		inv.Buyer.StreetAndNumber != old.StreetAndNumber || inv.Buyer.Country != old.Country {
		t.Fatalf("the issued invoice's buyer is %+v, want the address as it was numbered %+v", inv.Buyer, old)
	}
	pdf, err := invoicepdf.RenderFrom(ctx, db, *inv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(pdf, []byte("Old Buyer BV")) || !bytes.Contains(pdf, []byte("BE0999999999")) ||
		bytes.Contains(pdf, []byte("New Owner NV")) || bytes.Contains(pdf, []byte("Nieuwstraat")) {
		t.Fatal("the issued invoice's PDF is not made out to the buyer it was numbered for")
	}
	pro, err := db.Invoice(ctx, account, draft)
	if err != nil {
		t.Fatal(err)
	}
	if pro.Buyer != nil {
		t.Fatalf("an invoice without a number has a buyer snapshot %+v", pro.Buyer)
	}
	pdf, err = invoicepdf.RenderFrom(ctx, db, *pro)
	if err != nil || !bytes.Contains(pdf, []byte("New Owner NV")) {
		t.Fatalf("the pro-forma is not made out to the address as it is now (%v)", err)
	}
}

// TestBuyerSnapshotBackfill migrates a database whose numbered invoices
// predate the buyer snapshot: each takes the billing address as it is at
// the migration; an unnumbered one, or one of an account without an
// address, has no snapshot.
func TestBuyerSnapshotBackfill(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	goosed := migratedDownTo(t, db, 59)
	withAddress, without := uuid.New(), uuid.New()
	numbered, draft, bare := uuid.New(), uuid.New(), uuid.New()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO accounts (id, name) VALUES ($1, 'Acme'), ($2, 'Bare')`, []any{withAddress, without}},
		{`INSERT INTO billing_addresses (account_id, organization_name, street_and_number, postal_code, city, region, country, vat_id)
			VALUES ($1, 'Acme BV', 'Markt 1', '3500', 'Hasselt', 'Limburg', 'nl_BE', 'BE0999999999')`, []any{withAddress}},
		{`INSERT INTO invoices (id, account_id, number, kind, plan, description, net_amount, vat_amount, vat_rate, total_amount, currency, status)
			VALUES ($1, $4, 'KUD-2025-000001', 'SUBSCRIPTION', 'PRO', 'PRO', 100, 21, 21, 121, 'EUR', 'PAID'),
			($2, $4, NULL, 'SUBSCRIPTION', 'PRO', 'PRO', 100, 21, 21, 121, 'EUR', 'PROCESSING'),
			($3, $5, 'KUD-2025-000002', 'SUBSCRIPTION', 'PRO', 'PRO', 100, 21, 21, 121, 'EUR', 'PAID')`,
			[]any{numbered, draft, bare, withAddress, without}},
	} {
		if _, err := db.Pool.Exec(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := goosed.Up(ctx); err != nil {
		t.Fatal(err)
	}
	inv, err := db.Invoice(ctx, withAddress, numbered)
	if err != nil || inv.Buyer == nil || inv.Buyer.OrganizationName != "Acme BV" || inv.Buyer.VATID != "BE0999999999" ||
		inv.Buyer.Country != "nl_BE" || inv.Buyer.City != "Hasselt" {
		t.Fatalf("a numbered invoice after the migration: %+v (%v)", inv, err)
	}
	for _, c := range []struct{ account, id uuid.UUID }{{withAddress, draft}, {without, bare}} {
		if inv, err := db.Invoice(ctx, c.account, c.id); err != nil || inv.Buyer != nil {
			t.Fatalf("invoice %s has a snapshot %+v (%v), want none", c.id, inv, err)
		}
	}
}
