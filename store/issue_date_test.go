package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestADocumentIsDatedWhenItIsNumbered: an invoice is numbered when it is
// paid, in the year of its payment; its issue date is that moment, not
// when its row was made (a renewal billed on 30 December and settled by a
// SEPA debit on 2 January is KUD-2026-…, dated 2 January, never 30
// December: numbers and dates run together in a year's series). A lost
// dispute's credit note is numbered and dated when it is issued, not at
// the provider's event time (a late or replayed event would backdate it,
// into a closed year's series).
func TestADocumentIsDatedWhenItIsNumbered(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	clock := time.Date(2025, 12, 30, 10, 0, 0, 0, time.UTC)
	db.SetClock(func() time.Time { return clock })
	account := newAccount(t, db)
	checkout, inv := paidInvoice(t, db, account, kudos.InvoiceProcessing)
	clock = time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	if err := db.PayInvoice(ctx, inv, checkout); err != nil {
		t.Fatal(err)
	}
	got, err := db.Invoice(ctx, account, inv)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Number, "KUD-2026-") || !got.IssuedAt.Equal(clock) {
		t.Fatalf("invoice %s issued %v, want KUD-2026-… issued %v", got.Number, got.IssuedAt, clock)
	}
	clock = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	lostAt := time.Date(2025, 12, 31, 23, 0, 0, 0, time.UTC) // the provider's event, delivered days later
	d := kudos.DisputeEvent{ID: "dp_late", Status: kudos.DisputeLost, Amount: kudos.Money{Amount: got.Total, Currency: "EUR"}, Payment: checkout}
	res, err := db.RecordDispute(ctx, account, d, lostAt, store.Booking{})
	if err != nil || res.CreditNoteID == nil {
		t.Fatalf("dispute %+v, %v", res, err)
	}
	cn, err := db.Invoice(ctx, account, *res.CreditNoteID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cn.Number, "KUD-CN-2026-") || !cn.IssuedAt.Equal(clock) {
		t.Fatalf("credit note %s issued %v, want KUD-CN-2026-… issued %v", cn.Number, cn.IssuedAt, clock)
	}
}
