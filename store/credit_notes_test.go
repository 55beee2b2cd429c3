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
	"kudos/store"
)

// paidInvoice creates an invoice of net 1000 at 21 % in status (PAID:
// numbered and paid by its checkout, paid_by) and the invoice checkout that
// pays it, and returns the checkout's id.
func paidInvoice(t *testing.T, db *store.DB, account uuid.UUID, status kudos.InvoiceStatus) (string, uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	id := proInvoice(t, db, account, kudos.InvoicePaymentDue, kudos.InvoiceProcessing)
	checkout := "co_" + id.String()[:8]
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: checkout, AccountID: account, Purpose: kudos.CheckoutInvoice,
		Plan: kudos.PlanPro, InvoiceID: &id, Provider: "fake", ProviderID: "cs_" + checkout, URL: "https://pay.example/" + checkout,
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	var err error
	switch status {
	case kudos.InvoiceProcessing:
	case kudos.InvoicePaid:
		err = db.PayInvoice(ctx, id, checkout)
	default:
		err = db.SetInvoiceStatus(ctx, id, status)
	}
	if err != nil {
		t.Fatal(err)
	}
	return checkout, id
}

// newAccount inserts an account with a billing address.
func newAccount(t *testing.T, db *store.DB) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	account := uuid.New()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO accounts (id, name) VALUES ($1, 'Acme')`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Markt 1",
		PostalCode: "3500", City: "Hasselt", Region: "Limburg", Country: "nl_BE", VATID: "BE0999999999"}, 0); err != nil {
		t.Fatal(err)
	}
	return account
}

// proInvoice creates an invoice of kind for a year of Pro (10.00 + 21 %
// VAT) in status on account and returns its id.
func proInvoice(t *testing.T, db *store.DB, account uuid.UUID, kind kudos.InvoiceKind, status kudos.InvoiceStatus) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if err := db.CreateInvoice(context.Background(), kudos.Invoice{ID: id, AccountID: account, Kind: kind, Plan: kudos.PlanPro,
		Net: 1000, VAT: 210, VATRate: 21, Total: 1210, Currency: "EUR", Status: status}); err != nil {
		t.Fatal(err)
	}
	return id
}

// withPaidPlan gives account a subscription row on Pro: active with
// auto-renewal (active true) or expired without.
func withPaidPlan(t *testing.T, db *store.DB, account uuid.UUID, active bool) {
	t.Helper()
	status := map[bool]string{true: "active", false: "plan_expired"}[active]
	if _, err := db.Pool.Exec(context.Background(), `INSERT INTO subscriptions (account_id, plan, show_status, trial_expires_at,
		start_next_period) VALUES ($1, 'PRO', $2, now(), $3)`, account, status, active); err != nil {
		t.Fatal(err)
	}
}

// TestARefundMakesOneCreditNote records the refund of a paid invoice's
// checkout twice (a retried activity) and once more as the manual fix: one
// credit note, correcting the invoice, with negative amounts, CREDITED, its
// buyer snapshot and its timeline event. A refund of a checkout whose
// invoice never got a number (dropped) makes none.
func TestARefundMakesOneCreditNote(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	checkout, invoiceID := paidInvoice(t, db, account, kudos.InvoicePaid)
	refund := "refund:" + checkout
	for range 2 {
		if err := db.RecordRefund(ctx, account, refund, checkout, "re_1", "paid when nothing was owed",
			kudos.Money{Amount: 1210, Currency: "EUR"}); err != nil {
			t.Fatal(err)
		}
	}
	invs, err := db.Invoices(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	var notes []kudos.Invoice
	for _, inv := range invs {
		if inv.IsCreditNote() {
			notes = append(notes, inv)
		}
	}
	if len(notes) != 1 {
		t.Fatalf("%d credit notes after a refund recorded twice, want 1 (%+v)", len(notes), invs)
	}
	cn := notes[0]
	year := time.Now().UTC().Year()
	if cn.Number != fmt.Sprintf("KUD-CN-%d-000001", year) || cn.Status != kudos.InvoiceCredited || cn.Net != -1000 ||
		cn.VAT != -210 || cn.Total != -1210 || cn.VATRate != 21 || cn.Currency != "EUR" || cn.Corrects == nil ||
		*cn.Corrects != invoiceID || cn.CorrectsNumber != fmt.Sprintf("KUD-%d-000001", year) {
		t.Fatalf("credit note %+v", cn)
	}
	if cn.Buyer == nil || cn.Buyer.OrganizationName != "Acme BV" {
		t.Fatalf("credit note buyer %+v, want the billing address as it was numbered", cn.Buyer)
	}
	if got, err := db.CreditNoteOfRefund(ctx, account, refund); err != nil || got.ID != cn.ID {
		t.Fatalf("CreditNoteOfRefund = %+v, %v", got, err)
	}
	var events int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'credit_note_issued'
		AND invoice_id = $2 AND amount = 1210`, account, cn.ID).Scan(&events); err != nil || events != 1 {
		t.Fatalf("%d credit_note_issued events (%v), want 1", events, err)
	}
	// A refund refused, then made by hand: still one credit note per refund
	// (of the payment that paid the invoice: a credit note undoes a sale).
	other, _ := paidInvoice(t, db, account, kudos.InvoicePaid)
	if err := db.RecordRefusedRefund(ctx, account, "refund:"+other, other, "refused", kudos.Money{Amount: 605, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreditNoteOfRefund(ctx, account, "refund:"+other); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("a refused refund has a credit note (%v)", err)
	}
	for range 2 {
		if err := db.MarkRefundMade(ctx, "refund:"+other, "re_by_hand"); err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
			t.Fatal(err)
		}
	}
	half, err := db.CreditNoteOfRefund(ctx, account, "refund:"+other)
	if err != nil || half.Number != fmt.Sprintf("KUD-CN-%d-000002", year) || half.Total != -605 || half.VAT != -105 || half.Net != -500 {
		t.Fatalf("the credit note of a half refund made by hand: %+v, %v", half, err)
	}
	// Nothing invoiced: the checkout's invoice never got a number.
	draft, _ := paidInvoice(t, db, account, kudos.InvoiceProcessing)
	if err := db.RecordRefund(ctx, account, "refund:"+draft, draft, "re_3", "late", kudos.Money{Amount: 1210, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreditNoteOfRefund(ctx, account, "refund:"+draft); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("a refund of nothing invoiced has a credit note (%v)", err)
	}
}

