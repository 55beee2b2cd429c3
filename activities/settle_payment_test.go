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

// TestSettlePaymentOnce: a payment settled, its PDF stored and its receipt
// queued by the one local activity of runs since billing-lifecycle 2. The
// object store refuses the first attempt after the settlement committed;
// the retry, and a third run as a replayed task would make, leave one paid
// invoice, one payment event, one PDF and one receipt.
func TestSettlePaymentOnce(t *testing.T) {
	e := newTimelineEnv(t)
	storage := &flakyStorage{failures: 1}
	acts := &activities.Activities{Store: e.db, Payments: e.pay, Prices: prices, UIBase: "http://127.0.0.1:8080", Now: time.Now,
		Storage: storage, QueueMail: func(ctx context.Context, req kudos.MailRequest, _ *kudos.BillingEvent) error {
			return e.db.Enqueue(ctx, dispatch.Mail(req))
		}}
	e.env = activityEnv(acts)

	buy := e.open("co_settle", kudos.CheckoutSubscription, kudos.PlanPro, uuid.New())
	start := time.Now().UTC()
	renewal := start.Add(365 * 24 * time.Hour)
	in := workflows.SettlePaymentInput{
		SettlePaidInput: workflows.SettlePaidInput{AccountID: e.account, CheckoutID: buy.CheckoutID, Purpose: buy.Purpose,
			InvoiceID: buy.InvoiceID, Record: kudos.Subscription{Plan: kudos.PlanPro, ShowStatus: kudos.StatusActive,
				PeriodStartedAt: &start, PlanRenewalAt: &renewal, StartNextPeriod: true}},
		Receipt: &workflows.BillingMailInput{AccountID: e.account, Purpose: kudos.MailPaymentReceipt,
			Key:     e.account.String() + ":receipt:" + buy.InvoiceID.String(),
			Billing: kudos.MailBilling{Plan: kudos.PlanPro, InvoiceID: &buy.InvoiceID, PeriodStart: &start, PeriodEnd: &renewal}},
	}
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
	if err != nil || key == "" || len(storage.objects[key]) == 0 {
		t.Fatalf("PDF key %q (%v), %d objects stored: want the invoice's PDF", key, err, len(storage.objects))
	}
	var n int
	var payload []byte
	if err := e.db.Pool.QueryRow(context.Background(), `SELECT count(*), min(payload::text) FROM outbox WHERE key = $1`,
		"mail:"+in.Receipt.Key).Scan(&n, &payload); err != nil {
		t.Fatal(err)
	}
	var req kudos.MailRequest
	if n != 1 || json.Unmarshal(payload, &req) != nil || req.Purpose != kudos.MailPaymentReceipt || req.Billing == nil ||
		req.Billing.InvoiceNumber != inv.Number || req.Billing.Amount == nil || req.Billing.Amount.Amount != inv.Total {
		t.Fatalf("%d receipts queued (%s), want one with invoice %s and its total %d", n, payload, inv.Number, inv.Total)
	}
	if sub, err := e.db.Subscription(context.Background(), e.account); err != nil || sub.Plan != kudos.PlanPro {
		t.Fatalf("subscription %+v (%v), want PRO", sub, err)
	}
}
