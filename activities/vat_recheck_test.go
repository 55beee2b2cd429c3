package activities_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/activities"
	"kudos/internal/testenv"
	"kudos/store"
	"kudos/workflows"
)

// viesStub answers like VIES: valid, invalid, or unavailable (down), and
// counts the questions.
type viesStub struct {
	mu    sync.Mutex
	valid bool
	down  bool
	asked int
}

func (v *viesStub) Check(context.Context, string, string) (bool, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.asked++
	if v.down {
		return false, fmt.Errorf("%w: the stub is down", kudos.ErrVATCheckUnavailable)
	}
	return v.valid, nil
}

func (v *viesStub) questions() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.asked
}

// recheckEnv is an account whose billing address has a Belgian VAT id
// verified at t0 (reverse charged by a Dutch seller), with the store's and
// the activities' clocks set by at.
type recheckEnv struct {
	db      *store.DB
	account uuid.UUID
	vies    *viesStub
	t0      time.Time
	mu      sync.Mutex
	now     time.Time
	acts    *activities.Activities
}

func newRecheckEnv(t *testing.T) *recheckEnv {
	t.Helper()
	e := &recheckEnv{db: testenv.DB(t), vies: &viesStub{}, t0: time.Now()}
	e.now = e.t0
	clock := func() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }
	e.db.SetClock(clock)
	e.account = newAccount(t, e.db)
	// An id no other test asks about: VIES's kept answers are per id.
	id := fmt.Sprintf("BE0%09d", time.Now().UnixNano()%1_000_000_000)
	if _, err := e.db.SaveBillingAddress(context.Background(), e.account, kudos.BillingAddress{OrganizationName: "Acme BV",
		StreetAndNumber: "Markt 1", PostalCode: "3500", City: "Hasselt", Region: "Limburg", Country: "nl_BE", VATID: id,
		VATIDStatus: kudos.VATIDVerified}, 0); err != nil {
		t.Fatal(err)
	}
	e.acts = &activities.Activities{Store: e.db, Payments: &chargeRecorder{}, Prices: prices, UIBase: "http://127.0.0.1:8080",
		VATChecker: e.vies, Now: clock}
	return e
}

// at sets both clocks to t0 + d.
func (e *recheckEnv) at(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.t0.Add(d)
}

// renew runs ChargeRenewal for invoice and returns the invoice as stored.
func (e *recheckEnv) renew(t *testing.T, invoice uuid.UUID) *kudos.Invoice {
	t.Helper()
	v, err := activityEnv(e.acts).ExecuteActivity(workflows.ActivityChargeRenewal, workflows.RenewalInput{AccountID: e.account,
		Plan: kudos.PlanStarter, InvoiceID: invoice, ChargeID: kudos.RenewalChargeID(e.account, e.now)})
	if err != nil {
		t.Fatalf("ChargeRenewal: %v", err)
	}
	var res workflows.RenewalResult
	if err := v.Get(&res); err != nil || !res.Paid {
		t.Fatalf("renewal %+v (%v): want paid", res, err)
	}
	return e.invoice(t, invoice)
}

