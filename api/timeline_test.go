package api_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// timelineTypes returns the types of a timeline answer, in order.
func timelineTypes(r response) []string {
	var out []string
	for _, e := range r.Body["events"].([]any) {
		out = append(out, e.(map[string]any)["type"].(string))
	}
	return out
}

// TestBillingTimelineOfAPurchase: a plan bought through the sandbox and a
// payment method added and removed show on the timeline, newest first,
// the payment with its amount, currency and invoice; another account's
// timeline is 404.
func TestBillingTimelineOfAPurchase(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("timeline@example.com")
	tokenB, _ := h.signedUpUser("timeline-b@example.com")
	base := "/v1/accounts/" + account
	tl := base + "/billing/timeline"

	first := h.expect(h.do("GET", tl, nil, token), 200)
	if got := timelineTypes(first); !slices.Equal(got, []string{"trial_started"}) || first.Body["next_before"] != nil {
		t.Fatalf("a new account's timeline: %s", first.Raw)
	}
	h.expect(h.do("GET", tl, nil, tokenB), 404)

	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	// Saving the address checked its VAT id (issue 30): vat_id_checked.
	want := []string{"plan_started", "payment_succeeded", "checkout_opened", "vat_id_checked", "trial_started"}
	var r response
	eventually(t, "the purchase on the timeline", func() bool {
		r = h.expect(h.do("GET", tl, nil, token), 200)
		return slices.Equal(timelineTypes(r), want)
	})
	invoice := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any)[0].(map[string]any)["id"]
	paid := r.Body["events"].([]any)[1].(map[string]any)
	if paid["amount"] != 217.8 || paid["currency"] != "EUR" || paid["invoice_id"] != invoice || paid["plan"] != "STARTER" {
		t.Fatalf("payment event %v, want 217.8 EUR of invoice %v", paid, invoice)
	}
	if started := r.Body["events"].([]any)[0].(map[string]any); started["amount"] != nil || started["plan"] != "STARTER" {
		t.Fatalf("plan_started %v", started)
	}

	add := func() {
		co := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201)
		h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	}
	add()
	add()
	eventually(t, "two payment methods added", func() bool {
		n := 0
		for _, typ := range timelineTypes(h.expect(h.do("GET", tl, nil, token), 200)) {
			if typ == "payment_method_added" {
				n++
			}
		}
		return n == 2
	})
	mandate := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["mandates"].([]any)[0].(map[string]any)["id"].(string)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": mandate}, token), 204)
	if got := timelineTypes(h.expect(h.do("GET", tl, nil, token), 200)); got[0] != "payment_method_removed" {
		t.Fatalf("after removing a payment method: %v", got)
	}
}