// TestCreditNoteNumbersAreGapFreeUnderConcurrency records refunds of many
// paid invoices at once, each twice: every refund has one credit note, and
// their numbers run from 1 without a gap, apart from the invoices' series.
func TestCreditNoteNumbersAreGapFreeUnderConcurrency(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	const n = 30
	checkouts := make([]string, n)
	for i := range checkouts {
		checkouts[i], _ = paidInvoice(t, db, account, kudos.InvoicePaid)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for _, c := range append(append([]string{}, checkouts...), checkouts...) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- db.RecordRefund(ctx, account, "refund:"+c, c, "re_"+c, "late", kudos.Money{Amount: 1210, Currency: "EUR"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var numbers []string
	for _, c := range checkouts {
		cn, err := db.CreditNoteOfRefund(ctx, account, "refund:"+c)
		if err != nil {
			t.Fatalf("refund of %s: %v", c, err)
		}
		numbers = append(numbers, cn.Number)
	}
	var total int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM invoices WHERE kind = 'CREDIT_NOTE'`).Scan(&total); err != nil || total != n {
		t.Fatalf("%d credit notes (%v), want %d", total, err, n)
	}
	sort.Strings(numbers)
	year := time.Now().UTC().Year()
	for i, got := range numbers {
		if want := fmt.Sprintf("KUD-CN-%d-%06d", year, i+1); got != want {
			t.Fatalf("credit note number %d is %s, want %s (all: %v)", i, got, want, numbers)
		}
	}
	// The invoices' own series is untouched by the credit notes.
	inv, err := db.Invoices(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	var invoiceNumbers []string
	for _, i := range inv {
		if !i.IsCreditNote() {
			invoiceNumbers = append(invoiceNumbers, i.Number)
		}
	}
	sort.Strings(invoiceNumbers)
	if len(invoiceNumbers) != n || invoiceNumbers[n-1] != fmt.Sprintf("KUD-%d-%06d", year, n) {
		t.Fatalf("invoice numbers %v", invoiceNumbers)
	}
}

// TestCreditNotesNeverCreditMoreThanTheirInvoice: the credit notes of one
// invoice add up to at most its net and VAT, exactly them once all of it
// is given back. Refunds made in parts (the provider's dashboard) end on
// the invoice's own net and VAT (the last part takes what is left, not its
// own rounding of the proportion), and a dispute lost after refunds
// credits only what they left: all of it refunded, it credits nothing (the
// provider withdraws nothing more: Stripe's Dispute object).
func TestCreditNotesNeverCreditMoreThanTheirInvoice(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	refund := func(checkout, id string, amount int64) {
		t.Helper()
		m := kudos.Money{Amount: amount, Currency: "EUR"}
		if _, err := db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_" + id, Provider: "fake", AccountID: account,
			CheckoutID: checkout, Outcome: kudos.PaymentPaid,
			LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, ProviderRefundID: id, Amount: &m}}); err != nil {
			t.Fatal(err)
		}
	}
	lose := func(checkout, id string, amount int64) {
		t.Helper()
		d := kudos.DisputeEvent{ID: id, Status: kudos.DisputeLost, Amount: kudos.Money{Amount: amount, Currency: "EUR"}, Payment: checkout}
		if _, err := db.RecordDispute(ctx, account, d, time.Now(), store.Booking{}); err != nil {
			t.Fatal(err)
		}
	}
	credited := func(invoiceID uuid.UUID) (notes int, net, vat int64) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT count(*), COALESCE(sum(net_amount), 0), COALESCE(sum(vat_amount), 0) FROM invoices
			WHERE corrects = $1 AND kind = 'CREDIT_NOTE'`, invoiceID).Scan(&notes, &net, &vat); err != nil {
			t.Fatal(err)
		}
		return notes, net, vat
	}
	// 10.00 + 2.10 VAT refunded as 1.00, 1.00 and 10.10: each part's own
	// rounding gives 0.17 + 0.17 + 1.75 = 2.09 VAT.
	checkout, inv := paidInvoice(t, db, account, kudos.InvoicePaid)
	for i, amount := range []int64{100, 100, 1010} {
		refund(checkout, fmt.Sprintf("re_part%d", i), amount)
	}
	if n, net, vat := credited(inv); n != 3 || net != -1000 || vat != -210 {
		t.Fatalf("refunded in three parts: %d credit notes of net %d and VAT %d, want 3 of -1000 and -210 in all", n, net, vat)
	}
	// All of it refunded, then the dispute lost: nothing more to credit.
	checkout, inv = paidInvoice(t, db, account, kudos.InvoicePaid)
	refund(checkout, "re_all", 1210)
	lose(checkout, "dp_after_all", 1210)
	if n, net, vat := credited(inv); n != 1 || net != -1000 || vat != -210 {
		t.Fatalf("refunded, then the dispute lost: %d credit notes of net %d and VAT %d, want 1 of -1000 and -210", n, net, vat)
	}
	// 2.00 refunded, then the whole payment disputed and lost: the dispute
	// credits the 10.10 left, with the VAT left.
	checkout, inv = paidInvoice(t, db, account, kudos.InvoicePaid)
	refund(checkout, "re_some", 200)
	lose(checkout, "dp_after_some", 1210)
	if n, net, vat := credited(inv); n != 2 || net != -1000 || vat != -210 {
		t.Fatalf("2.00 refunded, then the dispute lost: %d credit notes of net %d and VAT %d, want 2 of -1000 and -210 in all", n, net, vat)
	}
}

// TestARefundBookedBeforeItsPaymentIsCreditedWhenItSettles: a refund the
// provider reports before Kudos applied the payment it gives back (the
// payment's own event lost and replayed later by the reconciliation, a
// refund made in the provider's dashboard meanwhile) corrects no invoice
// when it is booked: none is paid by that payment yet. Once the payment
// settles the invoice (numbered, PAID), the refund gets its credit note,
// as it would have had in the other order: a sale refunded at the provider
// never stands uncredited in the books.
func TestARefundBookedBeforeItsPaymentIsCreditedWhenItSettles(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, false)
	checkout, inv := paidInvoice(t, db, account, kudos.InvoiceProcessing)
	m := kudos.Money{Amount: 500, Currency: "EUR"}
	if _, err := db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_early", Provider: "fake", AccountID: account,
		CheckoutID: checkout, Outcome: kudos.PaymentPaid,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, ProviderRefundID: "re_early", Amount: &m}}); err != nil {
		t.Fatal(err)
	}
	settled, err := db.SettlePaidCheckout(ctx, account, checkout, inv, store.Settlement{},
		kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var total, vat int64
	var number string
	if err := db.Pool.QueryRow(ctx, `SELECT count(*), COALESCE(sum(total_amount), 0), COALESCE(sum(vat_amount), 0),
		COALESCE(max(number), '') FROM invoices WHERE corrects = $1 AND kind = 'CREDIT_NOTE' AND refund_id IS NOT NULL`, inv).
		Scan(&n, &total, &vat, &number); err != nil {
		t.Fatal(err)
	}
	if settled.Status != kudos.InvoicePaid || n != 1 || total != -500 || vat != -87 || number == "" {
		t.Fatalf("invoice %s; credit notes of the earlier refund: %d of %d (VAT %d) numbered %q, want one of -500 (VAT -87), numbered",
			settled.Status, n, total, vat, number)
	}
	// Settled again (a retry): no second credit note.
	if _, err := db.SettlePaidCheckout(ctx, account, checkout, inv, store.Settlement{},
		kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive}); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM invoices WHERE corrects = $1 AND kind = 'CREDIT_NOTE'`, inv).Scan(&n); err != nil || n != 1 {
		t.Fatalf("after a retried settlement %d credit notes (%v), want 1", n, err)
	}
	if cn, err := db.CreditNoteOfRefund(ctx, account, "provider:re_early"); err != nil || cn.Number != number {
		t.Fatalf("the refund's credit note: %+v, %v", cn, err)
	}
}
