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

// TestDisputesAreBookedOnceAndRebuildTheState (issue 36 item 3): a
// dispute of the payment that paid an invoice is opened once (a second
// event of it books nothing), is in the read model a rebuilt run starts
// from, and is counted open; lost, its credit note reverses the sale (the
// dispute's amount, naming the dispute, CREDITED), and a late open event
// reopens nothing. A returned payment makes its invoice due again, once.
func TestDisputesAreBookedOnceAndRebuildTheState(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	invoiceID := proInvoice(t, db, account, kudos.InvoiceRenewal, kudos.InvoiceProcessing)
	const payment = "renewal:x:2027-01-01T00:00:00Z"
	if err := db.PayInvoice(ctx, invoiceID, payment); err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Truncate(time.Second)
	d := kudos.DisputeEvent{ID: "dp_1", Status: kudos.DisputeOpen, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}, Payment: payment}
	for i, want := range []bool{true, false} {
		res, err := db.RecordDispute(ctx, account, d, at, store.Booking{})
		if err != nil || res.Changed != want || res.Status != kudos.DisputeOpen || res.InvoiceID == nil || *res.InvoiceID != invoiceID {
			t.Fatalf("open #%d: %+v (%v)", i+1, res, err)
		}
	}
	rm, err := db.SubscriptionReadModel(ctx, account)
	if err != nil || len(rm.Disputes) != 1 || rm.Disputes[0].ID != "dp_1" || rm.Disputes[0].InvoiceID != invoiceID {
		t.Fatalf("read model disputes %+v (%v)", rm, err)
	}
	if n, err := db.OpenDisputes(ctx); err != nil || n < 1 {
		t.Fatalf("open disputes %d (%v)", n, err)
	}
	d.Status = kudos.DisputeLost
	res, err := db.RecordDispute(ctx, account, d, at.Add(time.Hour), store.Booking{})
	if err != nil || !res.Changed || res.Status != kudos.DisputeLost || res.CreditNoteID == nil || *res.CreditNoteID != store.DisputeCreditNoteID("dp_1") {
		t.Fatalf("lost: %+v (%v)", res, err)
	}
	cn, err := db.Invoice(ctx, account, *res.CreditNoteID)
	if err != nil || cn.Total != -1210 || cn.Status != kudos.InvoiceCredited || cn.Corrects == nil || *cn.Corrects != invoiceID {
		t.Fatalf("credit note %+v (%v)", cn, err)
	}
	d.Status = kudos.DisputeOpen
	if res, err := db.RecordDispute(ctx, account, d, at.Add(2*time.Hour), store.Booking{}); err != nil || res.Changed || res.Status != kudos.DisputeLost {
		t.Fatalf("a late open event: %+v (%v)", res, err)
	}
	if rm, err := db.SubscriptionReadModel(ctx, account); err != nil || len(rm.Disputes) != 0 {
		t.Fatalf("read model disputes after the loss %+v (%v)", rm.Disputes, err)
	}
	var events int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type IN ('dispute_opened', 'dispute_lost',
		'credit_note_issued')`, account).Scan(&events); err != nil || events != 3 {
		t.Fatalf("%d dispute events (%v), want opened, lost, credit note once each", events, err)
	}

	ret := kudos.ReturnEvent{ID: "py_1", Payment: payment, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}}
	inv, err := db.ReturnPayment(ctx, account, ret, at, store.Booking{})
	if err != nil || inv == nil || inv.ID != invoiceID || inv.Status != kudos.InvoiceDue || inv.Number == "" {
		t.Fatalf("returned: %+v (%v), want the invoice due again with its number", inv, err)
	}
	if inv, err := db.ReturnPayment(ctx, account, ret, at, store.Booking{}); err != nil || inv != nil {
		t.Fatalf("returned twice: %+v (%v)", inv, err)
	}
	if _, err := db.RecordDispute(ctx, account, kudos.DisputeEvent{ID: "dp_2", Status: "maybe", Payment: payment}, at, store.Booking{}); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("an unknown status: %v", err)
	}
}

// TestALostDisputeCarriesItsInvoicesDiscountTerms: the disputed invoice's
// promotion comes back with the dispute, as terms for one more payment
// (so that a year billed again costs what was agreed): a stored code's own
// terms, and for a code no longer stored the same amount off.
func TestALostDisputeCarriesItsInvoicesDiscountTerms(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	if err := db.CreatePromotion(ctx, kudos.Promotion{Code: "LOYAL10", PercentOff: 10, Duration: kudos.PromotionForever}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		code string
		want kudos.Discount
	}{
		{"LOYAL10", kudos.Discount{Code: "LOYAL10", PercentOff: 10, Duration: kudos.PromotionForever}},
		{"GONE", kudos.Discount{Code: "GONE", AmountOff: 100, Currency: "EUR", Duration: kudos.PromotionOnce}},
	} {
		invoiceID, payment := uuid.New(), "co_"+tt.code
		if err := db.CreateInvoice(ctx, kudos.Invoice{ID: invoiceID, AccountID: account, Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro,
			Net: 900, VAT: 189, VATRate: 21, Total: 1089, Currency: "EUR", Status: kudos.InvoiceProcessing,
			Discount: &kudos.InvoiceDiscount{Code: tt.code, Amount: 100}}); err != nil {
			t.Fatal(err)
		}
		if err := db.PayInvoice(ctx, invoiceID, payment); err != nil {
			t.Fatal(err)
		}
		d := kudos.DisputeEvent{ID: "dp_" + tt.code, Status: kudos.DisputeLost, Amount: kudos.Money{Amount: 1089, Currency: "EUR"}, Payment: payment}
		res, err := db.RecordDispute(ctx, account, d, time.Now(), store.Booking{})
		if err != nil || res.Discount == nil {
			t.Fatalf("%s: %+v (%v), want its discount", tt.code, res, err)
		}
		if got := *res.Discount; got.Code != tt.want.Code || got.PercentOff != tt.want.PercentOff || got.AmountOff != tt.want.AmountOff ||
			got.Currency != tt.want.Currency || got.Duration != tt.want.Duration || got.RenewalsLeft != 0 {
			t.Fatalf("%s: the discount %+v, want %+v for one payment", tt.code, got, tt.want)
		}
	}
}

// TestTheDunningBaseIsReadBackOnlyByARebuild: the base of a dunning
// schedule the workflow writes (payment_retry_base) comes back in the read
// model a run is rebuilt from, and never in the row the api shows; a row
// without a payment being retried has none.
func TestTheDunningBaseIsReadBackOnlyByARebuild(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	invoiceID := proInvoice(t, db, account, kudos.InvoiceRenewal, kudos.InvoiceDue)
	base := time.Now().UTC().Truncate(time.Second)
	retry := base.Add(24 * time.Hour)
	row := kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive, StartNextPeriod: true, PaymentRetryAt: &retry,
		PaymentRetryBase: &base, FailedPayment: &kudos.FailedPayment{InvoiceID: invoiceID, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}}}
	if err := db.WriteSubscription(ctx, account, row); err != nil {
		t.Fatal(err)
	}
	if rm, err := db.SubscriptionReadModel(ctx, account); err != nil || rm.PaymentRetryBase == nil || !rm.PaymentRetryBase.Equal(base) {
		t.Fatalf("read model: %+v (%v), want the base %v", rm, err, base)
	}
	if shown, err := db.Subscription(ctx, account); err != nil || shown.PaymentRetryBase != nil {
		t.Fatalf("the row the api shows: %+v (%v), want no base", shown, err)
	}
	row.PaymentRetryAt, row.PaymentRetryBase, row.FailedPayment = nil, nil, nil
	if err := db.WriteSubscription(ctx, account, row); err != nil {
		t.Fatal(err)
	}
	if rm, err := db.SubscriptionReadModel(ctx, account); err != nil || rm.PaymentRetryBase != nil {
		t.Fatalf("read model once paid: %+v (%v), want no base", rm.PaymentRetryBase, err)
	}
}

// TestADisputeBookedBeforeItsPaymentSettledCreditsTheSale: a dispute
// whose opening was booked before its payment settled the invoice (the
// payment's event lost and replayed later) kept no invoice: lost weeks
// later, in the right order, it credited nothing, and the sale and its VAT
// stood in full while the provider had the money back. Its invoice is now
// the one the payment settled, found when it settles or when the dispute
// closes; and a dispute lost before the payment settled gets its credit
// note when it does (as refunds booked first do).
func TestADisputeBookedBeforeItsPaymentSettledCreditsTheSale(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	at := time.Now().UTC().Truncate(time.Second)
	for _, lostFirst := range []bool{false, true} {
		account := newAccount(t, db)
		withPaidPlan(t, db, account, true)
		invoiceID := proInvoice(t, db, account, kudos.InvoiceSubscription, kudos.InvoiceProcessing)
		payment := "co_" + uuid.NewString()
		d := kudos.DisputeEvent{ID: "dp_" + uuid.NewString(), Status: kudos.DisputeOpen, Amount: kudos.Money{Amount: 1210, Currency: "EUR"},
			Payment: payment}
		if lostFirst {
			d.Status = kudos.DisputeLost
		}
		if res, err := db.RecordDispute(ctx, account, d, at, store.Booking{}); err != nil || res.InvoiceID != nil {
			t.Fatalf("booked before the payment: %+v (%v), want no invoice yet", res, err)
		}
		if err := db.PayInvoice(ctx, invoiceID, payment); err != nil {
			t.Fatal(err)
		}
		var linked *uuid.UUID
		if err := db.Pool.QueryRow(ctx, `SELECT invoice_id FROM disputes WHERE id = $1`, d.ID).Scan(&linked); err != nil ||
			linked == nil || *linked != invoiceID {
			t.Fatalf("lost first %v: the dispute's invoice %v (%v) once the payment settled it, want %s", lostFirst, linked, err, invoiceID)
		}
		if !lostFirst {
			d.Status = kudos.DisputeLost
			res, err := db.RecordDispute(ctx, account, d, at.Add(time.Hour), store.Booking{})
			if err != nil || !res.Changed || res.InvoiceID == nil || *res.InvoiceID != invoiceID || res.CreditNoteID == nil {
				t.Fatalf("lost after the payment settled: %+v (%v), want its invoice credited", res, err)
			}
		}
		cn, err := db.Invoice(ctx, account, store.DisputeCreditNoteID(d.ID))
		if err != nil || cn.Total != -1210 || cn.Corrects == nil || *cn.Corrects != invoiceID {
			t.Fatalf("lost first %v: credit note %+v (%v), want -12.10 correcting the invoice", lostFirst, cn, err)
		}
	}
}

// TestABookingRunAgainReportsWhatItBooked: a dispute's or a returned
// debit's booking keeps what it did on its payment event. Run again for
// the same event before the event is applied (the workflow marks it with
// the last write of what it does: a run lost in between, or a lost
// report of the booking), it reports the first booking, not "nothing
// changed"; once the event is applied, or for another event of the same
// dispute, it books nothing and says so. A booking that marks its event
// (Mark) is never reported again.
func TestABookingRunAgainReportsWhatItBooked(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	withPaidPlan(t, db, account, true)
	invoiceID := proInvoice(t, db, account, kudos.InvoiceRenewal, kudos.InvoiceProcessing)
	const payment = "renewal:booked:2027-01-01T00:00:00Z"
	if err := db.PayInvoice(ctx, invoiceID, payment); err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Truncate(time.Second)
	storeEvent := func(id string, d *kudos.DisputeEvent, r *kudos.ReturnEvent) {
		ev := kudos.PaymentEvent{EventID: id, Provider: "stripe", AccountID: account, Outcome: kudos.PaymentPaid, OccurredAt: at,
			Dispute: d, Return: r}
		if _, err := db.RecordPaymentEvent(ctx, ev, func(e kudos.PaymentEvent) store.OutboxEntry {
			return store.OutboxEntry{Key: "payment_event:" + e.EventID, Kind: "payment_event", WorkflowID: "subscription:" + account.String(), Payload: e}
		}); err != nil {
			t.Fatal(err)
		}
	}
	lost := kudos.DisputeEvent{ID: "dp_booked", Status: kudos.DisputeLost, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}, Payment: payment}
	storeEvent("evt_lost", &lost, nil)
	storeEvent("evt_lost_again", &lost, nil)
	first, err := db.RecordDispute(ctx, account, lost, at, store.Booking{Event: "evt_lost"})
	if err != nil || !first.Changed || first.Status != kudos.DisputeLost || first.CreditNoteID == nil {
		t.Fatalf("lost: %+v (%v)", first, err)
	}
	again, err := db.RecordDispute(ctx, account, lost, at, store.Booking{Event: "evt_lost"})
	if err != nil || !again.Changed || again.Status != kudos.DisputeLost || again.CreditNoteID == nil || *again.CreditNoteID != *first.CreditNoteID ||
		again.InvoiceID == nil || *again.InvoiceID != invoiceID || again.Kind != first.Kind || again.Plan != first.Plan {
		t.Fatalf("booked again: %+v (%v), want the first booking %+v", again, err, first)
	}
	if res, err := db.RecordDispute(ctx, account, lost, at, store.Booking{Event: "evt_lost_again"}); err != nil || res.Changed {
		t.Fatalf("another event of the decided dispute: %+v (%v), want nothing changed", res, err)
	}
	if err := db.MarkPaymentEventsApplied(ctx, account, []string{"evt_lost"}); err != nil {
		t.Fatal(err)
	}
	if res, err := db.RecordDispute(ctx, account, lost, at, store.Booking{Event: "evt_lost"}); err != nil || res.Changed {
		t.Fatalf("booked again once applied: %+v (%v), want nothing changed", res, err)
	}

	other := proInvoice(t, db, account, kudos.InvoiceRenewal, kudos.InvoiceProcessing)
	const debit = "renewal:booked:2028-01-01T00:00:00Z"
	if err := db.PayInvoice(ctx, other, debit); err != nil {
		t.Fatal(err)
	}
	ret := kudos.ReturnEvent{ID: "py_booked", Payment: debit, Amount: kudos.Money{Amount: 1210, Currency: "EUR"}}
	storeEvent("evt_returned", nil, &ret)
	for i := range 2 {
		inv, err := db.ReturnPayment(ctx, account, ret, at, store.Booking{Event: "evt_returned"})
		if err != nil || inv == nil || inv.ID != other || inv.Status != kudos.InvoiceDue {
			t.Fatalf("returned #%d: %+v (%v), want the invoice due again", i+1, inv, err)
		}
	}
	if inv, err := db.ReturnPayment(ctx, account, ret, at, store.Booking{Event: "evt_returned", Mark: true}); err != nil || inv == nil {
		t.Fatalf("returned a third time, marking: %+v (%v)", inv, err)
	}
	if inv, err := db.ReturnPayment(ctx, account, ret, at, store.Booking{Event: "evt_returned"}); err != nil || inv != nil {
		t.Fatalf("returned once the event is applied: %+v (%v), want nothing", inv, err)
	}
}
