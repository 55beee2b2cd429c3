package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"kudos"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/store"
	"kudos/workflows"
)

// TestReverseChargeIsKeptOnTheDocuments: a reverse-charged invoice priced
// at a checkout keeps the flag when it is numbered, when the checkout bills
// it again and on the credit note of its refund; the VAT id's later status
// (invalid) changes none of them, and VATBasis then says invalid.
func TestReverseChargeIsKeptOnTheDocuments(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	id := uuid.New()
	inv := kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro, Net: 46800, VAT: 0,
		VATRate: 0, Total: 46800, Currency: "EUR", Status: kudos.InvoiceProcessing, ReverseCharge: true}
	checkout := "co_rc"
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: checkout, AccountID: account, Purpose: kudos.CheckoutSubscription,
		Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_rc", URL: "https://pay.example/rc",
		ExpiresAt: time.Now().Add(time.Hour), Invoice: &inv}); err != nil {
		t.Fatal(err)
	}
	if c, err := db.Checkout(ctx, account, checkout); err != nil || c.Invoice == nil || !c.Invoice.ReverseCharge {
		t.Fatalf("checkout %+v (%v): its price keeps the reverse charge", c, err)
	}
	if err := db.PayInvoice(ctx, id, checkout); err != nil { // paid by its checkout, whose refund undoes the sale
		t.Fatal(err)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Markt 1",
		PostalCode: "3500", City: "Hasselt", Region: "Limburg", Country: "nl_BE", VATID: "BE0999999000",
		VATIDStatus: kudos.VATIDInvalid}, 0); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordRefund(ctx, account, "refund:"+checkout, checkout, "re_rc", "paid when nothing was owed",
		kudos.Money{Amount: 46800, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	paid, err := db.Invoice(ctx, account, id)
	if err != nil || !paid.ReverseCharge || paid.Number == "" || paid.VAT != 0 {
		t.Fatalf("invoice %+v (%v)", paid, err)
	}
	cn, err := db.CreditNoteOfRefund(ctx, account, "refund:"+checkout)
	if err != nil || !cn.ReverseCharge || cn.VAT != 0 || cn.Total != -46800 {
		t.Fatalf("credit note %+v (%v): a reverse-charged invoice's credit note is reverse charged", cn, err)
	}
	if b, err := db.VATBasis(ctx, account); err != nil || b != (kudos.VATBasis{Country: "nl_BE", VATIDStatus: kudos.VATIDInvalid, TaxID: true}) {
		t.Fatalf("basis %+v (%v)", b, err)
	}
}

// TestRecordVATCheckOnlyForItsVersion: a check's result is written (with
// its mail and event, once) only while the address keeps the id and
// version it was made for and is pending.
func TestRecordVATCheckOnlyForItsVersion(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	addr := kudos.BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Markt 1", PostalCode: "3500", City: "Hasselt",
		Region: "Limburg", Country: "nl_BE", VATID: "BE0999999999", VATIDStatus: kudos.VATIDPending}
	saved, err := db.SaveBillingAddress(ctx, account, addr, 0)
	if err != nil {
		t.Fatal(err)
	}
	mail := func(key string) store.OutboxEntry {
		return store.OutboxEntry{Key: key, Kind: "mail", WorkflowID: "email:" + key, Payload: map[string]string{}}
	}
	ev := func(key string) kudos.BillingEvent {
		return kudos.BillingEvent{AccountID: account, Type: kudos.EventVATIDChecked, Key: key}
	}
	if wrote, err := db.RecordVATCheck(ctx, account, addr.VATID, saved.Version-1, kudos.VATIDVerified, mail("old"), ev("old")); err != nil || wrote {
		t.Fatalf("an older version's result: wrote %v (%v)", wrote, err)
	}
	if wrote, err := db.RecordVATCheck(ctx, account, "BE0999999998", saved.Version, kudos.VATIDVerified, mail("other"), ev("other")); err != nil || wrote {
		t.Fatalf("another id's result: wrote %v (%v)", wrote, err)
	}
	for i, want := range []bool{true, false} { // the second: no longer pending
		if wrote, err := db.RecordVATCheck(ctx, account, addr.VATID, saved.Version, kudos.VATIDVerified, mail("this"), ev("this")); err != nil || wrote != want {
			t.Fatalf("write %d: wrote %v (%v)", i, wrote, err)
		}
	}
	if a, _ := db.BillingAddress(ctx, account); a.VATIDStatus != kudos.VATIDVerified || a.Version != saved.Version {
		t.Fatalf("address %+v", a)
	}
	var mails, events int
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE key IN ('old', 'other', 'this')`).Scan(&mails)
	_ = db.Pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'vat_id_checked'`, account).Scan(&events)
	if mails != 1 || events != 1 {
		t.Fatalf("%d mails and %d events, want the one check's", mails, events)
	}
}

