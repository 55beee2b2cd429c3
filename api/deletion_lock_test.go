package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/api"
	"kudos/payment/sandbox"
	"kudos/workflows"
)

// TestAPlanBoughtWhileTheDeletionIsPreparedIsRefused: scheduling a
// deletion prepares the subscription first (its open checkout closed,
// auto-renewal off) and records the deletion after. A request that passed
// the api's check before the deletion was recorded reached the workflow
// after its preparation and opened a checkout for an account about to be
// erased. The workflow now refuses money requests from its preparation on,
// and takes them again once the deletion is cancelled.
func TestAPlanBoughtWhileTheDeletionIsPreparedIsRefused(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.signedUpUser("deletion-race@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	// The preparation of a deletion being scheduled, the api's check of a
	// racing request passed already (no deletion recorded yet).
	if err := h.srv.Dispatcher.Update(context.Background(), uuid.MustParse(account), workflows.UpdatePrepareDeletion, nil, nil); err != nil {
		t.Fatal(err)
	}
	r := h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token)
	e, _ := r.Body["error"].(map[string]any)
	if msg, _ := e["message"].(string); r.Status != 409 || r.errorCode() != "account_being_deleted" ||
		!strings.HasSuffix(msg, "cancel the deletion to change the plan") {
		t.Fatalf("a plan bought after the deletion's preparation: %d %s, want 409 account_being_deleted", r.Status, r.Raw)
	}
	if err := checkErrorShape(r); err != nil {
		t.Error(err)
	}
	h.wantRows("checkouts", account, "true", 0, "%d checkouts opened for an account being deleted, want none")
	h.scheduleDeletion(token, account)
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, token), 200)
	h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	h.recordHistory("subscription:"+account, "", "subscription_deletion_lock.json")
}

// failingCloseProvider is the sandbox whose checkouts can't be closed (the
// provider is down).
type failingCloseProvider struct{ *sandbox.Provider }

// ExpireCheckout fails as a provider that does not answer.
func (failingCloseProvider) ExpireCheckout(context.Context, string) (kudos.PaymentOutcome, error) {
	return "", kudos.Errorf(kudos.EUnavailable, "payments are unavailable right now, please try again in a moment")
}

// TestADeletionThatFailsAfterItsPreparationTakesNothingAway: when a step
// after the preparation fails (here the provider does not answer when the
// payment-method checkout is closed), no deletion is recorded, and the
// owner must find the account as it was: auto-renewal back on, and the plan
// open to changes. Before, auto-renewal stayed off with no deletion
// scheduled, and the plan lapsed at its renewal date.
func TestADeletionThatFailsAfterItsPreparationTakesNothingAway(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.paidWith("deletion-fails@example.com", "PRO", "4242424242424242")
	base := "/v1/accounts/" + account
	h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201)
	srv := *h.srv
	srv.Payments, srv.Registry = failingCloseProvider{h.srv.Payments.(*sandbox.Provider)}, nil
	h.app = api.New(&srv)
	r := h.do("DELETE", base, map[string]any{"current_password": "Secret1!"}, token)
	if r.Status != 503 {
		t.Fatalf("deletion with the provider down: %d %s, want 503", r.Status, r.Raw)
	}
	if got := h.expect(h.do("GET", base, nil, token), 200).Body["account"].(map[string]any)["deletion_at"]; got != nil {
		t.Fatalf("deletion_at %v after the failed deletion", got)
	}
	eventually(t, "auto-renewal back on", func() bool { return h.subscription(token, account)["start_next_period"] == true })
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 201)
}

// TestTheAutoRenewalAskedBackOutlivesTheWorkflowBeingAway: the owner
// cancels the deletion and asks auto-renewal back, and the api's call to
// the subscription workflow fails after the cancel has committed (Temporal
// away). Before, the owner was told 503 for a deletion that was cancelled
// (asking again answered 409), and the outbox's entry only lifted the
// money refusals: the auto-renewal asked back stayed off, and the plan
// lapsed at its renewal date. Now the outbox's entry carries the choice
// (the api's call and the entry are one update, by its id, so it applies
// once), and the cancel answers 200.
func TestTheAutoRenewalAskedBackOutlivesTheWorkflowBeingAway(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.paidWith("deletion-cancel-away@example.com", "PRO", "4242424242424242")
	base := "/v1/accounts/" + account
	h.scheduleDeletion(token, account)
	eventually(t, "auto-renewal to stop", func() bool { return h.subscription(token, account)["start_next_period"] == false })
	away, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer away.Close()
	working := h.app
	srv, dispatcher := *h.srv, *h.srv.Dispatcher
	dispatcher.Temporal, dispatcher.UpdateTimeout = away, 2*time.Second
	srv.Dispatcher, srv.Registry = &dispatcher, nil
	h.app = api.New(&srv)
	r := h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!", "auto_renewal": true}, token)
	h.app = working
	if r.Status != 200 {
		t.Fatalf("cancel with the workflow away: %d %s, want 200 (the deletion is cancelled)", r.Status, r.Raw)
	}
	if got := h.expect(h.do("GET", base, nil, token), 200).Body["account"].(map[string]any)["deletion_at"]; got != nil {
		t.Fatalf("deletion_at %v after the cancel", got)
	}
	eventually(t, "the auto-renewal asked back", func() bool { return h.subscription(token, account)["start_next_period"] == true })
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 201)
}

// TestALatePaymentDuringTheDeletionIsRefunded: a checkout closed unpaid
// (its debit past the settling limit, or no word from the provider), the
// owner schedules the account's deletion, and then its payment lands.
// Before, the late payment was applied: the plan started, with auto-renewal
// on, a numbered invoice and a receipt, for an account to be erased days
// later (the same payment a day after the erasure is refunded in full).
// During the deletion's grace a late payment that would start or change the
// plan is refunded instead.
func TestALatePaymentDuringTheDeletionIsRefunded(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour).withShortCheckouts(3 * time.Second)
	token, account, href := h.startPlan("late-while-deleting@example.com", "STARTER")
	checkout := h.checkoutOf(account)
	eventually(t, "the checkout to close unpaid", func() bool {
		return h.count("checkouts", account, "id = '"+checkout+"' AND status <> 'open'") == 1
	})
	h.scheduleDeletion(token, account)
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE sandbox_checkouts SET status = 'paid' WHERE id = $1`, sandboxID(href)); err != nil {
		t.Fatal(err)
	}
	h.latePaidEvent(account, checkout)
	eventually(t, "the late payment refunded", func() bool {
		return h.count("refunds", account, "checkout_id = '"+checkout+"'") == 1
	})
	if s := h.subscription(token, account); s["plan"] != "TRIAL" || s["start_next_period"] == true {
		t.Fatalf("the subscription %v after a late payment during the deletion, want the trial as it was", s)
	}
	if n := h.invoiceCount(account, "status = 'PAID'"); n != 0 {
		t.Fatalf("%d paid invoices, want none", n)
	}
	h.recordHistory("subscription:"+account, "", "subscription_late_while_deleting.json")
}
