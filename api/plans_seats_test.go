package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestExtraSeatsOnTeam (issue 38 item 2): more seats on Team are paid
// through a checkout of the rest of the period (their own invoice line) and
// then counted by the members read; fewer are scheduled for the renewal,
// never below the team's size; only Team has them.
func TestExtraSeatsOnTeam(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("seats-owner@example.com")
	base := "/v1/accounts/" + account
	h.buyPlan(owner, account, "TEAM")
	h.wantSeats(t, owner, account, 1, 10)

	if r := h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 9}, owner), 422); r.field("seats") == "" {
		t.Fatalf("9 seats: %s", r.Raw)
	}
	h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{}, owner), 422)
	co := h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 13}, owner), 201)
	h.wantSeats(t, owner, account, 1, 10) // not before they are paid
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "13 seats", func() bool { _, limit := h.seats(owner, account); return limit == 13 })

	var net int64
	var lines string
	err := h.db.Pool.QueryRow(context.Background(), `SELECT net_amount, lines::text FROM invoices WHERE account_id = $1 AND kind = 'SEATS'
		AND status = 'PAID'`, account).Scan(&net, &lines)
	if err != nil || net <= 0 || net > 3*10800 {
		t.Fatalf("the seats invoice: net %d (want a prorated part of 3 × 108.00) %v", net, err)
	}
	var got []struct {
		Kind     string
		Quantity int
		UnitNet  int64 `json:"unit_net"`
		Net      int64
	}
	if err := json.Unmarshal([]byte(lines), &got); err != nil || len(got) != 1 || got[0].Kind != "seats" || got[0].Quantity != 3 ||
		got[0].UnitNet != 10800 || got[0].Net != net {
		t.Fatalf("the seats invoice's lines %s", lines)
	}

	// Eleven seats used: 12 may be scheduled, 10 may not.
	for i := range 10 {
		h.expect(h.invite(owner, account, fmt.Sprintf("member%d@example.com", i), "member"), 201)
	}
	if r := h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 10}, owner), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("fewer seats than the team: %s", r.Raw)
	}
	r := h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 12}, owner), 200)
	s := h.subscription(owner, account)
	if r.Body["scheduled_seats"] != float64(12) || r.str("scheduled_at") == "" || s["scheduled_at"] != s["plan_renewal_at"] ||
		s["extra_seats"] != float64(3) || s["scheduled_extra_seats"] != float64(2) || s["scheduled_plan"] != nil {
		t.Fatalf("fewer seats scheduled: %s, account %v", r.Raw, s)
	}
	h.wantSeats(t, owner, account, 11, 12) // held to the seats kept
	h.expect(h.do("DELETE", base+"/subscription/scheduled-change", nil, owner), 200)
	h.wantSeats(t, owner, account, 11, 13)
	// A lower plan the team outgrew is refused too.
	if r := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "PRO"}, owner), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("Pro for eleven: %s", r.Raw)
	}
}

// TestSeatsOnlyOnTeam: a Pro plan has no extra seats (409).
func TestSeatsOnlyOnTeam(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("seats-pro@example.com")
	h.buyPlan(owner, account, "PRO")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/subscription/seats", map[string]any{"seats": 12}, owner), 409)
}

// TestTheRenewalBillsTheSeatsKept (issue 38 item 2): seats bought, then
// fewer scheduled: the renewal bills the plan and the seats kept, each on
// its own line.
func TestTheRenewalBillsTheSeatsKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(8 * time.Second)
	owner, account := h.signedUpUser("seats-renewal@example.com")
	base := "/v1/accounts/" + account
	h.buyPlan(owner, account, "TEAM")
	wfID := "subscription:" + account
	run := h.currentRun(wfID)
	co := h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 12}, owner), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "12 seats", func() bool { _, limit := h.seats(owner, account); return limit == 12 })
	h.expect(h.do("PATCH", base+"/subscription/seats", map[string]any{"seats": 11}, owner), 200)
	eventually(t, "the renewal to keep 11 seats", func() bool {
		s := h.subscription(owner, account)
		return s["extra_seats"] == float64(1) && s["scheduled_extra_seats"] == nil
	})
	var net int64
	var lines string
	err := h.db.Pool.QueryRow(context.Background(), `SELECT net_amount, lines::text FROM invoices WHERE account_id = $1
		AND kind = 'RENEWAL' ORDER BY created_at LIMIT 1`, account).Scan(&net, &lines)
	var got []struct {
		Kind     string
		Quantity int
		Net      int64
	}
	if err != nil || net != 118800+10800 || json.Unmarshal([]byte(lines), &got) != nil || len(got) != 2 || got[0].Kind != "plan" ||
		got[1].Kind != "seats" || got[1].Quantity != 1 || got[1].Net != 10800 {
		t.Fatalf("the renewal invoice: net %d, lines %s, %v", net, lines, err)
	}
	h.wantSeats(t, owner, account, 1, 11)
	h.recordHistory(wfID, run, "subscription_seats_bought_fewer_renewed.json")
}
