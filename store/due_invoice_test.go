package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
)

// TestDueInvoiceIsAnUnnumberedPaymentRequest (issue 34, item 5): a
// DUE_PAYMENT invoice (a year the customer declined, a renewal in dunning)
// is a payment request, not an invoice: it takes no number and no buyer
// snapshot, so an invoice paid meanwhile takes the next number and nothing
// is left numbered that was never sold. Paid, it is numbered then (the next
// number, gap-free) with the buyer as it is at payment.
func TestDueInvoiceIsAnUnnumberedPaymentRequest(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Markt 1",
		PostalCode: "3500", City: "Hasselt", Region: "Limburg", Country: "nl_BE"}, 0); err != nil {
		t.Fatal(err)
	}
	newInvoice := func(kind kudos.InvoiceKind, status kudos.InvoiceStatus) uuid.UUID {
		id := uuid.New()
		if err := db.CreateInvoice(ctx, kudos.Invoice{ID: id, AccountID: account, Kind: kind, Plan: kudos.PlanPro,
			Net: 100, VAT: 21, VATRate: 21, Total: 121, Currency: "EUR", Status: status}); err != nil {
			t.Fatal(err)
		}
		return id
	}
	year := time.Now().UTC().Year()
	number := func(n int) string { return fmt.Sprintf("KUD-%d-%06d", year, n) }

	declined := newInvoice(kudos.InvoicePaymentDue, kudos.InvoiceDue) // auto-renew off: the plan stopped
	dunning := newInvoice(kudos.InvoiceRenewal, kudos.InvoiceProcessing)
	if err := db.SetInvoiceStatus(ctx, dunning, kudos.InvoiceDue); err != nil { // the renewal charge was declined
		t.Fatal(err)
	}
	for _, id := range []uuid.UUID{declined, dunning} {
		inv, err := db.Invoice(ctx, account, id)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Status != kudos.InvoiceDue || inv.Number != "" || inv.Buyer != nil {
			t.Fatalf("a due invoice is %s numbered %q with buyer %+v; want DUE_PAYMENT, no number, no buyer", inv.Status, inv.Number, inv.Buyer)
		}
	}
	if due, err := db.LatestUnpaidInvoice(ctx, account); err != nil || due.ID != dunning {
		t.Fatalf("latest unpaid = %+v (%v), want the renewal in dunning", due, err)
	}

	sold := newInvoice(kudos.InvoiceSubscription, kudos.InvoiceProcessing)
	if err := db.SetInvoiceStatus(ctx, sold, kudos.InvoicePaid); err != nil {
		t.Fatal(err)
	}
	if inv, _ := db.Invoice(ctx, account, sold); inv.Number != number(1) {
		t.Fatalf("the first sale is numbered %q, want %s: a due invoice took a number", inv.Number, number(1))
	}
	if err := db.SetInvoiceStatus(ctx, dunning, kudos.InvoicePaid); err != nil {
		t.Fatal(err)
	}
	paid, err := db.Invoice(ctx, account, dunning)
	if err != nil {
		t.Fatal(err)
	}
	if paid.Status != kudos.InvoicePaid || paid.Number != number(2) || paid.Buyer == nil || paid.Buyer.OrganizationName != "Acme BV" {
		t.Fatalf("the renewal paid late: %s %q buyer %+v; want PAID %s made out to Acme BV", paid.Status, paid.Number, paid.Buyer, number(2))
	}
	if inv, _ := db.Invoice(ctx, account, declined); inv.Number != "" {
		t.Fatalf("the declined year got number %q", inv.Number)
	}
}

// TestCreditNoteKeepsItsInvoicesVATAndPeriod (issue 34, items 9 and 11):
// an invoice keeps why a buyer outside the EU paid no VAT, the seller's
// registration a consumer's VAT was charged under and its service period;
// the credit note of its refund has the same, so that it says what the
// invoice said.
func TestCreditNoteKeepsItsInvoicesVATAndPeriod(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	from := time.Date(2026, 3, 5, 10, 30, 0, 0, time.UTC)
	period := &kudos.ServicePeriod{From: from, To: from.AddDate(1, 0, 0)}
	business, consumer := uuid.New(), uuid.New()
	for _, inv := range []kudos.Invoice{
		{ID: business, OutsideEU: kudos.OutsideEUBusiness, Net: 46800, Total: 46800, Service: period},
		{ID: consumer, SellerVATID: "NO923456789MVA", Net: 46800, VAT: 11700, VATRate: 25, Total: 58500},
	} {
		inv.AccountID, inv.Kind, inv.Plan, inv.Currency, inv.Status = account, kudos.InvoiceRenewal, kudos.PlanPro, "EUR", kudos.InvoiceProcessing
		if err := db.CreateInvoice(ctx, inv); err != nil {
			t.Fatal(err)
		}
		if inv.ID == business {
			continue // paid below by its checkout: a credit note undoes the payment that paid (paid_by)
		}
		if err := db.SetInvoiceStatus(ctx, inv.ID, kudos.InvoicePaid); err != nil {
			t.Fatal(err)
		}
	}
	if inv, err := db.Invoice(ctx, account, consumer); err != nil || inv.SellerVATID != "NO923456789MVA" || inv.OutsideEU != "" || inv.Service != nil {
		t.Fatalf("the consumer's invoice: %+v (%v)", inv, err)
	}
	id := business
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_gb", AccountID: account, Purpose: kudos.CheckoutRenewal,
		Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_gb", URL: "https://pay.example/gb",
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := db.PayInvoice(ctx, business, "co_gb"); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordRefund(ctx, account, "refund:co_gb", "co_gb", "re_gb", "test", kudos.Money{Amount: 46800, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	cn, err := db.CreditNoteOfRefund(ctx, account, "refund:co_gb")
	if err != nil || cn.OutsideEU != kudos.OutsideEUBusiness || cn.VAT != 0 || cn.Service == nil ||
		!cn.Service.From.Equal(period.From) || !cn.Service.To.Equal(period.To) {
		t.Fatalf("the credit note: %+v (%v); want outside the EU (business), its invoice's period", cn, err)
	}
}
