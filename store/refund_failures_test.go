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

// TestRefundFailureThenRefundAgain (issue 36): a refund booked with its
// credit note fails at the provider. It is recorded once as failed (the
// timeline's refund_failed; the same failure again changes nothing), it no
// longer counts as refunded (what is left to refund grows by it), its
// credit note stands, and the gauge counts it. A refund made again pays
// out against that credit note (no second one) up to what is owed; beyond
// that, a refund gets its own credit note, and never more than was paid.
func TestRefundFailureThenRefundAgain(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoiceID := paidByCheckout(t, db)
	refund := func(id, providerID string, amount int64) (store.BookedRefund, error) {
		return db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_" + id, Provider: "fake", AccountID: account, CheckoutID: "co_1",
			Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, RefundID: id, ProviderRefundID: providerID,
				Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}})
	}
	first, err := refund("ops-refund:a", "re_a", 1000)
	if err != nil || first.CreditNoteNumber == "" {
		t.Fatalf("first refund %+v (%v)", first, err)
	}
	failure := kudos.PaymentEvent{EventID: "evt_fail", Provider: "fake", AccountID: account, CheckoutID: "co_1", Outcome: kudos.PaymentPaid,
		LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_a", Reason: "expired_or_canceled_card",
			Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}}}
	for i, want := range []bool{true, false} {
		if changed, err := db.RecordRefundFailure(ctx, account, failure); err != nil || changed != want {
			t.Fatalf("failure %d: changed %v (%v), want %v", i, changed, err, want)
		}
	}
	if status, _ := db.RefundStatus(ctx, "ops-refund:a"); status != "failed" {
		t.Fatalf("refund %q, want failed", status)
	}
	if again, err := refund("ops-refund:a", "re_a", 1000); err != nil || again.New {
		t.Fatalf("the failed refund's event again: %+v (%v), want nothing booked", again, err)
	}
	pay, err := db.RefundablePaymentOf(ctx, invoiceID.String())
	if err != nil || pay.Refunded != 0 || pay.Left() != 1210 {
		t.Fatalf("refundable %+v (%v), want all 12.10 left", pay, err)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 1 {
		t.Fatalf("failed refunds owed %d (%v), want 1", n, err)
	}
	count := func(q string) (n int) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, q, account).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'refund_failed' AND amount = 1000`); n != 1 {
		t.Fatalf("%d refund_failed events, want 1", n)
	}
	// Refunded again, 6.00 of the 10.00 owed: against the first credit note.
	part, err := refund("ops-refund:a:2", "re_b", 600)
	if err != nil || part.CreditNoteNumber != first.CreditNoteNumber {
		t.Fatalf("refund again %+v (%v), want it paid out against %s", part, err, first.CreditNoteNumber)
	}
	if n := count(`SELECT count(*) FROM invoices WHERE account_id = $1 AND kind = 'CREDIT_NOTE'`); n != 1 {
		t.Fatalf("%d credit notes after the refund again, want 1", n)
	}
	// 6.00 more: 4.00 still owed against the first, 2.00 a new credit.
	rest, err := refund("ops-refund:c", "re_c", 600)
	if err != nil || rest.CreditNoteNumber == "" || rest.CreditNoteNumber == first.CreditNoteNumber {
		t.Fatalf("refund beyond what was owed %+v (%v), want a credit note of its own", rest, err)
	}
	var cnTotal int64
	if err := db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE number = $1`, rest.CreditNoteNumber).Scan(&cnTotal); err != nil || cnTotal != -200 {
		t.Fatalf("the new credit note %d (%v), want -2.00 (what was not owed already)", cnTotal, err)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("failed refunds owed %d (%v), want 0", n, err)
	}
	if _, err := refund("ops-refund:d", "re_d", 11); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("a refund beyond what was paid: %v, want EInvalid", err)
	}
}

