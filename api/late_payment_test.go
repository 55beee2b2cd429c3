package api_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
)

// withShortCheckouts makes checkouts opened from now on expire after ttl.
func (h *harness) withShortCheckouts(ttl time.Duration) *harness {
	h.srv.Dispatcher.CheckoutTTL = ttl
	return h
}

// sandboxID is the provider id of a sandbox checkout link.
func sandboxID(href string) string { return href[strings.LastIndex(href, "/")+1:] }

// checkoutOf returns our id of the account's latest checkout.
func (h *harness) checkoutOf(account string) string {
	var id string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT id FROM checkouts WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`,
		account).Scan(&id); err != nil {
		h.t.Fatal(err)
	}
	return id
}

// latePaidEvent delivers a "paid" event for checkoutID as a provider's
// delayed webhook would.
func (h *harness) latePaidEvent(account, checkoutID string) {
	h.t.Helper()
	ev := kudos.PaymentEvent{EventID: "evt_late_" + uuid.NewString(), Provider: "sandbox", CheckoutID: checkoutID,
		AccountID: uuid.MustParse(account), Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	if _, err := h.db.RecordPaymentEvent(context.Background(), ev, dispatch.PaymentEvent); err != nil {
		h.t.Fatal(err)
	}
	h.srv.Outbox.Kick()
}

// starterPaidLate lets the account's open Starter checkout expire with no
// word from the provider, then delivers its "paid" event, and waits until
// the plan runs from it.
func (h *harness) starterPaidLate(token, account string) {
	h.t.Helper()
	checkout := h.checkoutOf(account)
	eventually(h.t, "the checkout to expire", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	h.latePaidEvent(account, checkout)
	eventually(h.t, "the late payment applied", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "STARTER" && s["show_status"] == "active" && s["plan_renewal_at"] != nil
	})
}

// TestExpiryAsksTheProviderAndAppliesAPayment: the customer paid, but the
// provider's event has not arrived when the checkout's deadline passes.
// Expiry asks the provider, finds the payment, and applies it.
func TestExpiryAsksTheProviderAndAppliesAPayment(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour).withShortCheckouts(3 * time.Second)
	token, account, href := h.startPlan("paid-before-expiry@example.com", "PRO")
	// Paid at the provider; its notification is lost.
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE sandbox_checkouts SET status = 'paid' WHERE id = $1`, sandboxID(href)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the payment applied at expiry", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "PRO" && s["show_status"] == "active"
	})
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid invoices", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_paid_found_at_expiry.json")
}

// TestLatePaymentIsAppliedWhenNothingElsePaid: the checkout expired with
// no word from the provider; its "paid" event arrives later. Nothing else
// paid for the plan: the payment is applied, not dropped.
func TestLatePaymentIsAppliedWhenNothingElsePaid(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour).withShortCheckouts(3 * time.Second)
	token, account, _ := h.startPlan("late-applied@example.com", "STARTER")
	h.starterPaidLate(token, account)
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid invoices", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_expired_then_paid_late.json")
}

