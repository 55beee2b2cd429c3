package workflows_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// ledgerBook is the fake store of disputes and returned payments: it books
// as store.DB.RecordDispute and ReturnPayment do (a dispute opened once,
// closed once; a payment returned once).
type ledgerBook struct {
	mu       sync.Mutex
	disputes map[string]kudos.DisputeStatus
	returned map[string]bool
	booked   []string // what was booked, in order: "open:dp_1", "lost:dp_1", "returned:pay_1"
}

// disputedInvoice is the invoice the fake payments paid, of the period
// running in paidState.
var disputedInvoice = uuid.MustParse("22222222-2222-2222-2222-222222222222")

// creditNote is the credit note the fake books for a lost dispute.
var creditNote = uuid.MustParse("33333333-3333-3333-3333-333333333333")

var book ledgerBook

// bookedApplied notes event applied by a booking (runs from before the
// change "ledger-applied-last"; "" : none, the workflow marks it later).
func (f *fakeActivities) bookedApplied(event string) {
	if event == "" {
		return
	}
	f.mu.Lock()
	f.applied = append(f.applied, event)
	f.mu.Unlock()
}

func (f *fakeActivities) RecordDispute(_ context.Context, in workflows.DisputeInput) (kudos.DisputeApplied, error) {
	book.mu.Lock()
	defer book.mu.Unlock()
	if book.disputes == nil {
		book.disputes = map[string]kudos.DisputeStatus{}
	}
	service := &kudos.ServicePeriod{From: start.Add(-24 * time.Hour), To: start.Add(100 * 24 * time.Hour)}
	out := kudos.DisputeApplied{InvoiceID: &disputedInvoice, OpenedAt: in.At, Service: service}
	status, ok := book.disputes[in.Dispute.ID]
	if !ok {
		status, out.Changed = kudos.DisputeOpen, true
		book.booked = append(book.booked, "open:"+in.Dispute.ID)
	}
	if status == kudos.DisputeOpen && in.Dispute.Status.Closed() {
		status, out.Changed = in.Dispute.Status, true
		book.booked = append(book.booked, string(status)+":"+in.Dispute.ID)
		if status == kudos.DisputeLost {
			out.CreditNoteID = &creditNote
		}
	}
	book.disputes[in.Dispute.ID], out.Status = status, status
	f.bookedApplied(in.AppliedEvent)
	return out, nil
}

func (f *fakeActivities) ReturnPayment(_ context.Context, in workflows.ReturnInput) (workflows.ReturnResult, error) {
	book.mu.Lock()
	defer book.mu.Unlock()
	if book.returned == nil {
		book.returned = map[string]bool{}
	}
	f.bookedApplied(in.AppliedEvent)
	if book.returned[in.Return.Payment] {
		return workflows.ReturnResult{}, nil
	}
	book.returned[in.Return.Payment] = true
	book.booked = append(book.booked, "returned:"+in.Return.Payment)
	return workflows.ReturnResult{InvoiceID: &disputedInvoice, Amount: kudos.Money{Amount: 21780, Currency: "EUR"},
		Service: &kudos.ServicePeriod{From: start.Add(-24 * time.Hour), To: start.Add(100 * 24 * time.Hour)}}, nil
}

// sendLedgerEvent delivers a dispute's or a returned debit's event as the
// relay does (an update).
func (e *subEnv) sendLedgerEvent(ev kudos.PaymentEvent) {
	e.UpdateWorkflow(workflows.UpdatePaymentEvent, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {}, OnReject: func(err error) { e.t.Errorf("event %s rejected: %v", ev.EventID, err) },
		OnComplete: func(_ any, err error) {
			if err != nil {
				e.t.Errorf("event %s failed: %v", ev.EventID, err)
			}
		},
	}, ev)
}

func disputeEvent(eventID, disputeID string, status kudos.DisputeStatus) kudos.PaymentEvent {
	return kudos.PaymentEvent{EventID: eventID, Provider: "sandbox", Dispute: &kudos.DisputeEvent{ID: disputeID, Status: status,
		Amount: kudos.Money{Amount: 21780, Currency: "EUR"}, Payment: "co_paid"}}
}

// paidForDisputes is a Pro plan paid on start-24h, renewing in 100 days.
func paidForDisputes() kudos.SubscriptionState {
	s := paidState(kudos.PlanPro, 100*24*time.Hour)
	began := start.Add(-24 * time.Hour)
	s.PeriodStartedAt = &began
	return s
}

