package activities_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"kudos"
	"kudos/invoicepdf"
	"kudos/workflows"
)

// TestARefundedPaymentGetsOneCreditNote: a paid invoice's checkout
// refunded (a payment for what was paid otherwise). The object store
// refuses the credit note's PDF on the first attempt, after the refund and
// its credit note committed; the retry, and one more run, leave one refund,
// one credit note (correcting the invoice, negative, CREDITED), one
// credit_note_issued event and its PDF stored. A refund of a checkout whose
// invoice never got a number makes no credit note. Each refund mails one
// receipt (refund_issued), the first naming its credit note.
func TestARefundedPaymentGetsOneCreditNote(t *testing.T) {
	e, storage := newSettleEnv(t, 0)
	ctx := context.Background()
	buy := e.open("co_paid", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	e.twice(workflows.ActivitySettlePayment, e.proPayment(buy))
	inv, err := e.db.Invoice(ctx, e.account, buy.InvoiceID)
	if err != nil || inv.Number == "" {
		t.Fatalf("invoice %+v (%v)", inv, err)
	}

	storage.failures = 1
	if _, err := e.env.ExecuteActivity(workflows.ActivityRefundCheckout, refundOf(e.account, buy.CheckoutID, false)); err == nil {
		t.Fatal("the object store refused the credit note's PDF, yet the activity succeeded (nothing would retry it)")
	}
	e.twice(workflows.ActivityRefundCheckout, refundOf(e.account, buy.CheckoutID, false))

	if n := e.count("refunds", "status = 'refunded'"); n != 1 {
		t.Fatalf("%d refunds, want 1", n)
	}
	if n := e.count("invoices", "kind = 'CREDIT_NOTE'"); n != 1 {
		t.Fatalf("%d credit notes after a retried refund, want 1", n)
	}
	cn, err := e.db.CreditNoteOfRefund(ctx, e.account, "refund:"+buy.CheckoutID)
	if err != nil {
		t.Fatal(err)
	}
	if cn.Total != -inv.Total || cn.Net != -inv.Net || cn.VAT != -inv.VAT || cn.Status != kudos.InvoiceCredited ||
		cn.Corrects == nil || *cn.Corrects != inv.ID || cn.CorrectsNumber != inv.Number || len(cn.Number) != len("KUD-CN-2026-000001") {
		t.Fatalf("credit note %+v of invoice %+v", cn, inv)
	}
	if ev := e.once(kudos.EventCreditNoteIssued); ev.InvoiceID == nil || *ev.InvoiceID != cn.ID || ev.Amount == nil || *ev.Amount != inv.Total {
		t.Fatalf("credit_note_issued %+v", ev)
	}
	key, err := e.db.InvoicePDF(ctx, e.account, cn.ID)
	if err != nil || key != invoicepdf.Key(e.account, cn.Number) || len(storage.objects[key]) == 0 {
		t.Fatalf("credit note PDF key %q (%v): want its PDF stored", key, err)
	}

	// A payment for a checkout whose invoice was dropped: nothing invoiced.
	late := e.open("co_dropped", kudos.CheckoutUpgrade, kudos.PlanTeam, uuid.New())
	e.twice(workflows.ActivityCloseCheckout, workflows.CloseCheckoutInput{AccountID: e.account, CheckoutID: late.CheckoutID,
		ProviderID: "cs_" + late.CheckoutID, Purpose: late.Purpose, InvoiceID: late.InvoiceID, Outcome: kudos.PaymentExpired})
	e.twice(workflows.ActivityRefundCheckout, refundOf(e.account, late.CheckoutID, false))
	if n := e.count("invoices", "kind = 'CREDIT_NOTE'"); n != 1 {
		t.Fatalf("%d credit notes after a refund of nothing invoiced, want still 1", n)
	}

	// Each refund's receipt (refund_issued) is queued once, however often
	// its activity ran: the first with its credit note and the invoice it
	// corrects, the second (nothing invoiced) without.
	mails := map[string]kudos.MailBilling{}
	rows, err := e.db.Pool.Query(ctx, `SELECT key, payload FROM outbox WHERE kind = 'mail' AND payload->>'purpose' = 'refund_issued'
		AND payload->'billing'->>'account_id' = $1`, e.account.String())
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var key string
		var req kudos.MailRequest
		if err := rows.Scan(&key, &req); err != nil {
			t.Fatal(err)
		}
		mails[key] = *req.Billing
	}
	paidMail, ok := mails["mail:refund_issued:refund:"+buy.CheckoutID]
	if len(mails) != 2 || !ok || paidMail.CreditNoteNumber != cn.Number || paidMail.InvoiceNumber != inv.Number ||
		paidMail.Amount == nil || paidMail.Amount.Amount != inv.Total {
		t.Fatalf("refund mails %+v, want one per refund, the first with credit note %s", mails, cn.Number)
	}
	if m := mails["mail:refund_issued:refund:"+late.CheckoutID]; m.CreditNoteNumber != "" || m.Amount == nil {
		t.Fatalf("the receipt of a refund of nothing invoiced: %+v", m)
	}
}
