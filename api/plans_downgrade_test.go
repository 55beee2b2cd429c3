package api_test

import (
	"context"
	"testing"
	"time"
)

// buyPlan has the owner of account (with a billing address) buy plan and
// waits until it is active.
func (h *harness) buyPlan(token, account, plan string) {
	h.t.Helper()
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": plan}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(h.t, plan, func() bool {
		s := h.subscription(token, account)
		return s["plan"] == plan && s["show_status"] == "active"
	})
}

// TestDowngradeIsScheduledWhileTheTeamFits (issue 38 item 1): a lower plan
// is refused (409 seat_limit) while members and pending invitations
// outnumber it; scheduled, it is answered and shown with its date,
// invitations are held to the lower plan's seats, and cancelling it gives
// the plan's seats back.
func TestDowngradeIsScheduledWhileTheTeamFits(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("downgrader@example.com")
	base := "/v1/accounts/" + account
	h.buyPlan(owner, account, "TEAM")
	if s := h.subscription(owner, account); s["scheduled_plan"] != nil || s["scheduled_at"] != nil {
		t.Fatalf("nothing scheduled yet: %v", s)
	}
	h.expect(h.invite(owner, account, "first@example.com", "member"), 201)
	second := h.expect(h.invite(owner, account, "second@example.com", "member"), 201)

	// Three seats used: Pro's two are too few.
	if r := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, owner), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("a downgrade the team outgrew: %s", r.Raw)
	}
	h.expect(h.do("DELETE", base+"/invitations/"+second.str("id"), nil, owner), 204)
	r := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, owner), 200)
	s := h.subscription(owner, account)
	if r.str("scheduled_plan") != "PRO" || r.str("scheduled_at") == "" || r.Body["checkout_href"] != nil {
		t.Fatalf("scheduled: %s", r.Raw)
	}
	if s["plan"] != "TEAM" || s["scheduled_plan"] != "PRO" || s["scheduled_at"] != s["plan_renewal_at"] || s["show_status"] != "active" {
		t.Fatalf("the account read: %v", s)
	}
	// Once scheduled, the team is held to Pro's two seats.
	h.wantSeats(t, owner, account, 2, 2)
	if r := h.expect(h.invite(owner, account, "third@example.com", "member"), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("an invitation past the lower plan's seats: %s", r.Raw)
	}
	var invoices int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM invoices WHERE account_id = $1`, account).Scan(&invoices)
	if invoices != 1 {
		t.Fatalf("%d invoices: scheduling a downgrade bills or credits nothing", invoices)
	}

	h.expect(h.do("DELETE", base+"/subscription/scheduled-change", nil, owner), 200)
	if s := h.subscription(owner, account); s["scheduled_plan"] != nil || s["scheduled_at"] != nil || s["plan"] != "TEAM" {
		t.Fatalf("after the cancel: %v", s)
	}
	h.wantSeats(t, owner, account, 2, 10)
	h.expect(h.do("DELETE", base+"/subscription/scheduled-change", nil, owner), 200) // nothing scheduled: a second click
	if r := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "STARTER"}, owner), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("Starter for two: %s", r.Raw)
	}
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, owner), 422) // not a change
}

// TestTheRenewalChargesTheScheduledPlan (issue 38 item 1): the renewal
// after a scheduled downgrade bills and starts the lower plan.
func TestTheRenewalChargesTheScheduledPlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(6 * time.Second)
	owner, account := h.signedUpUser("renew-lower@example.com")
	base := "/v1/accounts/" + account
	h.buyPlan(owner, account, "PRO")
	wfID := "subscription:" + account
	run := h.currentRun(wfID)
	h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "STARTER"}, owner), 200)
	eventually(t, "the renewal to start Starter", func() bool {
		s := h.subscription(owner, account)
		return s["plan"] == "STARTER" && s["scheduled_plan"] == nil
	})
	var plan, desc string
	var net int64
	err := h.db.Pool.QueryRow(context.Background(), `SELECT plan, description, net_amount FROM invoices WHERE account_id = $1
		AND kind = 'RENEWAL' ORDER BY created_at LIMIT 1`, account).Scan(&plan, &desc, &net)
	if err != nil || plan != "STARTER" || desc != "Renewal STARTER" || net != 18000 {
		t.Fatalf("the renewal invoice %s %q %d %v", plan, desc, net, err)
	}
	h.wantSeats(t, owner, account, 1, 1)
	h.recordHistory(wfID, run, "subscription_downgrade_renewed_lower.json")
}