// TestLatePaymentIsRefundedWhenSomethingElsePaid: the customer gave up on
// one checkout and paid another; the first one's payment arrives late. It
// is refunded through the provider and recorded, never kept for nothing,
// and its receipt mailed once.
func TestLatePaymentIsRefundedWhenSomethingElsePaid(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	_, account, first := h.proPaidAfterGivingUp("late-refunded@example.com")

	h.latePaidEvent(account, first)
	eventually(t, "the refund", func() bool {
		var n int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM refunds WHERE account_id = $1 AND checkout_id = $2`, account, first).Scan(&n)
		return n == 1
	})
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 1 {
		t.Fatalf("%d paid invoices: the late payment was applied on top", n)
	}
	var refunded int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sandbox_charges WHERE account_id = $1 AND refunded`, account).Scan(&refunded)
	if refunded != 1 {
		t.Fatalf("%d refunds at the provider", refunded)
	}
	// The same late event again changes nothing.
	h.latePaidEvent(account, first)
	time.Sleep(time.Second)
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM refunds WHERE account_id = $1`, account).Scan(&n)
	if n != 1 {
		t.Fatalf("%d refunds after a repeated late event", n)
	}
	// The owner gets one receipt of the refund (its checkout's invoice was
	// dropped: no credit note to name).
	var receipts []kudos.Message
	eventually(t, "the refund's receipt", func() bool {
		receipts = slices.DeleteFunc(h.sent.to("late-refunded@example.com"), func(m kudos.Message) bool { return m.Purpose != kudos.MailRefundIssued })
		return len(receipts) > 0
	})
	if len(receipts) != 1 || !strings.Contains(receipts[0].Text, "Amount refunded: €566.28") || strings.Contains(receipts[0].Text, "Credit note") {
		t.Fatalf("refund receipts %+v", receipts)
	}
	h.recordHistory("subscription:"+account, "", "subscription_late_payment_refunded.json")
}

// TestALatePaymentKeepsItsPromotion: a plan bought with a forever code
// whose payment came after its checkout had closed (expired here; in
// production a SEPA debit past the settling limit) is applied late. Its
// invoice carried the discount, but the account got no running promotion:
// every renewal charged the full price against the code's terms, and the
// code's use, given back when the checkout closed, was not taken again.
func TestALatePaymentKeepsItsPromotion(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour).withShortCheckouts(3 * time.Second)
	h.promo(kudos.Promotion{Code: "LATELOYAL", PercentOff: 20, Duration: kudos.PromotionForever})
	token, account := h.signedUpUser("late-promotion@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER", "promotion_code": "LATELOYAL"}, token), 201)
	h.starterPaidLate(token, account)
	if p, _ := h.subscription(token, account)["promotion"].(map[string]any); p["code"] != "LATELOYAL" {
		t.Fatalf("the account's running promotion %v, want LATELOYAL", p)
	}
	if p, err := h.db.Promotion(context.Background(), "LATELOYAL"); err != nil || p.Redeemed != 1 {
		t.Fatalf("the code's uses %+v (%v), want 1: the late purchase holds it", p, err)
	}
	h.recordHistory("subscription:"+account, "", "subscription_late_payment_promotion.json")
}

// TestAPaymentTheBankTookBackIsNotAppliedAgain: an invoice paid through
// its checkout after its first debit came back has that payment returned
// too; then another "paid" event of the same checkout arrives (a delayed
// webhook, or one the provider reconciliation replays: the session still
// reads paid). Before, the workflow took the invoice for owed and the
// payment for a late one, and settled it again: the invoice PAID, dunning
// over, the period going on, on money the bank had taken back. A payment
// taken back (returned, or lost to a dispute) is never applied again.
func TestAPaymentTheBankTookBackIsNotAppliedAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(time.Hour).withTemporal(time.Hour)
	token, account := h.paidWith("taken-back-twice@example.com", "STARTER", "4242424242424242")
	base := "/v1/accounts/" + account
	invoice := h.paidInvoiceID(account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	h.inDunning(token, account)
	pay := h.expect(h.do("POST", base+"/invoices/"+invoice+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the returned invoice paid on its checkout", func() bool { return h.subscription(token, account)["payment_retry_at"] == nil })
	checkout := h.checkoutOf(account)
	h.expect(h.do("POST", "/dev/sandbox/return", map[string]any{"account_id": account, "invoice_id": invoice}, ""), 200)
	h.inDunning(token, account)
	h.latePaidEvent(account, checkout)
	eventually(t, "the repeated paid event answered", func() bool {
		return h.count("payment_events", account, "event_id LIKE 'evt_late_%' AND applied_at IS NOT NULL") == 1
	})
	s := h.subscription(token, account)
	h.wantRows("invoices", account, "id = '"+invoice+"' AND status = 'DUE_PAYMENT' AND paid_by IS NULL", 1,
		"%d returned invoices still due, want 1: a payment taken back was applied again")
	if s["payment_retry_at"] == nil {
		t.Fatalf("the subscription %v, want the returned invoice still retried", s)
	}
}
