package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/internal/testenv"
	"kudos/store"
)

// TestOnlyTheRefundOfThePaymentThatPaidCreditsTheInvoice (issue 34 item
// 6): a due invoice paid by one checkout and paid again by a second
// (another tab) stays paid and in use when the duplicate is refunded: no
// credit note; the refund of the checkout that settled it (paid_by) gets
// its one credit note. A renewal invoice paid by its charge, and paid
// again through a checkout, is not credited by that checkout's refund.
func TestOnlyTheRefundOfThePaymentThatPaidCreditsTheInvoice(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, false)
	invoiceID := proInvoice(t, db, account, kudos.InvoicePaymentDue, kudos.InvoiceDue)
	checkout := func(id string) {
		if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: id, AccountID: account, Purpose: kudos.CheckoutInvoice,
			Plan: kudos.PlanPro, InvoiceID: &invoiceID, Provider: "fake", ProviderID: "cs_" + id, URL: "https://pay.example/" + id,
			ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	checkout("co_first")
	checkout("co_second")
	sub := kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive}
	for _, id := range []string{"co_first", "co_second"} { // both paid: the second finds the invoice paid
		if _, err := db.SettlePaidCheckout(ctx, account, id, invoiceID, store.Settlement{}, sub); err != nil {
			t.Fatal(err)
		}
	}
	amount := kudos.Money{Amount: 1210, Currency: "EUR"}
	if err := db.RecordRefund(ctx, account, "refund:co_second", "co_second", "re_dup", "paid twice", amount); err != nil {
		t.Fatal(err)
	}
	if cn, err := db.CreditNoteOfRefund(ctx, account, "refund:co_second"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the duplicate payment's refund credited the invoice it did not pay: %+v (%v)", cn, err)
	}
	inv, err := db.Invoice(ctx, account, invoiceID)
	if err != nil || inv.Status != kudos.InvoicePaid {
		t.Fatalf("the invoice after the duplicate's refund: %+v (%v), want still paid", inv, err)
	}
	if err := db.RecordRefund(ctx, account, "refund:co_first", "co_first", "re_sale", "sale undone", amount); err != nil {
		t.Fatal(err)
	}
	cn, err := db.CreditNoteOfRefund(ctx, account, "refund:co_first")
	if err != nil || cn.Corrects == nil || *cn.Corrects != invoiceID || cn.Total != -1210 {
		t.Fatalf("the refund of the payment that paid the invoice: credit note %+v (%v)", cn, err)
	}

	renewal, _ := paidInvoice(t, db, account, kudos.InvoiceProcessing)
	var renewalInvoice uuid.UUID
	if err := db.Pool.QueryRow(ctx, `SELECT invoice_id FROM checkouts WHERE id = $1`, renewal).Scan(&renewalInvoice); err != nil {
		t.Fatal(err)
	}
	if err := db.PayInvoice(ctx, renewalInvoice, "renewal:"+account.String()+":2027-01-01T00:00:00Z"); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordRefund(ctx, account, "refund:"+renewal, renewal, "re_dup2", "paid twice", amount); err != nil {
		t.Fatal(err)
	}
	if cn, err := db.CreditNoteOfRefund(ctx, account, "refund:"+renewal); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the refund of a checkout that paid what the renewal charge had paid credited it: %+v (%v)", cn, err)
	}
}

// TestAChargesPaymentIsFoundWithoutItsCustomer: an invoice paid by an
// off-session renewal charge names the charge by our key; the provider
// finds its payment through the account's customer, which erasure deletes.
// An operator's refund of such an invoice after the erasure (the runbook's
// "refund again" of a failed refund) found no payment and failed. The
// payment's own id, known from the charge's event, goes with it.
func TestAChargesPaymentIsFoundWithoutItsCustomer(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	_, inv := paidInvoice(t, db, account, kudos.InvoiceProcessing)
	charge := "renewal:" + account.String() + ":2027-01-01T00:00:00Z"
	if err := db.PayInvoice(ctx, inv, charge); err != nil {
		t.Fatal(err)
	}
	ev := kudos.PaymentEvent{EventID: "evt_charge_paid", Provider: "stripe", AccountID: account, Outcome: kudos.PaymentPaid,
		OccurredAt: time.Now(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge, ChargeID: charge, PaymentID: "pi_renewal"}}
	if _, err := db.RecordPaymentEvent(ctx, ev, func(e kudos.PaymentEvent) store.OutboxEntry {
		return store.OutboxEntry{Key: "payment_event:" + e.EventID, Kind: "payment_event", WorkflowID: "subscription:" + account.String(), Payload: e}
	}); err != nil {
		t.Fatal(err)
	}
	p, err := db.RefundablePaymentOf(ctx, inv.String())
	if err != nil {
		t.Fatal(err)
	}
	if p.IsCheckout || p.PaymentRef != charge || p.PaymentID != "pi_renewal" {
		t.Fatalf("refundable payment %+v, want the charge %s with its payment pi_renewal", p, charge)
	}
}
