package api_test

import (
	"testing"
	"time"
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
	h.terminate(account)

	pay := h.expect(h.do("POST", base+"/invoices/"+plan+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the returned invoice paid", func() bool { return h.subscription(token, account)["payment_retry_at"] == nil })
	if s := h.subscription(token, account); s["plan"] != "STARTER" || s["show_status"] != "active" || s["plan_renewal_at"] != renewal {
		t.Fatalf("after paying the returned invoice (retry was due at %v): %v, want Starter active, renewing on %v", retry, s, renewal)
	}
	h.wantRows("invoices", account, "id = '"+plan+"' AND status = 'PAID'", 1, "%d paid plan invoices, want 1")
}
