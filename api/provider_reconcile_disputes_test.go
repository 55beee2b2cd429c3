package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kudos/ops"
	"kudos/payment/sandbox"
)

// The provider reconciliation compares disputes too (issue 36 item 4:
// "payments, refunds, disputes per account"), on a real Temporal and
// Postgres with the sandbox as the provider.

// forgetDisputeEvents drops the sandbox's dispute events from its list of
// events, as Stripe's list forgets events after 30 days while a dispute is
// decided up to 75 days after it opened: the dispute stays in the
// provider's list of disputes, its events are gone.
func (h *harness) forgetDisputeEvents() {
	h.t.Helper()
	if _, err := h.db.Pool.Exec(context.Background(), `DELETE FROM sandbox_events WHERE type LIKE 'charge.dispute.%'`); err != nil {
		h.t.Fatal(err)
	}
}

// TestProviderReconciliationRepairsDisputes: a dispute opened at the
// provider whose event never reached Kudos, and a dispute whose opening
// Kudos booked and whose close (lost) was lost, both past the provider's
// list of events: one reconciliation run finds them in the provider's list
// of disputes and applies each through the webhook's intake, so that the
// subscription workflow books them exactly once (the disputes row, the
// timeline's dispute_opened / dispute_lost, the lost one's credit note). A
// second run changes nothing and reports "no difference". A third dispute,
// whose lost events are still in the provider's list of events, is
// repaired from those events, once: not a second time from the list of
// disputes. What it cannot repair is reported: a dispute Kudos decided that
// the provider says is open (dispute_status: a decision is never
// reopened), a dispute Kudos booked that the provider does not have
// (dispute_unknown), and one whose earlier repair was applied without
// booking it (dispute_missing).
func TestProviderReconciliationRepairsDisputes(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	sb := h.srv.Payments.(*sandbox.Provider)
	openToken, openAccount := h.paidWith("dispute-never-delivered@example.com", "STARTER", "4242424242424242")
	lostToken, lostAccount := h.paidWith("dispute-close-lost@example.com", "STARTER", "4242424242424242")
	_, eventsAccount := h.paidWith("dispute-events-listed@example.com", "STARTER", "4242424242424242")
	openInvoice, lostInvoice, eventsInvoice := h.paidInvoiceID(openAccount), h.paidInvoiceID(lostAccount), h.paidInvoiceID(eventsAccount)

	h.expect(h.dispute(lostAccount, lostInvoice, "open"), 200)
	eventually(t, "the delivered opening booked", func() bool { return h.count("disputes", lostAccount, "status = 'open'") == 1 })
	sb.LoseEvents.Store(true)
	h.expect(h.dispute(openAccount, openInvoice, "open"), 200)
	h.expect(h.dispute(lostAccount, lostInvoice, "lost"), 200)
	h.forgetDisputeEvents()
	h.expect(h.dispute(eventsAccount, eventsInvoice, "open"), 200)
	h.expect(h.dispute(eventsAccount, eventsInvoice, "lost"), 200)
	sb.LoseEvents.Store(false)
	time.Sleep(2 * time.Second)
	if n := h.count("disputes", openAccount, "true"); n != 0 {
		t.Fatalf("%d disputes booked though the opening was lost", n)
	}
	if n := h.count("disputes", lostAccount, "status = 'open'"); n != 1 {
		t.Fatalf("the dispute whose close was lost: %d open", n)
	}

	rep := h.reconcileProvider("reconcile_provider_disputes_repaired.json")
	if len(rep.Repaired) != 4 || rep.Drift != 0 || rep.Disputes != 3 {
		t.Fatalf("first run: %d disputes listed, repaired %v, drift %d %+v; want the opening and the close repaired from the "+
			"list of disputes, the third dispute's two events from the list of events, no drift",
			rep.Disputes, rep.Repaired, rep.Drift, rep.Differences)
	}
	eventually(t, "both disputes booked", func() bool {
		return h.count("disputes", openAccount, "status = 'open' AND invoice_id = '"+openInvoice+"'") == 1 &&
			h.count("disputes", lostAccount, "status = 'lost' AND closed_at IS NOT NULL") == 1 &&
			h.count("disputes", eventsAccount, "status = 'lost' AND closed_at IS NOT NULL") == 1 &&
			h.subscription(lostToken, lostAccount)["show_status"] == "plan_expired"
	})
	eventually(t, "every event applied", func() bool {
		return h.countWhere("payment_events", "applied_at IS NULL AND account_id::text = ANY($1)", []string{openAccount, lostAccount, eventsAccount}) == 0
	})
	exactlyOnce := func(when string) {
		t.Helper()
		for _, c := range []struct{ account, where string }{
			{openAccount, "type = 'dispute_opened'"}, {lostAccount, "type = 'dispute_opened'"}, {lostAccount, "type = 'dispute_lost'"},
			{eventsAccount, "type = 'dispute_opened'"}, {eventsAccount, "type = 'dispute_lost'"},
		} {
			if n := h.count("billing_events", c.account, c.where); n != 1 {
				t.Fatalf("%s: account %s has %d events %s, want 1", when, c.account, n, c.where)
			}
		}
		if n := h.count("billing_events", openAccount, "type IN ('dispute_won', 'dispute_lost')"); n != 0 {
			t.Fatalf("%s: the open dispute was closed %d times", when, n)
		}
		for _, account := range []string{lostAccount, eventsAccount} {
			if n := h.invoiceCount(account, "kind = 'CREDIT_NOTE' AND dispute_id IS NOT NULL AND status = 'CREDITED'"); n != 1 {
				t.Fatalf("%s: account %s has %d credit notes of the lost dispute, want 1", when, account, n)
			}
		}
		if n := h.count("payment_events", eventsAccount, "event_id LIKE 'reconcile_%'"); n != 0 {
			t.Fatalf("%s: the dispute repaired from its events was repaired %d more times from the list of disputes", when, n)
		}
		if n := h.invoiceCount(openAccount, "kind = 'CREDIT_NOTE'"); n != 0 {
			t.Fatalf("%s: %d credit notes of the open dispute", when, n)
		}
	}
	exactlyOnce("after the repair")
	eventually(t, "DisputeOpen true of the open dispute, false of the lost one", func() bool {
		return h.disputeOpenAttribute(openAccount) == "true" && h.disputeOpenAttribute(lostAccount) == "false"
	})
	if s := h.subscription(openToken, openAccount); s["show_status"] != "active" {
		t.Fatalf("an open dispute changed the plan: %v", s)
	}
	h.recordHistory("subscription:"+lostAccount, "", "subscription_dispute_lost_by_provider_reconciliation.json")

	again := h.reconcileProvider("")
	var text strings.Builder
	if err := ops.WriteProviderReport(&text, again); err != nil {
		t.Fatal(err)
	}
	if len(again.Repaired) != 0 || again.Drift != 0 || again.Disputes != 3 || !strings.Contains(text.String(), "no difference") {
		t.Fatalf("second run: repaired %v, drift %d %+v; want no difference:\n%s", again.Repaired, again.Drift, again.Differences, text.String())
	}
	time.Sleep(time.Second)
	exactlyOnce("after a second run")

	// Kudos decided the open one (won) while the provider says it is still
	// open; Kudos booked the lost one at another amount; Kudos books a
	// dispute the provider has not; and a dispute at the provider whose
	// repair an earlier run recorded and the workflow applied left no
	// disputes row.
	if _, err := h.db.Pool.Exec(ctx, `UPDATE disputes SET status = 'won', closed_at = now() WHERE account_id = $1`, openAccount); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `UPDATE disputes SET amount = amount - 100 WHERE account_id = $1`, lostAccount); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `INSERT INTO disputes (id, account_id, payment, amount, currency, status, opened_at)
		VALUES ('dp_kudos_only', $1, 'nothing', 500, 'EUR', 'open', now())`, lostAccount); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `INSERT INTO sandbox_disputes (id, account_id, payment, amount, currency, status, created_at)
		VALUES ('dp_provider_only', $1, 'nothing', 700, 'EUR', 'open', now())`, openAccount); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(ctx, `INSERT INTO payment_events (event_id, provider, account_id, checkout_id, outcome, occurred_at, applied_at, dispute)
		VALUES ('reconcile_dp_provider_only_open', 'sandbox', $1, '', '', now(), now(), '{"id": "dp_provider_only"}')`, openAccount); err != nil {
		t.Fatal(err)
	}
	drift, kinds := h.reconcileDrift()
	is := func(kind, account, reference string) bool {
		d, ok := kinds[kind]
		return ok && d.AccountID == account && (reference == "" || d.Reference == reference)
	}
	if drift.Drift != 4 || !is("dispute_status", openAccount, "") || !is("dispute_unknown", lostAccount, "dp_kudos_only") ||
		!is("dispute_missing", openAccount, "dp_provider_only") || !is("dispute_amount", lostAccount, "") || len(drift.Repaired) != 0 {
		t.Fatalf("drift %d %+v, repaired %v; want the status Kudos decided, the other amount, the dispute the provider has not "+
			"and the one a repair did not book", drift.Drift, drift.Differences, drift.Repaired)
	}
	if g := h.ledgerDrift(); g != 4 {
		t.Fatalf("kudos_ledger_drift %v, want 4", g)
	}
	text.Reset()
	if err := ops.WriteProviderReport(&text, drift); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 difference", "dispute_amount", "217.80 EUR (Kudos: 216.80 EUR)", "dispute_status", "provider: open, Kudos: won", "dispute_unknown", "dp_kudos_only", "5.00 EUR",
		"dispute_missing", "dp_provider_only", "provider: open, Kudos: -"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report's text has no %q:\n%s", want, text.String())
		}
	}
	if n := h.count("disputes", openAccount, "status = 'won'"); n != 1 {
		t.Fatalf("a status the reconciliation cannot repair was changed: %d won", n)
	}
}
