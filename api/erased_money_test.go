package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
	"kudos/workflows"
)

// Issue 36 × issue 34: money that moves at the provider for an account
// that is erased — no customer clicks, yet the books must agree.

// TestErasedAccountsRenewalChargeIsCancelledThenRefunded: a renewal
// charge waiting on the customer's authentication (Stripe's
// 4000002500003155) is cancelled at the provider when the account is
// erased, so the customer can no longer complete it; one that settles all
// the same (the customer authenticated in the instant before the cancel)
// arrives as a charge movement with no checkout and is refunded in full by
// its charge key, once, however many times its event comes: a refund row,
// the timeline's refund event, no credit note (the renewal invoice was
// never paid), and no subscription run for the erased account.
func TestErasedAccountsRenewalChargeIsCancelledThenRefunded(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(20*time.Second, 40*time.Second)
	h.srv.Config.DeletionGrace = 2 * time.Second
	h = h.withTemporal(6 * time.Second)
	ctx := context.Background()
	token, account := h.paidWith("erased-3ds@example.com", "STARTER", "4000002500003155")
	h.inDunning(token, account)
	var chargeID, currency string
	var amount int64
	if err := h.db.Pool.QueryRow(ctx, `SELECT charge_id, amount, currency FROM sandbox_charges WHERE account_id = $1
		AND charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required' ORDER BY charge_id LIMIT 1`, account).
		Scan(&chargeID, &amount, &currency); err != nil {
		t.Fatal(err)
	}
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("deletion %+v", res)
	}
	// (a) the charge waiting on the customer is cancelled at the provider.
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required'", 0,
		"%d renewal charges still waiting on the customer after the erasure, want 0")
	if r := h.expect(h.do("POST", "/dev/sandbox/settle", map[string]any{"account_id": account, "authenticate": true}, ""), 200); r.Body["settled"] != 0.0 {
		t.Fatalf("the customer completed a charge of an erased account: %s", r.Raw)
	}
	h.wantRows("payment_events", account, "movement = 'charge' AND outcome = 'paid'", 0, "%d charges settled after the erasure, want 0")

	// (b) the race: it settled all the same; its event comes twice.
	if _, err := h.db.Pool.Exec(ctx, `UPDATE sandbox_charges SET paid = true, failure_reason = NULL WHERE charge_id = $1`, chargeID); err != nil {
		t.Fatal(err)
	}
	var evs []kudos.PaymentEvent
	for range 2 {
		ev := kudos.PaymentEvent{EventID: "evt_erased_charge_" + uuid.NewString(), Provider: "sandbox", AccountID: uuid.MustParse(account),
			Outcome: kudos.PaymentPaid, OccurredAt: time.Now().UTC(), LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementCharge,
				ChargeID: chargeID, PaymentID: "ch_sandbox_" + chargeID, Amount: &kudos.Money{Amount: amount, Currency: currency}}}
		if _, err := h.db.RecordPaymentEvent(ctx, ev, dispatch.PaymentEvent); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	h.srv.Outbox.Kick()
	for _, ev := range evs {
		if res := h.erasedPaymentOutcome(ev); res.Outcome != workflows.ErasedPaymentRefunded {
			t.Fatalf("erased charge %+v", res)
		}
	}
	h.wantRows("refunds", account, "checkout_id = '"+chargeID+"' AND status = 'refunded' AND reason = 'paid after the account was erased' AND amount = "+
		itoa(amount), 1, "%d refunds of the erased account's charge, want 1")
	h.wantRows("sandbox_refunds JOIN sandbox_charges USING (charge_id)", account, "charge_id = '"+chargeID+"'", 1,
		"%d refunds at the provider, want 1")
	h.wantRows("billing_events", account, "type = 'refund'", 1, "%d refund events on the timeline, want 1")
	h.wantRows("invoices", account, "status = 'PAID' AND paid_by = '"+chargeID+"'", 0, "%d invoices paid by the erased account's charge")
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE'", 0, "%d credit notes: the renewal was never paid")
	h.wantRows("payment_events", account, "movement = 'charge' AND applied_at IS NULL", 0, "%d charge events left unanswered")
	if h.running("subscription:" + account) {
		t.Fatal("a charge event started the erased account's subscription workflow")
	}
	if rep := h.reconcileProvider(""); rep.Drift != 0 {
		t.Fatalf("drift %d after the erased account's charge was refunded: %+v", rep.Drift, rep.Differences)
	}
	h.recordHistory(workflows.ErasedPaymentWorkflowID(evs[0]), "", "erased_payment_charge_refunded.json")
	h.recordHistory(workflows.AccountDeletionWorkflowID(uuid.MustParse(account), at), "", "account_deletion_cancels_open_charges.json")
}

