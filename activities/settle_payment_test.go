package activities_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/activities"
	"kudos/dispatch"
	"kudos/invoicepdf"
	"kudos/workflows"
)

// flakyStorage keeps objects in memory and refuses the first failures puts
// (the object store away for a moment).
type flakyStorage struct {
	kudos.ObjectStorage
	mu       sync.Mutex
	failures int
	objects  map[string][]byte
}

func (s *flakyStorage) Put(_ context.Context, key string, body []byte, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failures > 0 {
		s.failures--
		return kudos.Errorf(kudos.EUnavailable, "object storage unavailable")
	}
	if s.objects == nil {
		s.objects = map[string][]byte{}
	}
	s.objects[key] = body
	return nil
}

// newSettleEnv is a timeline whose activities store PDFs in memory (the
// first failures puts refused) and queue mails in the outbox.
func newSettleEnv(t *testing.T, failures int) (*timelineEnv, *flakyStorage) {
	e := newTimelineEnv(t)
	storage := &flakyStorage{failures: failures}
	acts := &activities.Activities{Store: e.db, Payments: e.pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now,
		Storage: storage, QueueMail: func(ctx context.Context, req kudos.MailRequest, _ *kudos.BillingEvent) error {
			return e.db.Enqueue(ctx, dispatch.Mail(req))
		}}
	e.env = activityEnv(acts)
	return e, storage
}

// proPayment is the settlement of checkout buy paying a year of Pro from
// now, with its receipt.
func (e *timelineEnv) proPayment(buy workflows.OpenCheckoutInput) workflows.SettlePaymentInput {
	start := time.Now().UTC()
	renewal := start.Add(365 * 24 * time.Hour)
	return workflows.SettlePaymentInput{
		SettlePaidInput: workflows.SettlePaidInput{AccountID: e.account, CheckoutID: buy.CheckoutID, Purpose: buy.Purpose,
			InvoiceID: buy.InvoiceID, Record: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive,
				PeriodStartedAt: &start, PlanRenewalAt: &renewal, StartNextPeriod: true}},
		Receipt: &workflows.BillingMailInput{AccountID: e.account, Purpose: kudos.MailPaymentReceipt,
			Key:     e.account.String() + ":receipt:" + buy.InvoiceID.String(),
			Billing: kudos.MailBilling{Plan: kudos.PlanPro, InvoiceID: &buy.InvoiceID, PeriodStart: &start, PeriodEnd: &renewal}},
	}
}