// TestVATIDStatusBackfill migrates a database whose VAT ids predate the
// check: an address with an id becomes pending with the start of its check
// queued (the payload the dispatcher reads), one without an id none.
func TestVATIDStatusBackfill(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	goosed := migratedDownTo(t, db, 61)
	withID, without := uuid.New(), uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme'), ($2, 'Bare')`, withID, without); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO billing_addresses (account_id, organization_name, street_and_number, postal_code,
		city, region, country, vat_id, version) VALUES ($1, 'Acme BV', 'Markt 1', '3500', 'Hasselt', 'Limburg', 'nl_BE', 'BE0999999999', 4),
		($2, 'Bare BV', 'Markt 2', '3500', 'Hasselt', 'Limburg', 'nl_BE', '', 1)`, withID, without); err != nil {
		t.Fatal(err)
	}
	if _, err := goosed.Up(ctx); err != nil {
		t.Fatal(err)
	}
	for account, want := range map[uuid.UUID]kudos.VATIDStatus{withID: kudos.VATIDPending, without: kudos.VATIDNone} {
		if a, err := db.BillingAddress(ctx, account); err != nil || a.VATIDStatus != want {
			t.Fatalf("address %+v (%v), want %s", a, err, want)
		}
	}
	var kind, workflowID string
	var in workflows.VATCheckInput
	if err := db.Pool.QueryRow(ctx, `SELECT kind, workflow_id, payload FROM outbox WHERE key = $1`,
		"vat_check:"+withID.String()+":4").Scan(&kind, &workflowID, &in); err != nil {
		t.Fatal(err)
	}
	want := workflows.VATCheckInput{AccountID: withID, Country: "nl_BE", VATID: "BE0999999999", Version: 4}
	if kind != dispatch.KindVATCheckStart || workflowID != workflows.VATCheckWorkflowID(withID) || in != want {
		t.Fatalf("queued %s %s %+v, want the entry dispatch.VATCheckStart makes: %+v", kind, workflowID, in, want)
	}
}

// migratedDownTo migrates db down to version (to seed rows from before a
// migration) and returns the migrations' provider, for the test's Up.
func migratedDownTo(t *testing.T, db *store.DB, version int64) *goose.Provider {
	t.Helper()
	goosed, err := goose.NewProvider(goose.DialectPostgres, stdlib.OpenDBFromPool(db.Pool), store.Migrations())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := goosed.DownTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	return goosed
}

// TestOutsideEUTaxIDsAreNotVIESChecked (issue 34, item 9): migration 00078
// sets the status of tax ids outside the EU, which VIES called invalid or
// left pending, to none (not checked), as a save now does; ids in the EU
// keep theirs.
func TestOutsideEUTaxIDsAreNotVIESChecked(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	goosed := migratedDownTo(t, db, 77)
	swiss, belgian := uuid.New(), uuid.New()
	for _, q := range []string{`INSERT INTO accounts (id, name) VALUES ($1, 'Acme'), ($2, 'Other')`,
		`INSERT INTO billing_addresses (account_id, organization_name, street_and_number, postal_code, city, region, country, vat_id,
			vat_id_status) VALUES ($1, 'Acme AG', 'Bahnhofstrasse 1', '8001', 'Zürich', 'ZH', 'de_CH', 'CHE123456789', 'invalid'),
			($2, 'Other BV', 'Markt 1', '3500', 'Hasselt', 'Limburg', 'nl_BE', 'BE0123456000', 'invalid')`} {
		if _, err := db.Pool.Exec(ctx, q, swiss, belgian); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := goosed.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if b, err := db.VATBasis(ctx, swiss); err != nil || b != (kudos.VATBasis{Country: "de_CH", VATIDStatus: kudos.VATIDNone, TaxID: true}) {
		t.Fatalf("the Swiss tax id after the migration: %+v (%v)", b, err)
	}
	if b, _ := db.VATBasis(ctx, belgian); b.VATIDStatus != kudos.VATIDInvalid {
		t.Fatalf("a Belgian id's status changed: %+v", b)
	}
}
