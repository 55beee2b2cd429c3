package api_test

import (
	"fmt"
	"testing"
	"time"

	"kudos"
)

// asks is how many times the scripted VIES was asked.
func (s *scriptedVIES) asks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}

// TestVIESIsCalledUnderALimit (issue 35 item 6): VIES's answer is kept per
// (country, VAT id), so saving the address with ids in turn asks VIES once
// per id, whichever account asks; VIES is asked at most 10 times an hour
// per account and 20 per client, beyond which the save is 429 with
// Retry-After and nothing changes; an outage is never kept (the id is
// asked about again at the next save).
func TestVIESIsCalledUnderALimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	vies := &scriptedVIES{answers: []string{"valid"}}
	h.srv.VATChecker = vies
	token, account := h.signedUpUser("vies-limit@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	save := func(token, path, id string) response {
		return h.do("PATCH", path, beAddress(id), token)
	}
	for i := 0; i < 20; i++ { // alternating ids costs nothing after the first answer of each
		if r := h.expect(save(token, path, []string{"BE0123456789", "BE0987654321"}[i%2]), 200); r.str("vat_id_status") != "verified" {
			t.Fatalf("save %d: %s", i, r.Raw)
		}
	}
	if n := vies.asks(); n != 2 {
		t.Fatalf("VIES asked %d times for 2 ids saved in turn, want 2", n)
	}
	for i := 2; i < 10; i++ { // 10 ids in all: the account's hour
		h.expect(save(token, path, fmt.Sprintf("BE01000000%02d", i)), 200)
	}
	r := h.expect(save(token, path, "BE0100000099"), 429)
	if r.errorCode() != kudos.ERateLimited || r.Header.Get("Retry-After") == "" {
		t.Fatalf("past the account's limit: %s (Retry-After %q)", r.Raw, r.Header.Get("Retry-After"))
	}
	if vies.asks() != 10 {
		t.Fatalf("VIES asked %d times, want 10", vies.asks())
	}
	if addr := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing", nil, token), 200).Body["account_billing_address"].(map[string]any); addr["vat_id"] != "BE0100000009" {
		t.Fatalf("a refused save changed the address: %v", addr)
	}
	// Known ids are still answered from what VIES said, without a token.
	h.expect(save(token, path, "BE0123456789"), 200)

	// Another account asks about a known id: no question to VIES.
	other, otherAccount := h.signedUpUser("vies-limit-other@example.com")
	otherPath := "/v1/accounts/" + otherAccount + "/billing-address"
	if r := h.expect(save(other, otherPath, "BE0987654321"), 200); r.str("vat_id_status") != "verified" || vies.asks() != 10 {
		t.Fatalf("a known id from another account: %s, VIES asked %d times", r.Raw, vies.asks())
	}
	// The client's limit (20 an hour) holds across accounts.
	for i := 0; i < 10; i++ {
		h.expect(save(other, otherPath, fmt.Sprintf("BE02000000%02d", i)), 200)
	}
	third, thirdAccount := h.signedUpUser("vies-limit-third@example.com")
	if r := h.expect(save(third, "/v1/accounts/"+thirdAccount+"/billing-address", "BE0300000001"), 429); r.Header.Get("Retry-After") == "" {
		t.Fatalf("past the client's limit: %s", r.Raw)
	}
	if vies.asks() != 20 {
		t.Fatalf("VIES asked %d times, want 20", vies.asks())
	}
}

// TestVIESOutageIsNeverKept (issue 35 item 6): VIES unavailable saves the
// id pending; saving it again asks VIES again (an outage is not an
// answer), and its answer then is kept, for kudos.VATAnswerTTL.
func TestVIESOutageIsNeverKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	vies := &scriptedVIES{answers: []string{"unavailable", "valid"}}
	h.srv.VATChecker = vies
	token, account := h.signedUpUser("vies-outage@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	if r := h.expect(h.do("PATCH", path, beAddress("BE0123456789"), token), 200); r.str("vat_id_status") != "pending" {
		t.Fatalf("saved %s", r.Raw)
	}
	if r := h.expect(h.do("PATCH", path, beAddress("BE0123456789"), token), 200); r.str("vat_id_status") != "verified" {
		t.Fatalf("saved again %s", r.Raw)
	}
	other, otherAccount := h.signedUpUser("vies-outage-other@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+otherAccount+"/billing-address", beAddress("BE0123456789"), other), 200)
	if n := vies.asks(); n != 2 {
		t.Fatalf("VIES asked %d times, want 2", n)
	}
	// Past kudos.VATAnswerTTL the answer is asked for again.
	h.db.SetClock(func() time.Time { return time.Now().Add(kudos.VATAnswerTTL + time.Minute) })
	late, lateAccount := h.signedUpUser("vies-outage-late@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+lateAccount+"/billing-address", beAddress("BE0123456789"), late), 200)
	if n := vies.asks(); n != 3 {
		t.Fatalf("VIES asked %d times after the answer's time, want 3", n)
	}
}

// TestVIESAnswerServesAPendingCheck (issue 35 item 6): the check's
// workflow asks through the same kept answers: an id saved pending (VIES
// unavailable) is verified from the answer VIES gave meanwhile to
// another account's save, without a question of its own.
func TestVIESAnswerServesAPendingCheck(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	vies := &scriptedVIES{answers: []string{"unavailable", "valid"}}
	h.srv.VATChecker = vies
	h.withTemporal(time.Hour)
	const email = "vies-pending@example.com"
	token, account := h.signedUpUser(email)
	h.worker.Stop()
	if r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", beAddress("BE0123456789"), token), 200); r.str("vat_id_status") != "pending" {
		t.Fatalf("saved %s", r.Raw)
	}
	other, otherAccount := h.signedUpUser("vies-pending-other@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+otherAccount+"/billing-address", beAddress("BE0123456789"), other), 200)
	h.worker = h.startWorker(h.acts)
	if m := h.vatChecked(account, email); m.VAT.Status != kudos.VATIDVerified {
		t.Fatalf("the check's mail %+v, want verified", m.VAT)
	}
	if n := vies.asks(); n != 2 {
		t.Fatalf("VIES asked %d times, want 2 (the check's answer was known)", n)
	}
}
