package api_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kudos"
	"kudos/vatcheck"
)

// scriptedVIES answers the VAT-id checks in turn from answers
// ("unavailable", "invalid", anything else valid); the last one repeats.
type scriptedVIES struct {
	mu      sync.Mutex
	answers []string
	asked   int
}

// Check implements kudos.VATChecker.
func (s *scriptedVIES) Check(context.Context, string, string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.answers[min(s.asked, len(s.answers)-1)]
	s.asked++
	switch a {
	case "unavailable":
		return false, fmt.Errorf("%w: scripted", kudos.ErrVATCheckUnavailable)
	case "invalid":
		return false, nil
	}
	return true, nil
}

// vatChecked waits for the account's check to end and returns the owner's
// vat_id_checked mail.
func (h *harness) vatChecked(account, email string) kudos.MailRequest {
	h.t.Helper()
	eventuallyWithin(h.t, 30*time.Second, "the check's workflow to end", func() bool { return h.workflowClosed("vatcheck:" + account) })
	eventually(h.t, "the vat_id_checked mail", func() bool { return h.lastMailOf(email, kudos.MailVATIDChecked).VAT != nil })
	return h.lastMailOf(email, kudos.MailVATIDChecked)
}

// TestVATCheckGivesUp (issue 34 item 12): VIES stays unavailable past the
// check's limit (24 h; 3 s here): the id counts as invalid, VAT is charged,
// and the owner is told the check gave up. Recorded for the replay tests.
func TestVATCheckGivesUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.VATChecker = &vatcheck.StandIn{Outage: time.Hour}
	h.srv.Config.VATCheckLimit = 3 * time.Second
	h.withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-gave-up@example.com")
	if r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", beAddress("BE0123456999"), token), 200); r.str("vat_id_status") != "pending" {
		t.Fatalf("saved %s", r.Raw)
	}
	if m := h.vatChecked(account, "vat-gave-up@example.com"); !m.VAT.GaveUp || m.VAT.Status != kudos.VATIDInvalid {
		t.Fatalf("the check's mail %+v, want invalid after giving up", m.VAT)
	}
	if s := h.vatStatus(account, token); s != "invalid" {
		t.Fatalf("status %v after giving up", s)
	}
	h.recordHistory("vatcheck:"+account, "", "vatcheck_gave_up.json")
}

// TestVATCheckAnsweredInvalid (issue 34 item 12): VIES is unavailable at
// the save and at the check's first question, then answers that the id is
// invalid: written invalid (not given up), mailed. Recorded.
func TestVATCheckAnsweredInvalid(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.VATChecker = &scriptedVIES{answers: []string{"unavailable", "unavailable", "invalid"}}
	h.withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-answered-invalid@example.com")
	if r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", beAddress("BE0123456789"), token), 200); r.str("vat_id_status") != "pending" {
		t.Fatalf("saved %s", r.Raw)
	}
	if m := h.vatChecked(account, "vat-answered-invalid@example.com"); m.VAT.GaveUp || m.VAT.Status != kudos.VATIDInvalid {
		t.Fatalf("the check's mail %+v, want answered invalid", m.VAT)
	}
	if s := h.vatStatus(account, token); s != "invalid" {
		t.Fatalf("status %v", s)
	}
	h.recordHistory("vatcheck:"+account, "", "vatcheck_answered_invalid.json")
}

// TestVATCheckStaleAtItsFirstQuestion (issue 34 item 12): an id saved
// pending, then another id saved (answered at once) before the check's
// first question (no worker meanwhile): the check finds its address
// changed at once and ends writing nothing. Recorded.
func TestVATCheckStaleAtItsFirstQuestion(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-stale-first@example.com")
	h.worker.Stop()
	path := "/v1/accounts/" + account + "/billing-address"
	h.expect(h.do("PATCH", path, beAddress("BE0123456999"), token), 200)
	wf := "vatcheck:" + account
	eventually(t, "the check to be started", func() bool {
		_, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), wf, "")
		return err == nil
	})
	if r := h.expect(h.do("PATCH", path, beAddress("BE0123456000"), token), 200); r.str("vat_id_status") != "invalid" {
		t.Fatalf("second save %s", r.Raw)
	}
	h.startWorker(h.acts)
	eventuallyWithin(t, 30*time.Second, "the check to end", func() bool { return h.workflowClosed(wf) })
	if s := h.vatStatus(account, token); s != "invalid" {
		t.Fatalf("a stale check overwrote the status: %v", s)
	}
	h.recordHistory(wf, "", "vatcheck_stale_first.json")
}

// TestSEPARenewalPastItsLimitIsCancelled (issue 34 item 12): a renewal
// charge still processing past KUDOS_PENDING_LIMIT (14 days; 3 s here) is
// cancelled at the provider and counts as failed: with no dunning retries
// the plan expires, nothing is charged twice. Recorded.
func TestSEPARenewalPastItsLimitIsCancelled(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withDunning().withPending(time.Second, 3*time.Second).withTemporal(5 * time.Second)
	token, account, href := h.startPlan("sepa-cancelled@example.com", "STARTER")
	h.expect(h.payWith(href, sepaSucceeds), 200)
	h.settleAtSandbox(account, true)
	eventually(t, "Starter", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	eventually(t, "the renewal charge to be processing", func() bool {
		return h.count("sandbox_charges", account, "settles_as IS NOT NULL") == 1
	})
	eventually(t, "the charge cancelled past its limit, the plan expired", func() bool {
		return h.subscription(token, account)["show_status"] == "plan_expired"
	})
	h.wantRows("sandbox_charges", account, "charge_id LIKE 'renewal:%' AND failure_reason = 'canceled'", 1, "%d renewal charges cancelled, want 1")
	h.wantRows("invoices", account, "kind = 'RENEWAL' AND status = 'PAID'", 0, "%d paid renewal invoices, want none")
	h.recordHistory("subscription:"+account, "", "subscription_renewal_pending_cancelled.json")
}
