package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"kudos"
)

// TestAReturnedDebitPaidAfterARebuildKeepsThePeriod: the debit of a paid
// plan comes back and its period is being retried (dunning) when the
// account's run is lost. Paying the invoice then, through the run rebuilt
// from the read model, pays the period running now: the renewal date stays
// where it was, never moved a year on (a year given for nothing).
func TestAReturnedDebitPaidAfterARebuildKeepsThePeriod(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(10*time.Minute, 20*time.Minute).withTemporal(time.Hour)
	token, account := h.paidWith("returned-rebuilt@example.com", "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	renewal := h.subscription(token, account)["plan_renewal_at"]
	plan := h.invoiceOfKind(account, "SUBSCRIPTION")

	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": plan}, ""), 200)
	retry := h.inDunning(token, account)["payment_retry_at"]
	if m := h.waitMail("returned-rebuilt@example.com", kudos.MailPaymentFailed); m.Billing == nil || !m.Billing.Returned || m.Billing.Date == nil {
		t.Fatalf("the mail of the returned payment: %+v, want it saying the payment came back and when it is tried again", m.Billing)
	}
	h.terminate(account)

	pay := h.expect(h.do("POST", base+"/invoices/"+plan+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the returned invoice paid", func() bool { return h.subscription(token, account)["payment_retry_at"] == nil })
	if s := h.subscription(token, account); s["plan"] != "STARTER" || s["show_status"] != "active" || s["plan_renewal_at"] != renewal {
		t.Fatalf("after paying the returned invoice (retry was due at %v): %v, want Starter active, renewing on %v", retry, s, renewal)
	}
	h.wantRows("invoices", account, "id = '"+plan+"' AND status = 'PAID'", 1, "%d paid plan invoices, want 1")
	eventually(t, "a receipt of the payment made again", func() bool { return len(h.receiptEnds(plan)) == 2 })
}

// TestADebitReturnedAfterItsPeriodIsOwedAndPayable: the bank takes back
// the debit of a period that has already ended (the plan renewed since).
// Nothing retries it and the plan goes on, but the invoice is due again:
// the customer is told (payment_failed, saying the payment came back, with
// no next attempt) and can pay it from the billing page (POST
// …/invoices/{id}/payment), which settles that invoice and changes nothing
// of the plan: no plan is started, the period runs on, and the account is
// never shown processing. The same through a run rebuilt from the read
// model (before the payment is asked for, and again while its checkout is
// open), which must neither take the owed invoice for an expired plan's due
// invoice nor forget it.
func TestADebitReturnedAfterItsPeriodIsOwedAndPayable(t *testing.T) {
	t.Parallel()
	inBothRuns(t, returnedAfterItsPeriod)
}

// inBothRuns plays play as two parallel subtests: in the account's own run,
// and in a run rebuilt from the read model (rebuilt: play terminates the
// run where it matters).
func inBothRuns(t *testing.T, play func(t *testing.T, rebuilt bool)) {
	for _, rebuilt := range []bool{false, true} {
		name := map[bool]string{false: "same run", true: "run rebuilt from the read model"}[rebuilt]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			play(t, rebuilt)
		})
	}
}

// returnedAfterItsPeriod plays TestADebitReturnedAfterItsPeriodIsOwedAndPayable.
func returnedAfterItsPeriod(t *testing.T, rebuilt bool) {
	h := newHarness(t).withTemporal(8 * time.Second)
	email := fmt.Sprintf("returned-owed-%v@example.com", rebuilt)
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	first := h.invoiceOfKind(account, "SUBSCRIPTION")
	eventually(t, "the first renewal", func() bool { return h.count("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'") > 0 })

	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": first}, ""), 200)
	eventually(t, "the returned invoice due", func() bool {
		return h.count("invoices", account, "id = '"+first+"' AND status = 'DUE_PAYMENT'") == 1
	})
	if m := h.waitMail(email, kudos.MailPaymentFailed); m.Billing == nil || !m.Billing.Returned || m.Billing.InvoiceID == nil ||
		m.Billing.InvoiceID.String() != first || m.Billing.Date != nil {
		t.Fatalf("the mail of the returned payment: %+v, want it returned, naming the invoice, with no next attempt", m.Billing)
	}
	if rebuilt {
		h.terminate(account)
	}

	pay := h.expect(h.do("POST", base+"/invoices/"+first+"/payment", nil, token), 201)
	// Paying a debt changes no plan: the account is not "processing" (whose
	// overlay would block the dashboard, every member's) while the page is
	// open, and a run rebuilt then still knows the invoice is owed, not an
	// expired plan's.
	if s := h.subscription(token, account); s["show_status"] != "active" {
		t.Fatalf("while the owed invoice's checkout is open: %v, want the plan active", s)
	}
	// And the customer comes back to the invoices, where it shows paid, not
	// to the plan (whose page welcomes a plan bought).
	var back string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT success_url FROM sandbox_checkouts WHERE account_id = $1
		ORDER BY created_at DESC LIMIT 1`, account).Scan(&back); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(back, "/dashboard/"+account+"/billing/invoices?checkout=success") {
		t.Fatalf("the owed invoice's checkout sends the customer back to %s, want the invoices", back)
	}
	if rebuilt {
		h.terminate(account)
	}
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the returned invoice paid", func() bool {
		return h.count("invoices", account, "id = '"+first+"' AND status = 'PAID'") == 1
	})
	if s := h.subscription(token, account); s["plan"] != "STARTER" || s["show_status"] != "active" {
		t.Fatalf("after paying the returned invoice: %v, want Starter active", s)
	}
	h.wantRows("billing_events", account, "type = 'plan_started'", 1, "%d plans started, want the first only: paying an old period's invoice starts none")
	var serviceTo time.Time
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT service_to FROM invoices WHERE id = $1`, first).Scan(&serviceTo); err != nil {
		t.Fatal(err)
	}
	// Its own receipt, naming the period it paid (the first receipt of the
	// invoice was sent when it was first paid).
	eventually(t, "its receipt", func() bool { return len(h.receiptEnds(first)) == 2 })
	if ends := h.receiptEnds(first); !ends[1].Equal(serviceTo) {
		t.Fatalf("the receipt of the returned invoice paid names the period to %v, want the one it paid, to %v", ends[1], serviceTo)
	}
}

