package api_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"kudos"
)

// TestDraftDownloadsAreLimited: a draft (here a pro-forma: the invoice's
// checkout is open) is rendered and stored again at each download, so an
// account renders a few in a row, then gets 429 in the one error shape
// with Retry-After, and a refused download renders and stores nothing; the
// bucket refills with time. Before, every request rendered a PDF: a member
// could keep the api's CPU busy and write to tmp/drafts/ in a loop.
func TestDraftDownloadsAreLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("draft-loop@example.com")
	path := "/v1/accounts/" + account + "/invoices/" + h.openCheckoutInvoice(token, account) + "/download"
	h.freezeClock()
	start := h.db.Now()

	rendered := 0
	var refused response
	for range 100 {
		r := h.do("POST", path, nil, token)
		if r.Status != 200 {
			refused = r
			break
		}
		rendered++
	}
	if rendered == 100 {
		t.Fatal("100 pro-formas rendered in a row: draft downloads are not limited")
	}
	if rendered < 5 || rendered > 30 {
		t.Fatalf("%d pro-formas before a refusal, want a handful (5 to 30)", rendered)
	}
	h.expect(refused, 429)
	if refused.errorCode() != kudos.ERateLimited {
		t.Fatalf("code %q", refused.errorCode())
	}
	if s, err := strconv.Atoi(refused.Header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
		t.Fatalf("Retry-After %q", refused.Header.Get("Retry-After"))
	}

	// A refused download renders and stores nothing.
	drafts := h.draftPDFs(account)
	if len(drafts) != 1 {
		t.Fatalf("drafts stored: %v, want the pro-forma", drafts)
	}
	if err := h.storage.Delete(context.Background(), drafts[0]); err != nil {
		t.Fatal(err)
	}
	h.expect(h.do("POST", path, nil, token), 429)
	if left := h.draftPDFs(account); len(left) != 0 {
		t.Fatalf("a refused download stored %v", left)
	}

	// Once Retry-After has passed, a download is allowed again.
	wait, _ := strconv.Atoi(refused.Header.Get("Retry-After"))
	h.db.SetClock(func() time.Time { return start.Add(time.Duration(wait) * time.Second) })
	h.expect(h.do("POST", path, nil, token), 200)
	if again := h.draftPDFs(account); len(again) != 1 {
		t.Fatalf("drafts after the wait: %v, want the pro-forma again", again)
	}
}
