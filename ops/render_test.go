package ops_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/ops"
	"kudos/store"
)

// TestTextReportOfARenewalInDunning: a renewal being retried shows in the
// read model's section and in the workflow state's, with its amount and
// next attempt.
func TestTextReportOfARenewalInDunning(t *testing.T) {
	retry := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	renewal := retry.Add(-72 * time.Hour)
	inv := uuid.New()
	amount := kudos.Money{Amount: 56628, Currency: "EUR"}
	r := &ops.Report{
		Account: &store.OpsAccount{ID: uuid.New(), Name: "Dunned", Subscription: &kudos.Subscription{Plan: kudos.PlanPro,
			ShowStatus: kudos.StatusActive, PaymentRetryAt: &retry, FailedPayment: &kudos.FailedPayment{InvoiceID: inv, Amount: amount}}},
		State: &kudos.SubscriptionState{Plan: kudos.PlanPro, Status: kudos.StatusActive,
			Dunning: &kudos.Dunning{PeriodStart: renewal, InvoiceID: inv, Amount: amount, Attempts: 2, RetryAt: retry}},
	}
	var out bytes.Buffer
	if err := ops.WriteText(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"renewal payment failing: invoice " + inv.String() + ", 566.28 EUR, next attempt 2026-12-01 09:00:00Z",
		"dunning: renewal of 2026-11-28 09:00:00Z", "2 failed attempt(s), next retry 2026-12-01 09:00:00Z"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTextReportOfAPendingDeletion: a scheduled deletion shows with its date
// and workflow, an erased account as deleted.
func TestTextReportOfAPendingDeletion(t *testing.T) {
	at := time.Date(2026, 12, 26, 9, 0, 0, 0, time.UTC)
	id := uuid.New()
	var out bytes.Buffer
	if err := ops.WriteText(&out, &ops.Report{Account: &store.OpsAccount{ID: id, Name: "Leaving", DeletionAt: &at}}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("DELETION SCHEDULED for 2026-12-26 09:00:00Z (workflow deletion:account:%s:%d", id, at.Unix())
	if !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	out.Reset()
	if err := ops.WriteText(&out, &ops.Report{Account: &store.OpsAccount{ID: id, Name: "Deleted account", DeletedAt: &at}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "DELETED 2026-12-26 09:00:00Z") {
		t.Errorf("report of an erased account:\n%s", out.String())
	}
}

// TestTextReportOfABlockedUserDeletion (issue 35 item 8): a member whose
// own deletion is scheduled shows it with its workflow, and one whose
// erasure waits because they own an account says so and what to do.
func TestTextReportOfABlockedUserDeletion(t *testing.T) {
	at := time.Date(2026, 12, 26, 9, 0, 0, 0, time.UTC)
	leaving, owner := uuid.New(), uuid.New()
	blocker := "Acme"
	var out bytes.Buffer
	if err := ops.WriteText(&out, &ops.Report{Account: &store.OpsAccount{ID: uuid.New(), Name: "Acme", Members: []store.OpsMember{
		{UserID: owner, Email: "owner@example.com", Role: "owner", DeletionAt: &at, DeletionBlockedBy: &blocker},
		{UserID: leaving, Email: "leaving@example.com", Role: "member", DeletionAt: &at},
	}}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("user deletion scheduled for 2026-12-26 09:00:00Z (workflow deletion:user:%s:%d)", leaving, at.Unix()),
		fmt.Sprintf("user deletion BLOCKED, due 2026-12-26 09:00:00Z (workflow deletion:user:%s:%d): they own \"Acme\"", owner, at.Unix()),
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTextReportOfADispute (issue 36 item 3): an open dispute shows in the
// workflow's section (DisputeOpen, the state's open disputes), a lost one
// under DISPUTES with its credit note, and their events as what they say.
func TestTextReportOfADispute(t *testing.T) {
	opened := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	closed := opened.Add(48 * time.Hour)
	inv, cn, owed := uuid.New(), uuid.New(), uuid.New()
	open := true
	r := &ops.Report{
		Account: &store.OpsAccount{ID: uuid.New(), Name: "Disputed",
			Disputes: []store.OpsDispute{{ID: "dp_2", InvoiceID: &inv, Payment: "co_2", Amount: 21780, Currency: "EUR", Status: "lost",
				Reason: "fraudulent", OpenedAt: opened, ClosedAt: &closed, CreditNoteID: &cn}},
			Events: []store.OpsPaymentEvent{{EventID: "evt_1", Provider: "stripe", Ledger: "dispute open dp_1", OccurredAt: opened, ReceivedAt: opened}}},
		Subscription: &ops.Workflow{ID: "subscription:x", Status: "Running", DisputeOpen: &open},
		State: &kudos.SubscriptionState{Plan: kudos.PlanPro, Status: kudos.StatusActive,
			Disputes: []kudos.OpenDispute{{ID: "dp_1", InvoiceID: inv, Amount: kudos.Money{Amount: 21780, Currency: "EUR"}, OpenedAt: opened}},
			Owed:     []kudos.OwedInvoice{{ID: owed, Plan: kudos.PlanStarter}},
			Checkout: &kudos.OpenCheckout{ID: "co_3", Purpose: kudos.CheckoutInvoice, Plan: kudos.PlanPro, InvoiceID: owed, ExpiresAt: closed}},
	}
	var out bytes.Buffer
	if err := ops.WriteText(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DisputeOpen true", "dispute open: dp_1 of invoice " + inv.String() + " (217.80 EUR) since 2026-12-01 09:00:00Z",
		"DISPUTES", "dp_2", "payment co_2", "LOST", "closed 2026-12-03 09:00:00Z", "credit note " + cn.String(), "dispute open dp_1",
		"owed invoice " + owed.String() + " (STARTER): its debit came back", "it pays owed invoice " + owed.String()} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTextReportOfFailedRefundsRepaid: a failed refund shows what it still
// owes; one that refunds made again repaid in full is owed no more, and the
// report does not ask for it to be refunded again.
func TestTextReportOfFailedRefundsRepaid(t *testing.T) {
	failed := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	repaysA, repaysB := "ops-refund:a", "ops-refund:b"
	r := &ops.Report{Account: &store.OpsAccount{ID: uuid.New(), Name: "Repaid", Refunds: []store.OpsRefund{
		{ID: "ops-refund:b:2", CheckoutID: "co_2", Amount: 600, Currency: "EUR", Status: "refunded", Repays: &repaysB},
		{ID: "ops-refund:b", CheckoutID: "co_2", Amount: 1000, Currency: "EUR", Status: "failed", FailedAt: &failed, FailureReason: "lost", Owed: 400},
		{ID: "ops-refund:a:2", CheckoutID: "co_1", Amount: 1000, Currency: "EUR", Status: "refunded", Repays: &repaysA},
		{ID: "ops-refund:a", CheckoutID: "co_1", Amount: 1000, Currency: "EUR", Status: "failed", FailedAt: &failed, FailureReason: "lost"},
		{ID: "ops-refund:c:2", CheckoutID: "co_3", Amount: 1210, Currency: "EUR", Status: "failed", FailedAt: &failed, FailureReason: "lost",
			Repays: &repaysA, Owed: 210},
	}}}
	var out bytes.Buffer
	if err := ops.WriteText(&out, r); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	if a := lines["ops-refund:a"]; !strings.Contains(a, "repaid in full by refunds made again: nothing owed") || strings.Contains(a, "refund again") {
		t.Errorf("the refund repaid in full reads %q", a)
	}
	if c := lines["ops-refund:c:2"]; !strings.Contains(c, "2.10 EUR of its own still owed to the customer (kudos ops refund --failed ops-refund:c:2)") {
		t.Errorf("the failed refund made again with a part of its own reads %q", c)
	}
	if b := lines["ops-refund:b"]; !strings.Contains(b, "4.00 EUR still owed to the customer, refund again (kudos ops refund --failed ops-refund:b)") {
		t.Errorf("the refund repaid in part reads %q", b)
	}
}