// receiptEnds are the period ends of the receipts queued for invoice, oldest
// first.
func (h *harness) receiptEnds(invoice string) []time.Time {
	h.t.Helper()
	rows, err := h.db.Pool.Query(context.Background(), `SELECT (payload->'billing'->>'period_end')::timestamptz FROM outbox
		WHERE kind = 'mail' AND payload->>'purpose' = 'payment_receipt' AND payload->'billing'->>'invoice_id' = $1 ORDER BY id`, invoice)
	if err != nil {
		h.t.Fatal(err)
	}
	ends, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		h.t.Fatal(err)
	}
	return ends
}

// TestAnOwedInvoiceOfASmallerPlanIsPayable: a Starter year's debit comes
// back after the account renewed, moved up to Pro and took a second
// member. Paying that owed invoice changes no plan, so the team's size
// (too big for Starter) does not refuse it: 201, and the invoice is paid.
func TestAnOwedInvoiceOfASmallerPlanIsPayable(t *testing.T) {
	t.Parallel()
	// A year long enough for the upgrade, the member and the return to
	// happen within the second one, even on a busy machine.
	const year = 30 * time.Second
	h := newHarness(t).withTemporal(year)
	email := "owed-smaller-plan@example.com"
	token, account := h.paidWith(email, "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	first := h.invoiceOfKind(account, "SUBSCRIPTION")
	eventuallyWithin(t, year+30*time.Second, "the first renewal", func() bool {
		return h.count("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'") > 0
	})
	up := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	h.expect(h.sandbox(up.str("checkout_href"), "pay"), 200)
	eventually(t, "Pro", func() bool { return h.subscription(token, account)["plan"] == "PRO" })
	h.join(token, account, "second-member@example.com", "member")

	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": first}, ""), 200)
	h.waitMail(email, kudos.MailPaymentFailed)
	pay := h.expect(h.do("POST", base+"/invoices/"+first+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the owed invoice paid", func() bool { return h.count("invoices", account, "id = '"+first+"' AND status = 'PAID'") == 1 })
	if s := h.subscription(token, account); s["plan"] != "PRO" || s["show_status"] != "active" {
		t.Fatalf("after paying the owed Starter invoice: %v, want Pro active", s)
	}
	// The run of the second year: the return held as owed (returned-owed),
	// its checkout (the account not shown processing) and its payment.
	h.recordHistory("subscription:"+account, "", "subscription_owed_invoice_paid.json")
}