func (e *recheckEnv) invoice(t *testing.T, id uuid.UUID) *kudos.Invoice {
	t.Helper()
	inv, err := e.db.Invoice(context.Background(), e.account, id)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func (e *recheckEnv) status(t *testing.T) kudos.VATIDStatus {
	t.Helper()
	a, err := e.db.BillingAddress(context.Background(), e.account)
	if err != nil {
		t.Fatal(err)
	}
	return a.VATIDStatus
}

// told counts the owner's vat_id_checked mails, the timeline's
// vat_id_checked events and the quote_changed news to the subscription
// workflow.
func (e *recheckEnv) told(t *testing.T) (mails, events, news int) {
	t.Helper()
	ctx := context.Background()
	if err := e.db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE kind = 'mail' AND payload->>'purpose' = 'vat_id_checked'
		AND payload->'vat'->>'account_id' = $1`, e.account.String()).Scan(&mails); err != nil {
		t.Fatal(err)
	}
	if err := e.db.Pool.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE account_id = $1 AND type = 'vat_id_checked'`,
		e.account).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if err := e.db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE kind = 'quote_changed' AND key LIKE '%' || $1 || '%'`,
		e.account.String()).Scan(&news); err != nil {
		t.Fatal(err)
	}
	return mails, events, news
}

const day = 24 * time.Hour

// TestARenewalRechecksAStaleVATIDThatIsNoLongerValid: a Belgian VAT id
// VIES verified when the address was saved, deregistered since. The
// renewal 40 days later kept the reverse charge on the old "verified"; an
// accountant (and Stripe Tax) wants the id valid at the supply. The
// renewal asks VIES again (the verification is older than
// kudos.VATRecheckAfter), records the id invalid as the check on save
// would (the owner's vat_id_checked mail, the timeline's event, the news
// to the subscription workflow) and charges Belgian VAT. A retry of the
// activity keeps the invoice as priced and asks nothing again.
func TestARenewalRechecksAStaleVATIDThatIsNoLongerValid(t *testing.T) {
	e := newRecheckEnv(t)
	e.at(40 * day)
	e.vies.valid = false
	invoice := uuid.New()
	inv := e.renew(t, invoice)
	if inv.ReverseCharge || inv.VATRate != kudos.VATRate("nl_BE") || inv.VAT == 0 {
		t.Fatalf("renewal invoice reverse charge %v at %v %% (VAT %d): want Belgian VAT charged", inv.ReverseCharge, inv.VATRate, inv.VAT)
	}
	if s := e.status(t); s != kudos.VATIDInvalid {
		t.Fatalf("VAT id status %s, want invalid", s)
	}
	if mails, events, news := e.told(t); mails != 1 || events != 1 || news != 1 {
		t.Fatalf("%d vat_id_checked mails, %d events, %d quote_changed: want one each", mails, events, news)
	}
	again := e.renew(t, invoice) // the activity retried
	if again.Total != inv.Total || again.ReverseCharge || e.vies.questions() != 1 {
		t.Fatalf("retried: total %d (was %d), reverse charge %v, %d questions to VIES: want the invoice as priced and one question",
			again.Total, inv.Total, again.ReverseCharge, e.vies.questions())
	}
	if mails, events, _ := e.told(t); mails != 1 || events != 1 {
		t.Fatalf("retried: %d mails, %d events, want one each", mails, events)
	}
}

// TestARenewalRechecksAStaleVATIDThatIsStillValid: VIES confirms the id
// again: the reverse charge stands, the verification is fresh (the next
// invoice within kudos.VATRecheckAfter asks nothing) and the owner is told
// nothing.
func TestARenewalRechecksAStaleVATIDThatIsStillValid(t *testing.T) {
	e := newRecheckEnv(t)
	e.at(40 * day)
	e.vies.valid = true
	if inv := e.renew(t, uuid.New()); !inv.ReverseCharge || inv.VAT != 0 {
		t.Fatalf("renewal reverse charge %v, VAT %d: want reverse charged", inv.ReverseCharge, inv.VAT)
	}
	if n := e.vies.questions(); n != 1 {
		t.Fatalf("%d questions to VIES, want 1", n)
	}
	e.at(60 * day) // 20 days after the recheck
	if inv := e.renew(t, uuid.New()); !inv.ReverseCharge || e.vies.questions() != 1 {
		t.Fatalf("a renewal 20 days after the recheck: reverse charge %v, %d questions: want reverse charged, none asked",
			inv.ReverseCharge, e.vies.questions())
	}
	if s := e.status(t); s != kudos.VATIDVerified {
		t.Fatalf("status %s, want verified", s)
	}
	if mails, events, news := e.told(t); mails != 0 || events != 0 || news != 0 {
		t.Fatalf("%d mails, %d events, %d quote_changed: want none", mails, events, news)
	}
}

// TestARenewalKeepsTheVerificationWhenVIESIsDown: VIES does not answer:
// the renewal is neither blocked nor failed, the last verification stands
// (reverse charged), and the next invoice asks again.
func TestARenewalKeepsTheVerificationWhenVIESIsDown(t *testing.T) {
	e := newRecheckEnv(t)
	e.at(40 * day)
	e.vies.down = true
	if inv := e.renew(t, uuid.New()); !inv.ReverseCharge {
		t.Fatal("renewal with VIES down: want the reverse charge of the last verification")
	}
	if s := e.status(t); s != kudos.VATIDVerified || e.vies.questions() != 1 {
		t.Fatalf("status %s, %d questions: want verified, one asked", s, e.vies.questions())
	}
	e.at(41 * day)
	e.vies.down, e.vies.valid = false, false
	if inv := e.renew(t, uuid.New()); inv.ReverseCharge || e.vies.questions() != 2 {
		t.Fatalf("the next invoice: reverse charge %v, %d questions: want asked again and VAT charged", inv.ReverseCharge, e.vies.questions())
	}
}

// TestAFreshVerificationIsNotAskedAgain: within kudos.VATRecheckAfter of
// the verification (also after saving the same verified id again, which
// keeps its time) the renewal asks VIES nothing.
func TestAFreshVerificationIsNotAskedAgain(t *testing.T) {
	e := newRecheckEnv(t)
	e.at(20 * day)
	a, err := e.db.BillingAddress(context.Background(), e.account)
	if err != nil {
		t.Fatal(err)
	}
	a.City = "Genk"
	if _, err := e.db.SaveBillingAddress(context.Background(), e.account, *a, a.Version); err != nil {
		t.Fatal(err)
	}
	e.at(25 * day)
	if inv := e.renew(t, uuid.New()); !inv.ReverseCharge || e.vies.questions() != 0 {
		t.Fatalf("reverse charge %v, %d questions: want reverse charged, none asked", inv.ReverseCharge, e.vies.questions())
	}
	e.at(35 * day) // 35 days after the verification, 15 after the save that kept it
	e.vies.valid = false
	if inv := e.renew(t, uuid.New()); inv.ReverseCharge || e.vies.questions() != 1 {
		t.Fatalf("35 days on: reverse charge %v, %d questions: want asked and VAT charged", inv.ReverseCharge, e.vies.questions())
	}
}

// TestADueInvoiceRechecksAStaleVATID: the due invoice a plan stopped at
// its renewal (or after a lost dispute) is priced off-session too: a stale
// verification is asked again, and an id VIES no longer knows pays VAT.
func TestADueInvoiceRechecksAStaleVATID(t *testing.T) {
	e := newRecheckEnv(t)
	e.at(400 * day)
	e.vies.valid = false
	invoice := uuid.New()
	if _, err := activityEnv(e.acts).ExecuteActivity(workflows.ActivityCreateDueInvoice, workflows.DueInvoiceInput{AccountID: e.account,
		Plan: kudos.PlanStarter, InvoiceID: invoice}); err != nil {
		t.Fatalf("CreateDueInvoice: %v", err)
	}
	if inv := e.invoice(t, invoice); inv.ReverseCharge || inv.VAT == 0 || inv.Status != kudos.InvoiceDue {
		t.Fatalf("due invoice reverse charge %v, VAT %d, %s: want VAT charged, due", inv.ReverseCharge, inv.VAT, inv.Status)
	}
	if s := e.status(t); s != kudos.VATIDInvalid || e.vies.questions() != 1 {
		t.Fatalf("status %s, %d questions: want invalid after one", s, e.vies.questions())
	}
}

// TestACheckOnSaveDatesTheVerification: an id VIES confirmed only by the
// check's workflow (pending at the save) is verified from that answer: a
// renewal 20 days later asks nothing.
func TestACheckOnSaveDatesTheVerification(t *testing.T) {
	e := newRecheckEnv(t)
	ctx := context.Background()
	a, err := e.db.BillingAddress(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	a.VATIDStatus = kudos.VATIDPending
	saved, err := e.db.SaveBillingAddress(ctx, e.account, *a, a.Version)
	if err != nil {
		t.Fatal(err)
	}
	e.at(day)
	if _, err := activityEnv(e.acts).ExecuteActivity(workflows.ActivityRecordVATCheck, workflows.RecordVATCheckInput{
		VATCheckInput: workflows.VATCheckInput{AccountID: e.account, Country: saved.Country, VATID: saved.VATID, Version: saved.Version},
		Status:        kudos.VATIDVerified}); err != nil {
		t.Fatalf("RecordVATCheck: %v", err)
	}
	e.at(21 * day)
	if inv := e.renew(t, uuid.New()); !inv.ReverseCharge || e.vies.questions() != 0 {
		t.Fatalf("reverse charge %v, %d questions: want reverse charged, none asked", inv.ReverseCharge, e.vies.questions())
	}
}