// TestADisputeOpenedThenWonChangesNothing (issue 36 item 3): an opened
// dispute is booked once (a repeated delivery and a second event of the
// same dispute book nothing) and held in the state (the query shows it);
// won, it leaves the state: the plan is as it was, nothing is billed, no
// mail goes out.
func TestADisputeOpenedThenWonChangesNothing(t *testing.T) {
	book = ledgerBook{}
	e := newSubEnv(t)
	e.at(time.Hour, func() {
		e.sendLedgerEvent(disputeEvent("evt_open", "dp_1", kudos.DisputeOpen))
		e.sendLedgerEvent(disputeEvent("evt_open", "dp_1", kudos.DisputeOpen))    // redelivered
		e.sendLedgerEvent(disputeEvent("evt_updated", "dp_1", kudos.DisputeOpen)) // another event, same dispute
	})
	e.at(2*time.Hour, func() {
		s := e.state()
		if len(s.Disputes) != 1 || s.Disputes[0].ID != "dp_1" || s.Disputes[0].InvoiceID != disputedInvoice {
			t.Errorf("open disputes %+v", s.Disputes)
		}
		e.sendLedgerEvent(disputeEvent("evt_won", "dp_1", kudos.DisputeWon))
	})
	e.at(3*time.Hour, func() {
		s := e.state()
		if len(s.Disputes) != 0 || s.Plan != kudos.PlanPro || s.Status != kudos.StatusActive || s.Due != nil || s.Dunning != nil {
			t.Errorf("after a won dispute: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidForDisputes())
	if want := []string{"open:dp_1", "won:dp_1"}; !slices.Equal(book.booked, want) {
		t.Fatalf("booked %v, want %v", book.booked, want)
	}
	if len(e.acts.dues) != 0 || len(e.acts.mails) != 0 || len(e.acts.renewals) != 0 {
		t.Fatalf("a won dispute billed %v, mailed %v, charged %v", e.acts.dues, e.acts.mails, e.acts.renewals)
	}
}

// TestADisputeLostLeavesThePeriodUnpaid (issue 36 item 3): a lost dispute
// of the payment of the running period: the credit note's PDF is rendered,
// the plan expires with a new DUE_PAYMENT invoice of its plan (rendered),
// and the customer is mailed plan_expired; nothing is charged again. A
// late "open" event of the decided dispute changes nothing.
func TestADisputeLostLeavesThePeriodUnpaid(t *testing.T) {
	book = ledgerBook{}
	e := newSubEnv(t)
	e.at(time.Hour, func() {
		e.sendLedgerEvent(disputeEvent("evt_open", "dp_2", kudos.DisputeOpen))
		e.sendLedgerEvent(disputeEvent("evt_lost", "dp_2", kudos.DisputeLost))
		e.sendLedgerEvent(disputeEvent("evt_late_open", "dp_2", kudos.DisputeOpen))
	})
	e.at(2*time.Hour, func() {
		s := e.state()
		if s.Status != kudos.StatusPlanExpired || s.Due == nil || s.Due.Plan != kudos.PlanPro || len(s.Disputes) != 0 {
			t.Errorf("after a lost dispute: %+v", s)
		}
		e.CancelWorkflow()
	})
	e.ExecuteWorkflow(workflows.Subscription, paidForDisputes())
	if want := []string{"open:dp_2", "lost:dp_2"}; !slices.Equal(book.booked, want) {
		t.Fatalf("booked %v, want %v", book.booked, want)
	}
	if len(e.acts.dues) != 1 || len(e.acts.renewals) != 0 {
		t.Fatalf("due invoices %+v, charges %+v", e.acts.dues, e.acts.renewals)
	}
	var pdfs []uuid.UUID
	for _, p := range e.acts.pdfs {
		pdfs = append(pdfs, p.InvoiceID)
	}
	if !slices.Equal(pdfs, []uuid.UUID{creditNote, e.acts.dues[0].InvoiceID}) {
		t.Fatalf("PDFs %v: want the credit note's and the due invoice's", pdfs)
	}
	if len(e.acts.mails) != 1 || e.acts.mails[0].Purpose != kudos.MailPlanExpired {
		t.Fatalf("mails %+v", e.acts.mails)
	}
	if want := []string{"evt_open", "evt_lost", "evt_late_open"}; !slices.Equal(e.acts.applied, want) {
		t.Fatalf("applied %v, want %v", e.acts.applied, want)
	}
}

// TestAReturnedDebitStartsDunning (issue 36 item 3): a payment returned by
// the bank after it succeeded is a failed payment of its invoice: dunning
// starts on it, measured from the return (the first retry on the
// schedule's first slot after it), the customer is mailed payment_failed,
// and the retry that is paid ends dunning with the period keeping its
// dates (a fresh run). A second return of the same payment does nothing.
func TestAReturnedDebitStartsDunning(t *testing.T) {
	book = ledgerBook{}
	e := newSubEnv(t)
	e.acts.lifecycle = dunningOnly
	e.acts.renewalResults = []workflows.RenewalResult{{Paid: true}}
	ret := func(id string) kudos.PaymentEvent {
		return kudos.PaymentEvent{EventID: id, Provider: "sandbox", Return: &kudos.ReturnEvent{ID: "py_1", Payment: "co_paid",
			Amount: kudos.Money{Amount: 21780, Currency: "EUR"}, Reason: "insufficient_funds"}}
	}
	e.at(time.Hour, func() {
		e.sendLedgerEvent(ret("evt_return"))
		e.sendLedgerEvent(ret("evt_return_again"))
	})
	e.at(2*time.Hour, func() {
		s := e.state()
		d := s.Dunning
		if d == nil || d.InvoiceID != disputedInvoice || !d.RetryAt.Equal(start.Add(time.Hour+72*time.Hour)) || s.Status != kudos.StatusActive {
			t.Errorf("after the return: %+v (dunning %+v)", s, d)
		}
		if len(e.acts.mails) != 1 || e.acts.mails[0].Purpose != kudos.MailPaymentFailed {
			t.Errorf("mails %+v", e.acts.mails)
		}
	})
	e.ExecuteWorkflow(workflows.Subscription, paidForDisputes())
	next := e.nextRun()
	if len(e.acts.renewals) != 1 || e.acts.renewals[0].InvoiceID != disputedInvoice {
		t.Fatalf("charges %+v", e.acts.renewals)
	}
	if next.Dunning != nil || next.Status != kudos.StatusActive || !next.PeriodStartedAt.Equal(start.Add(-24*time.Hour)) {
		t.Fatalf("after the paid retry: %+v", next)
	}
	if want := []string{"returned:co_paid"}; !slices.Equal(book.booked, want) {
		t.Fatalf("booked %v", book.booked)
	}
}
