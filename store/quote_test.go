package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/invoicepdf"
)

// TestACreditNoteNamesTheBuyerOfItsInvoice (issue 34, item 8): the credit
// note of a reverse-charged sale names the buyer of the invoice it
// corrects (its snapshot: the Belgian business and its VAT id), not the
// billing address as it is at the refund (moved, without a VAT id), and
// still does when the refund comes after the account was erased (its
// billing address gone).
func TestACreditNoteNamesTheBuyerOfItsInvoice(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	buyer, err := db.BillingAddress(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	buyer.VATIDStatus = kudos.VATIDVerified // a Belgian business: reverse charged
	quote := kudos.QuoteFor(kudos.VATSeller{}, buyer)
	sale := func(checkout string) uuid.UUID {
		id := uuid.New()
		inv := kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro, Net: 46800,
			VATRate: quote.VAT.Rate, Total: 46800, Currency: "EUR", Status: kudos.InvoiceProcessing, ReverseCharge: quote.VAT.ReverseCharge,
			Buyer: quote.Buyer, Quoted: true}
		if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: checkout, AccountID: account, Purpose: kudos.CheckoutSubscription,
			Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_" + checkout, URL: "https://pay.example/" + checkout,
			ExpiresAt: time.Now().Add(time.Hour), Invoice: &inv}); err != nil {
			t.Fatal(err)
		}
		// Paid by its checkout: only that payment's refund credits it
		// (paid_by, issue 34 item 6).
		if err := db.PayInvoice(ctx, id, checkout); err != nil {
			t.Fatal(err)
		}
		return id
	}
	wantBuyer := func(what string, doc *kudos.Invoice) {
		t.Helper()
		if b := doc.Buyer; b == nil || b.OrganizationName != "Acme BV" || b.Country != "nl_BE" || b.VATID != "BE0999999999" {
			t.Fatalf("%s names %+v, want the Belgian buyer of the invoice it corrects", what, b)
		}
	}
	refund := func(checkout string) *kudos.Invoice {
		t.Helper()
		if err := db.RecordRefund(ctx, account, "refund:"+checkout, checkout, "re_"+checkout, "paid when nothing was owed",
			kudos.Money{Amount: 46800, Currency: "EUR"}); err != nil {
			t.Fatal(err)
		}
		cn, err := db.CreditNoteOfRefund(ctx, account, "refund:"+checkout)
		if err != nil || !cn.ReverseCharge {
			t.Fatalf("credit note %+v (%v)", cn, err)
		}
		return cn
	}
	first, second := sale("co_one"), sale("co_two")
	if inv, err := db.Invoice(ctx, account, first); err != nil {
		t.Fatal(err)
	} else {
		wantBuyer("the invoice", inv)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Moved BV", StreetAndNumber: "Dam 1",
		PostalCode: "1012", City: "Amsterdam", Region: "Noord-Holland", Country: "nl_NL"}, 0); err != nil {
		t.Fatal(err)
	}
	wantBuyer("the credit note after a move", refund("co_one"))

	if _, err := db.Pool.Exec(ctx, `UPDATE accounts SET deletion_at = $2 WHERE id = $1`, account, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EraseAccount(ctx, account); err != nil {
		t.Fatal(err)
	}
	wantBuyer("the credit note after erasure", refund("co_two"))
	var copies int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM checkouts WHERE account_id = $1 AND buyer_organization_name IS NOT NULL`,
		account).Scan(&copies); err != nil || copies != 0 {
		t.Fatalf("%d checkouts keep the erased buyer (%v)", copies, err)
	}
	if inv, err := db.Invoice(ctx, account, second); err != nil {
		t.Fatal(err)
	} else {
		wantBuyer("the erased account's invoice", inv)
	}
}

// TestAQuotedInvoiceKeepsItsBuyer (issue 34, item 4): an invoice priced
// by a quote is made out to the quote's buyer from the start (its
// pro-forma too) and keeps that buyer when it is numbered after the
// address changed: the buyer is never taken at a second moment.
func TestAQuotedInvoiceKeepsItsBuyer(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	buyer, err := db.BillingAddress(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	q := kudos.QuoteFor(kudos.VATSeller{}, buyer)
	id := uuid.New()
	if err := db.CreateInvoice(ctx, kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoiceRenewal, Plan: kudos.PlanPro,
		Net: 100, VAT: 21, VATRate: q.VAT.Rate, Total: 121, Currency: "EUR", Status: kudos.InvoiceProcessing, Buyer: q.Buyer,
		Quoted: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Moved BV", StreetAndNumber: "Dam 1",
		PostalCode: "1012", City: "Amsterdam", Region: "Noord-Holland", Country: "nl_NL"}, 0); err != nil {
		t.Fatal(err)
	}
	pro, err := db.Invoice(ctx, account, id)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := invoicepdf.BuyerOf(ctx, db, *pro); err != nil || b == nil || b.OrganizationName != "Acme BV" {
		t.Fatalf("the pro-forma of a quoted invoice is made out to %+v (%v), want its quote's buyer", b, err)
	}
	if err := db.SetInvoiceStatus(ctx, id, kudos.InvoicePaid); err != nil {
		t.Fatal(err)
	}
	paid, err := db.Invoice(ctx, account, id)
	if err != nil || paid.Number == "" || !paid.Quoted || paid.Buyer == nil || paid.Buyer.OrganizationName != "Acme BV" ||
		paid.Buyer.VATID != "BE0999999999" {
		t.Fatalf("numbered %+v (%v): want the quote's buyer kept", paid, err)
	}
}

// TestAQuotedPaymentRequestKeepsItsQuote (issue 34, items 4, 5, 8, 9): a
// due invoice priced by a quote (a British business: 0 %, outside the
// scope of EU VAT) is a payment request — no number — made out to the
// quote's buyer, on its payment request too. The customer then moves to
// the Netherlands as a consumer and pays: the invoice takes its number at
// payment but keeps the buyer and the VAT decision it was priced for
// (naming the new buyer would print a 0 % decided for someone else), and
// the credit note of that payment's refund names the same buyer with the
// same decision.
func TestAQuotedPaymentRequestKeepsItsQuote(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	british := kudos.BillingAddress{OrganizationName: "Acme Ltd", StreetAndNumber: "1 High St", PostalCode: "EC1A 1BB",
		City: "London", Region: "London", Country: "en_GB", VATID: "GB123456789"}
	buyer, err := db.SaveBillingAddress(ctx, account, british, 0)
	if err != nil {
		t.Fatal(err)
	}
	q := kudos.QuoteFor(kudos.VATSeller{}, buyer)
	if q.VAT.OutsideEU != kudos.OutsideEUBusiness {
		t.Fatalf("the quote of a British business: %+v", q.VAT)
	}
	id := uuid.New()
	if err := db.CreateInvoice(ctx, kudos.Invoice{ID: id, AccountID: account, Kind: kudos.InvoicePaymentDue, Plan: kudos.PlanPro,
		Net: 46800, VATRate: q.VAT.Rate, ReverseCharge: q.VAT.ReverseCharge, OutsideEU: q.VAT.OutsideEU, SellerVATID: q.VAT.SellerVATID,
		Total: 46800, Currency: "EUR", Status: kudos.InvoiceDue, Buyer: q.Buyer, Quoted: true}); err != nil {
		t.Fatal(err)
	}
	wantQuote := func(what string, doc *kudos.Invoice) {
		t.Helper()
		if b := doc.Buyer; !doc.Quoted || b == nil || b.OrganizationName != "Acme Ltd" || b.VATID != "GB123456789" ||
			doc.VATDecision() != q.VAT {
			t.Fatalf("%s is made out to %+v with %+v (quoted %v), want the quote's British business, outside the EU",
				what, b, doc.VATDecision(), doc.Quoted)
		}
	}
	due, err := db.Invoice(ctx, account, id)
	if err != nil {
		t.Fatal(err)
	}
	if due.Status != kudos.InvoiceDue || due.Number != "" {
		t.Fatalf("a quoted due invoice is %s numbered %q, want an unnumbered payment request", due.Status, due.Number)
	}
	wantQuote("the payment request", due)
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Moved BV", StreetAndNumber: "Dam 1",
		PostalCode: "1012", City: "Amsterdam", Region: "Noord-Holland", Country: "nl_NL"}, 0); err != nil {
		t.Fatal(err)
	}
	if b, err := invoicepdf.BuyerOf(ctx, db, *due); err != nil || b == nil || b.OrganizationName != "Acme Ltd" {
		t.Fatalf("the payment request's PDF is made out to %+v (%v), want its quote's buyer", b, err)
	}
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_due", AccountID: account, Purpose: kudos.CheckoutInvoice,
		Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_due", URL: "https://pay.example/due",
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := db.PayInvoice(ctx, id, "co_due"); err != nil {
		t.Fatal(err)
	}
	paid, err := db.Invoice(ctx, account, id)
	if err != nil || paid.Status != kudos.InvoicePaid || paid.Number == "" {
		t.Fatalf("paid: %+v (%v), want PAID with a number", paid, err)
	}
	wantQuote("the invoice numbered at payment", paid)
	if err := db.RecordRefund(ctx, account, "refund:co_due", "co_due", "re_due", "test", kudos.Money{Amount: 46800, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	cn, err := db.CreditNoteOfRefund(ctx, account, "refund:co_due")
	if err != nil {
		t.Fatal(err)
	}
	wantQuote("its credit note", cn)
}