// TestSettlePaymentOnce: a payment settled, its PDF stored and its receipt
// queued by the one local activity of runs since billing-lifecycle 2. The
// object store refuses the first attempt after the settlement committed;
// the retry, and a third run as a replayed task would make, leave one paid
// invoice, one payment event, one PDF and one receipt.
func TestSettlePaymentOnce(t *testing.T) {
	e, storage := newSettleEnv(t, 1)

	buy := e.open("co_settle", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	in := e.proPayment(buy)
	if _, err := e.env.ExecuteActivity(workflows.ActivitySettlePayment, in); err == nil {
		t.Fatal("the object store refused the PDF, yet the activity succeeded (nothing would retry the PDF)")
	}
	// Settled already, no receipt yet: the receipt is queued after the PDF.
	if inv, err := e.db.Invoice(context.Background(), e.account, buy.InvoiceID); err != nil || inv.Status != kudos.InvoicePaid {
		t.Fatalf("after the first attempt the invoice is %+v (%v), want PAID", inv, err)
	}
	e.twice(workflows.ActivitySettlePayment, in)

	e.paid(e.once(kudos.EventPaymentSucceeded), buy.InvoiceID)
	e.once(kudos.EventPlanStarted)
	inv, err := e.db.Invoice(context.Background(), e.account, buy.InvoiceID)
	if err != nil || inv.Status != kudos.InvoicePaid || inv.Number == "" {
		t.Fatalf("invoice %+v (%v), want PAID with a number", inv, err)
	}
	key, err := e.db.InvoicePDF(context.Background(), e.account, buy.InvoiceID)
	if err != nil || key != invoicepdf.Key(e.account, inv.Number) || len(storage.objects[key]) == 0 {
		t.Fatalf("PDF key %q (%v), %d objects stored: want the invoice's PDF", key, err, len(storage.objects))
	}
	var n int
	var payload []byte
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*), min(payload::text) FROM outbox WHERE key = $1`,
		"mail:"+in.Receipt.Key).Scan(&n, &payload); err != nil {
		t.Fatal(err)
	}
	var req kudos.MailRequest
	if n != 1 || json.Unmarshal(payload, &req) != nil || req.Purpose != kudos.MailPaymentReceipt || req.To == "" || req.Billing == nil ||
		req.Billing.InvoiceNumber != inv.Number || req.Billing.Amount == nil || req.Billing.Amount.Amount != inv.Total {
		t.Fatalf("%d receipts queued (%s), want one with invoice %s and its total %d", n, payload, inv.Number, inv.Total)
	}
	if sub, err := e.db.Subscription(context.Background(), e.account); err != nil || sub.Plan != kudos.PlanPro {
		t.Fatalf("subscription %+v (%v), want PRO", sub, err)
	}
}

// TestSettlePaymentBillsADroppedInvoiceAgain: a checkout closed (its draft
// invoice dropped), then its payment arrived. Settling it twice bills the
// invoice again at the checkout's price, once: PAID and numbered, one
// payment event, its PDF stored and its receipt queued.
func TestSettlePaymentBillsADroppedInvoiceAgain(t *testing.T) {
	e, storage := newSettleEnv(t, 0)

	buy := e.open("co_late", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	draft, err := e.db.Invoice(context.Background(), e.account, buy.InvoiceID)
	if err != nil {
		t.Fatal(err)
	}
	e.twice(workflows.ActivityCloseCheckout, workflows.CloseCheckoutInput{AccountID: e.account, CheckoutID: buy.CheckoutID,
		ProviderID: "cs_" + buy.CheckoutID, Purpose: buy.Purpose, InvoiceID: buy.InvoiceID, Outcome: kudos.PaymentExpired})
	if _, err := e.db.Invoice(context.Background(), e.account, buy.InvoiceID); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the closed checkout's draft invoice is still there (%v)", err)
	}

	e.twice(workflows.ActivitySettlePayment, e.proPayment(buy))

	inv, err := e.db.Invoice(context.Background(), e.account, buy.InvoiceID)
	if err != nil || inv.Status != kudos.InvoicePaid || inv.Number == "" || inv.Total != draft.Total || inv.Currency != draft.Currency {
		t.Fatalf("invoice %+v (%v), want PAID with a number at the checkout's price %d %s", inv, err, draft.Total, draft.Currency)
	}
	e.paid(e.once(kudos.EventPaymentSucceeded), buy.InvoiceID)
	if key, err := e.db.InvoicePDF(context.Background(), e.account, buy.InvoiceID); err != nil || len(storage.objects[key]) == 0 {
		t.Fatalf("PDF key %q (%v): want the invoice's PDF", key, err)
	}
	var receipts int
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'mail' AND key LIKE '%:receipt:' || $1`,
		buy.InvoiceID.String()).Scan(&receipts); err != nil || receipts != 1 {
		t.Fatalf("%d receipts queued (%v), want 1", receipts, err)
	}
}

// Delete forgets an object.
func (s *flakyStorage) Delete(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objects, key)
	return nil
}

// TestAnExportBuiltForAnErasedOwnerIsDeletedAtOnce: an export still being
// built when its account (or user) was erased: the erasure deleted the row
// but knew no file yet, and the ZIP written after it (billing address,
// members, invoices) stayed in storage until the export's expiry, a week.
// Publishing an export that is gone deletes its file at once.
func TestAnExportBuiltForAnErasedOwnerIsDeletedAtOnce(t *testing.T) {
	e := newTimelineEnv(t)
	storage := &flakyStorage{}
	acts := &activities.Activities{Store: e.db, Storage: storage, Now: time.Now}
	const key = "exports/erased/export.zip"
	if err := storage.Put(context.Background(), key, []byte("PK"), "application/zip"); err != nil {
		t.Fatal(err)
	}
	env := activityEnv(acts)
	if _, err := env.ExecuteActivity(acts.PublishExport, workflows.ExportPublish{ExportID: uuid.New(), Key: key, Size: 2,
		ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, ok := storage.objects[key]; ok {
		t.Fatal("the export of an erased account is still in storage")
	}
}