// paidByCheckout is a new account whose invoice of 12.10 (10.00 + 21 %
// VAT) was paid by its checkout co_1.
func paidByCheckout(t *testing.T, db *store.DB) (account, invoiceID uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	account = newAccount(t, db)
	invoiceID = proInvoice(t, db, account, kudos.InvoicePaymentDue, kudos.InvoiceDue)
	withPaidPlan(t, db, account, false)
	if err := db.RecordCheckout(ctx, kudos.CheckoutRecord{ID: "co_1", AccountID: account, Purpose: kudos.CheckoutInvoice, Plan: kudos.PlanPro,
		InvoiceID: &invoiceID, Provider: "fake", ProviderID: "cs_1", URL: "https://pay.example/1", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SettlePaidCheckout(ctx, account, "co_1", invoiceID, store.Settlement{}, kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive}); err != nil {
		t.Fatal(err)
	}
	return account, invoiceID
}

// TestALostDisputeSettlesFailedRefunds: what a lost dispute gives back
// beyond what its credit note credits (the rest of the invoice) is money
// the customer was owed by a failed refund (its credit note stands): that
// much of the failed refund is settled by the dispute, in the dispute's
// transaction, whichever is booked first. All of it: the refund's row is
// settled_by_dispute (naming the dispute) and the gauge no longer counts
// it; part of it (a dispute of less than the payment): the rest is still
// owed. The invoice's credit notes never add up to more than it.
func TestALostDisputeSettlesFailedRefunds(t *testing.T) {
	ctx := context.Background()
	lost := func(t *testing.T, db *store.DB, account uuid.UUID, amount int64) {
		t.Helper()
		for _, s := range []kudos.DisputeStatus{kudos.DisputeOpen, kudos.DisputeLost} {
			if _, err := db.RecordDispute(ctx, account, kudos.DisputeEvent{ID: "dp_1", Status: s, Payment: "co_1",
				Amount: kudos.Money{Amount: amount, Currency: "EUR"}}, time.Now(), store.Booking{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// movement is the refund ops-refund:a (re_a) of amount, or its
	// failure, as the provider reports it.
	movement := func(account uuid.UUID, m kudos.Movement, amount int64) kudos.PaymentEvent {
		return kudos.PaymentEvent{EventID: "evt_" + string(m), Provider: "fake", AccountID: account, CheckoutID: "co_1",
			Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: m, RefundID: "ops-refund:a",
				ProviderRefundID: "re_a", Reason: "expired_or_canceled_card", Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}}
	}
	refund := func(t *testing.T, db *store.DB, account uuid.UUID, amount int64) {
		t.Helper()
		if _, err := db.BookRefund(ctx, account, movement(account, kudos.MovementRefund, amount)); err != nil {
			t.Fatal(err)
		}
	}
	fail := func(t *testing.T, db *store.DB, account uuid.UUID, amount int64) {
		t.Helper()
		if _, err := db.RecordRefundFailure(ctx, account, movement(account, kudos.MovementRefundFailed, amount)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name                    string
		refunded, disputed      int64
		disputeFirst            bool
		status                  string
		settled, owed, credited int64
	}{
		// 10.00 of 12.10 refunded, failed; all 12.10 disputed and lost:
		// the dispute credits the 2.10 left and settles the 10.00.
		{name: "part refunded, all disputed", refunded: 1000, disputed: 1210, status: "settled_by_dispute", settled: 1000, credited: 1210},
		{name: "all refunded, all disputed", refunded: 1210, disputed: 1210, status: "settled_by_dispute", settled: 1210, credited: 1210},
		// 10.00 disputed of the 12.10 the customer had paid: 2.10 credits
		// the rest of the sale, 7.90 settles the refund, 2.10 still owed.
		{name: "part disputed", refunded: 1000, disputed: 1000, status: "failed", settled: 790, owed: 210, credited: 1210},
		// The refund failed at the provider before the dispute (12.10
		// disputed of a payment refunded 10.00: the provider had taken the
		// refund back), its failure booked after the lost dispute.
		{name: "failure booked after the dispute", refunded: 1000, disputed: 1210, disputeFirst: true, status: "settled_by_dispute",
			settled: 1000, credited: 1210},
		// A refund that fails after the dispute was lost of what was left
		// (2.10): the network gave back only that, the 10.00 is owed.
		{name: "failed after a dispute of the rest", refunded: 1000, disputed: 210, disputeFirst: true, status: "failed", owed: 1000,
			credited: 1210},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := testenv.DB(t)
			account, invoiceID := paidByCheckout(t, db)
			refund(t, db, account, c.refunded)
			if c.disputeFirst {
				lost(t, db, account, c.disputed)
				fail(t, db, account, c.refunded)
			} else {
				fail(t, db, account, c.refunded)
				lost(t, db, account, c.disputed)
			}
			var status string
			var settledBy *string
			var settled int64
			if err := db.Pool.QueryRow(ctx, `SELECT status, settled_by, settled_amount FROM refunds WHERE id = 'ops-refund:a'`).
				Scan(&status, &settledBy, &settled); err != nil {
				t.Fatal(err)
			}
			if status != c.status || settled != c.settled || (settled > 0) != (settledBy != nil && *settledBy == "dp_1") {
				t.Fatalf("refund %s, %d settled by %v; want %s, %d settled by dp_1", status, settled, settledBy, c.status, c.settled)
			}
			owing := 0
			if c.owed > 0 {
				owing = 1
			}
			if n, err := db.FailedRefunds(ctx); err != nil || n != owing {
				t.Fatalf("failed refunds owed %d (%v), want %d", n, err, owing)
			}
			var credited int64
			if err := db.Pool.QueryRow(ctx, `SELECT COALESCE(-sum(total_amount), 0) FROM invoices WHERE corrects = $1`, invoiceID).
				Scan(&credited); err != nil || credited != c.credited {
				t.Fatalf("credited %d (%v), want %d", credited, err, c.credited)
			}
		})
	}
}

// TestTheOpsReportTellsWhatAFailedRefundStillOwes: kudos ops account shows,
// for a failed refund, what is still owed once refunds made again repaid
// part of it, and nothing once they repaid all of it (the report said
// "owed to the customer, refund again" for a refund repaid in full).
func TestTheOpsReportTellsWhatAFailedRefundStillOwes(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, _ := paidByCheckout(t, db)
	refund := func(id, providerID string, amount int64) {
		t.Helper()
		if _, err := db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_" + id, Provider: "fake", AccountID: account, CheckoutID: "co_1",
			Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, RefundID: id, ProviderRefundID: providerID,
				Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}}); err != nil {
			t.Fatal(err)
		}
	}
	owed := func() int64 {
		t.Helper()
		o, err := db.OpsAccount(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range o.Refunds {
			if f.ID == "ops-refund:a" {
				return f.Owed
			}
		}
		t.Fatalf("the report lacks refund ops-refund:a: %+v", o.Refunds)
		return 0
	}
	refund("ops-refund:a", "re_a", 1000)
	if n := owed(); n != 0 {
		t.Fatalf("a refund made owes %d, want 0", n)
	}
	if _, err := db.RecordRefundFailure(ctx, account, kudos.PaymentEvent{EventID: "evt_fail", Provider: "fake", AccountID: account, CheckoutID: "co_1",
		Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed, ProviderRefundID: "re_a",
			Reason: "expired_or_canceled_card", Amount: &kudos.Money{Amount: 1000, Currency: "EUR"}}}); err != nil {
		t.Fatal(err)
	}
	if n := owed(); n != 1000 {
		t.Fatalf("the failed refund owes %d, want 1000", n)
	}
	refund("ops-refund:a:2", "re_b", 600)
	if n := owed(); n != 400 {
		t.Fatalf("the failed refund repaid 6.00 owes %d, want 400", n)
	}
	refund("ops-refund:a:3", "re_c", 400)
	if n := owed(); n != 0 {
		t.Fatalf("the failed refund repaid in full owes %d, want 0", n)
	}
}