// TestBillingTimelinePages walks a timeline with ties on `at` a page at a
// time: every event once, in order, the cursor stable while newer events
// arrive; bad limits and cursors are 422 and change nothing.
func TestBillingTimelinePages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("pages@example.com")
	acc := uuid.MustParse(account)
	ctx := context.Background()
	same := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	// Five events of one instant, two of their own.
	for i, at := range []time.Time{same, same, same.Add(2 * time.Minute), same.Add(3 * time.Minute), same, same, same} {
		if err := h.db.RecordBillingEvent(ctx, kudos.BillingEvent{AccountID: acc, At: at, Type: kudos.EventRenewalReminderSent,
			Key: fmt.Sprintf("k%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		if err := h.db.RecordBillingEvent(ctx, kudos.BillingEvent{AccountID: acc, At: same.Add(time.Duration(i+1) * time.Hour),
			Type: kudos.EventPaymentRetryScheduled, Key: fmt.Sprintf("r%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	tl := "/v1/accounts/" + account + "/billing/timeline"
	all := h.expect(h.do("GET", tl+"?limit=100", nil, token), 200).Body["events"].([]any)
	if len(all) != 13 { // and trial_started
		t.Fatalf("%d events, want 13", len(all))
	}
	var walked []any
	cursor := ""
	for pages := 0; ; pages++ {
		q := "?limit=3"
		if cursor != "" {
			q += "&before=" + url.QueryEscape(cursor)
		}
		r := h.expect(h.do("GET", tl+q, nil, token), 200)
		walked = append(walked, r.Body["events"].([]any)...)
		if pages == 0 { // a newer event does not move the pages after the first
			if err := h.db.RecordBillingEvent(ctx, kudos.BillingEvent{AccountID: acc, Type: kudos.EventPaymentMethodRemoved, Key: "late"}); err != nil {
				t.Fatal(err)
			}
		}
		next, ok := r.Body["next_before"].(string)
		if !ok {
			break
		}
		cursor = next
	}
	var got, want []string
	for i := range all {
		got = append(got, walked[i].(map[string]any)["id"].(string))
		want = append(want, all[i].(map[string]any)["id"].(string))
	}
	if len(walked) != len(all) || !slices.Equal(got, want) {
		t.Fatalf("walked %d events %v\nwant %v", len(walked), got, want)
	}
	for i := 1; i < len(all); i++ {
		prev, _ := time.Parse(time.RFC3339Nano, all[i-1].(map[string]any)["at"].(string))
		cur, _ := time.Parse(time.RFC3339Nano, all[i].(map[string]any)["at"].(string))
		if prev.Before(cur) {
			t.Fatalf("not newest first at %d: %s before %s", i, prev, cur)
		}
	}

	query := h.snapshotSQL()
	before := h.snapshot(t, query)
	for _, q := range []string{"limit=0", "limit=101", "limit=-1", "limit=abc", "limit=1.5", "limit=+5", "limit=", "limit=99999999999999999999"} {
		r := h.do("GET", tl+"?"+q, nil, token)
		if h.expect(r, 422).field("limit") != kudos.FInvalidValue {
			t.Errorf("%s: %s", q, r.Raw)
		}
	}
	for _, c := range []string{"", "x", "!!!", "MTIz", "LTEuMQ", "MS4tMQ", "OTk5OTk5OTk5OTk5OTk5OTk5OS4x", "eyJ9"} {
		if r := h.expect(h.do("GET", tl+"?before="+c, nil, token), 422); r.field("before") != kudos.FInvalidValue {
			t.Errorf("before=%s: %s", c, r.Raw)
		}
	}
	if changed := changedTables(before, h.snapshot(t, query)); len(changed) != 0 {
		t.Fatalf("refused requests changed %v", changed)
	}
}

// TestBillingTimelineOfDunning: a renewal declined and retried on the
// schedule until the plan expires (card 4000000000000341, on real
// Temporal) is on the timeline once each: the failed renewal, each attempt
// scheduled, the expiry with the invoice now due.
func TestBillingTimelineOfDunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(2*time.Second, 4*time.Second).withTemporal(6 * time.Second)
	token, account := h.paidWith("dunned-timeline@example.com", "STARTER", "4000000000000341")
	eventually(t, "the plan to expire after the last attempt", func() bool {
		return h.subscription(token, account)["show_status"] == "plan_expired"
	})
	due := h.expect(h.do("GET", "/v1/accounts/"+account+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	r := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing/timeline", nil, token), 200)
	want := []string{"plan_expired", "payment_retry_scheduled", "payment_retry_scheduled", "renewal_failed",
		"plan_started", "payment_succeeded", "checkout_opened", "vat_id_checked", "trial_started"}
	if got := timelineTypes(r); !slices.Equal(got, want) {
		t.Fatalf("timeline %v\nwant %v", got, want)
	}
	for _, e := range r.Body["events"].([]any)[:4] {
		ev := e.(map[string]any)
		if ev["amount"] != 217.8 || ev["currency"] != "EUR" || ev["invoice_id"] != due || ev["plan"] != "STARTER" {
			t.Fatalf("%v: want 217.8 EUR of the due invoice %s", ev, due)
		}
	}
}

// TestBillingTimelineOfARecovery: a working card added during dunning pays
// the renewal at once: the timeline shows the card, then the renewal paid
// on the invoice that failed.
func TestBillingTimelineOfARecovery(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning(20*time.Second, 40*time.Second).withTemporal(6 * time.Second)
	token, account := h.paidWith("recovered-timeline@example.com", "STARTER", "4000000000000341")
	base := "/v1/accounts/" + account
	var failed any
	eventually(t, "dunning", func() bool {
		sub := h.subscription(token, account)
		if f, ok := sub["failed_payment"].(map[string]any); ok {
			failed = f["invoice_id"]
		}
		return sub["payment_retry_at"] != nil
	})
	co := h.expect(h.do("POST", base+"/billing/payment-methods", nil, token), 201)
	h.expect(h.payWith(co.str("checkout_href"), "4242424242424242"), 200)
	var events []any
	eventually(t, "the renewal paid on the timeline", func() bool {
		events = h.expect(h.do("GET", base+"/billing/timeline", nil, token), 200).Body["events"].([]any)
		return slices.ContainsFunc(events, func(e any) bool {
			ev := e.(map[string]any)
			return ev["type"] == "renewal_succeeded" && ev["invoice_id"] == failed
		})
	})
	// Oldest first, what happened from the failed renewal on (later periods
	// may have renewed meanwhile).
	var got []string
	for i := len(events) - 1; i >= 0; i-- {
		got = append(got, events[i].(map[string]any)["type"].(string))
	}
	from := slices.Index(got, "renewal_failed")
	want := []string{"renewal_failed", "payment_retry_scheduled", "payment_method_added", "renewal_succeeded"}
	if from < 0 || len(got) < from+len(want) || !slices.Equal(got[from:from+len(want)], want) {
		t.Fatalf("timeline, oldest first: %v\nwant from the failed renewal on: %v", got, want)
	}
}