// TestDashboardRefundOfAnErasedAccountsPaymentGetsItsCreditNote: a refund
// made in the provider's dashboard of a payment of an erased account
// corrects the invoice it paid with a credit note (the books are kept 10
// years: kind credit_note, corrects, negative amount, VAT in proportion,
// reverse charge kept), its refund row and the timeline's refund event;
// no mail goes out (the account has no address any more).
func TestDashboardRefundOfAnErasedAccountsPaymentGetsItsCreditNote(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	ctx := context.Background()
	const email = "erased-dashboard-refund@example.com"
	token, account, href := h.startPlan(email, "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	var total, vat int64
	var reverse bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT total_amount, vat_amount, reverse_charge FROM invoices WHERE id = $1`, inv["id"]).
		Scan(&total, &vat, &reverse); err != nil {
		t.Fatal(err)
	}
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("deletion %+v", res)
	}
	mails := h.mailCount(email)
	h.expect(h.do("POST", "/dev/sandbox/provider-refund", map[string]any{"account_id": account, "invoice_id": inv["id"], "amount": 10.00}, ""), 200)
	eventually(t, "the refund event answered", func() bool {
		return h.count("payment_events", account, "movement = 'refund' AND applied_at IS NOT NULL") == 1
	})
	var eventID string
	if err := h.db.Pool.QueryRow(ctx, `SELECT event_id FROM payment_events WHERE account_id = $1 AND movement = 'refund'`, account).Scan(&eventID); err != nil {
		t.Fatal(err)
	}
	h.wantRows("refunds", account, "status = 'refunded' AND amount = 1000", 1, "%d refunds booked, want 1")
	var cnTotal, cnVAT int64
	var cnReverse bool
	var cnStatus string
	if err := h.db.Pool.QueryRow(ctx, `SELECT total_amount, vat_amount, reverse_charge, status FROM invoices
		WHERE account_id = $1 AND kind = 'CREDIT_NOTE' AND corrects = $2`, account, inv["id"]).Scan(&cnTotal, &cnVAT, &cnReverse, &cnStatus); err != nil {
		t.Fatalf("the credit note of the erased account's refund: %v", err)
	}
	if want := -(1000*vat*2 + total) / (2 * total); cnTotal != -1000 || cnVAT != want || cnReverse != reverse || cnStatus != "CREDITED" {
		t.Fatalf("credit note total %d VAT %d reverse %v %s, want -1000, %d, %v, CREDITED", cnTotal, cnVAT, cnReverse, cnStatus, want, reverse)
	}
	h.wantRows("billing_events", account, "type = 'refund' AND amount = 1000", 1, "%d refund events on the timeline, want 1")
	h.creditNotePDFStored(account, inv["id"].(string))
	if n := h.mailCount(email); n != mails {
		t.Fatalf("%d mails after the erasure, want none", n-mails)
	}
	if h.running("subscription:" + account) {
		t.Fatal("a refund event started the erased account's subscription workflow")
	}
	h.recordHistory(workflows.ErasedPaymentWorkflowID(kudos.PaymentEvent{AccountID: uuid.MustParse(account), EventID: eventID}), "",
		"erased_payment_dashboard_refund.json")
}

// TestDeletionScheduledCancelsTheRenewalWaitingOnTheCustomer: scheduling
// the deletion during dunning ends the renewal unpaid (auto-renewal goes
// off), so the renewal charge waiting on the customer's authentication is
// cancelled at the provider then, not only at the erasure: completed
// during the grace period it would be money taken for a period the plan
// never starts.
func TestDeletionScheduledCancelsTheRenewalWaitingOnTheCustomer(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(20*time.Second, 40*time.Second)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(6 * time.Second)
	token, account := h.paidWith("deleting-in-dunning@example.com", "STARTER", "4000002500003155")
	h.inDunning(token, account)
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required'", 1,
		"%d renewal charges waiting on the customer before the deletion, want 1")
	h.scheduleDeletion(token, account)
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND failure_reason = 'authentication_required'", 0,
		"%d renewal charges still waiting on the customer once the deletion is scheduled, want 0")
	if r := h.expect(h.do("POST", "/dev/sandbox/settle", map[string]any{"account_id": account, "authenticate": true}, ""), 200); r.Body["settled"] != 0.0 {
		t.Fatalf("the customer completed a charge of an account being deleted: %s", r.Raw)
	}
	h.recordHistory("subscription:"+account, "", "subscription_prepare_deletion_cancels_charges.json")
}

// TestDisputeOfAnErasedAccountsPaymentIsBooked: a chargeback of a
// payment of an erased account, opened then lost, is booked as for any
// account — the disputes row, the timeline, the lost sale reversed by a
// credit note (kept 10 years) — not only marked applied; no subscription
// run starts for it.
func TestDisputeOfAnErasedAccountsPaymentIsBooked(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account, href := h.startPlan("erased-dispute@example.com", "PRO")
	h.expect(h.sandbox(href, "pay"), 200)
	inv := h.paidInvoice(token, account)
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("deletion %+v", res)
	}
	for _, status := range []string{"open", "lost"} {
		h.expect(h.do("POST", "/dev/sandbox/dispute", map[string]any{"account_id": account, "invoice_id": inv["id"], "status": status}, ""), 200)
	}
	eventually(t, "the lost dispute booked", func() bool { return h.count("disputes", account, "status = 'lost'") == 1 })
	h.wantRows("invoices", account, "kind = 'CREDIT_NOTE' AND dispute_id IS NOT NULL AND corrects = '"+inv["id"].(string)+"'", 1,
		"%d credit notes of the lost dispute, want 1")
	h.wantRows("billing_events", account, "type IN ('dispute_opened', 'dispute_lost')", 2, "%d dispute events on the timeline, want 2")
	h.creditNotePDFStored(account, inv["id"].(string))
	eventually(t, "the dispute events answered", func() bool {
		return h.count("payment_events", account, "dispute IS NOT NULL AND applied_at IS NULL") == 0
	})
	if h.running("subscription:" + account) {
		t.Fatal("a dispute started the erased account's subscription workflow")
	}
	var eventID string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT event_id FROM payment_events WHERE account_id = $1
		AND dispute ->> 'status' = 'lost'`, account).Scan(&eventID); err != nil {
		t.Fatal(err)
	}
	h.recordHistory(workflows.ErasedPaymentWorkflowID(kudos.PaymentEvent{AccountID: uuid.MustParse(account), EventID: eventID}), "",
		"erased_payment_dispute_lost.json")
}

// creditNotePDFStored waits for the credit note correcting invoice of an
// erased account to have its PDF stored: a numbered document is kept as a
// document (its buyer is the invoice's snapshot; no owner is left to
// address it to).
func (h *harness) creditNotePDFStored(account, invoice string) {
	h.t.Helper()
	var key string
	eventually(h.t, "the credit note's PDF stored", func() bool {
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT COALESCE(pdf_key, '') FROM invoices WHERE account_id = $1
			AND kind = 'CREDIT_NOTE' AND corrects = $2`, account, invoice).Scan(&key)
		return key != ""
	})
	if _, err := h.storage.Stat(context.Background(), key); err != nil {
		h.t.Fatalf("the credit note's PDF %s: %v", key, err)
	}
}