// TestARefundMadeAgainBeyondWhatItRepaysOwesItsOwnPartWhenItFails: refund
// X of 10.00 fails; the whole 12.10 is refunded again (R: 10.00 repays X,
// 2.10 a credit note of its own), and R fails too. The customer is owed
// 12.10 (the credit notes credit all of the invoice, no money went back):
// before, only X's 10.00 was owed (a failed refund that repays was never
// owed itself) and R's 2.10 could not be refunded at all. Refunds made
// again then repay both, oldest first, one of them across the two, with
// no credit note.
func TestARefundMadeAgainBeyondWhatItRepaysOwesItsOwnPartWhenItFails(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account, invoiceID := paidByCheckout(t, db)
	refund := func(id, providerID string, amount int64) store.BookedRefund {
		t.Helper()
		b, err := db.BookRefund(ctx, account, kudos.PaymentEvent{EventID: "evt_" + id, Provider: "fake", AccountID: account, CheckoutID: "co_1",
			Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefund, RefundID: id, ProviderRefundID: providerID,
				Amount: &kudos.Money{Amount: amount, Currency: "EUR"}}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fail := func(providerID string) {
		t.Helper()
		if _, err := db.RecordRefundFailure(ctx, account, kudos.PaymentEvent{EventID: "evt_fail_" + providerID, Provider: "fake", AccountID: account,
			CheckoutID: "co_1", Outcome: kudos.PaymentPaid, LedgerMovement: kudos.LedgerMovement{Movement: kudos.MovementRefundFailed,
				ProviderRefundID: providerID, Reason: "expired_or_canceled_card"}}); err != nil {
			t.Fatal(err)
		}
	}
	owed := func() (sum int64, byID map[string]int64) {
		t.Helper()
		o, err := db.OpsAccount(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		byID = map[string]int64{}
		for _, f := range o.Refunds {
			sum += f.Owed
			byID[f.ID] = f.Owed
		}
		return sum, byID
	}
	refund("ops-refund:x", "re_x", 1000)
	fail("re_x")
	if r := refund("ops-refund:r", "re_r", 1210); r.CreditNoteNumber == "" {
		t.Fatalf("the refund of 12.10 made again %+v: want a credit note of its own for the 2.10 beyond what it repays", r)
	}
	if sum, _ := owed(); sum != 0 {
		t.Fatalf("%d owed once the refund made again went through, want 0", sum)
	}
	fail("re_r")
	sum, byID := owed()
	if sum != 1210 || byID["ops-refund:x"] != 1000 || byID["ops-refund:r"] != 210 {
		t.Fatalf("owed %d (%v) after the refund made again failed too, want 1210: 1000 of x and 210 of r", sum, byID)
	}
	if n, err := db.FailedRefunds(ctx); err != nil || n != 2 {
		t.Fatalf("%d failed refunds owed (%v), want 2", n, err)
	}
	// A refund made now repays the oldest first: asked for r, --failed
	// answers x while x is owed.
	if f, err := db.OwedRefundOf(ctx, "ops-refund:r"); err != nil || f.ID != "ops-refund:x" || f.Owed.Amount != 1000 {
		t.Fatalf("owed refund of r %+v (%v), want x's 10.00 first", f, err)
	}
	pay, err := db.RefundablePaymentOf(ctx, invoiceID.String())
	if err != nil || pay.Creditable() < 1210 {
		t.Fatalf("refundable %+v (%v): want the 12.10 owed refundable again", pay, err)
	}
	refund("ops-refund:x:2", "re_x2", 600)
	if sum, byID := owed(); byID["ops-refund:x"] != 400 || byID["ops-refund:r"] != 210 {
		t.Fatalf("owed %d (%v) after 6.00 refunded again, want 400 of x and 210 of r", sum, byID)
	}
	// The rest at once (a dashboard refund of 6.10): it repays both.
	if again := refund("ops-refund:all", "re_all", 610); again.CreditNoteNumber != "" {
		var total int64
		if err := db.Pool.QueryRow(ctx, `SELECT total_amount FROM invoices WHERE number = $1`, again.CreditNoteNumber).Scan(&total); err != nil {
			t.Fatal(err)
		}
		var own bool
		if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM invoices WHERE refund_id = 'ops-refund:all')`).Scan(&own); err != nil || own {
			t.Fatalf("the refund repaying both got a credit note of its own (%d, %v)", total, err)
		}
	}
	if sum, byID := owed(); sum != 0 {
		t.Fatalf("owed %d (%v) once all was refunded again, want 0", sum, byID)
	}
	if f, err := db.OwedRefundOf(ctx, "ops-refund:r"); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("owed refund of r once repaid: %+v (%v), want EInvalid (owed no more)", f, err)
	}
	var uncredited int64
	if err := db.Pool.QueryRow(ctx, `SELECT COALESCE(sum(uncredited), 0) FROM refunds WHERE account_id = $1`, account).Scan(&uncredited); err != nil || uncredited != 0 {
		t.Fatalf("%d paid out with no credit note (%v), want 0", uncredited, err)
	}
}
