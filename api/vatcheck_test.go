package api_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"kudos"
)

// beAddress is validAddress as a Belgian business (another member state
// than the seller's NL) with VAT id vatID ("" for none).
func beAddress(vatID string) map[string]any {
	a := validAddress()
	a["country"], a["vat_id"] = "nl_BE", vatID
	if vatID == "" {
		delete(a, "vat_id")
	}
	return a
}

// vatStatus is the account's vat_id_status as the billing read shows it.
func (h *harness) vatStatus(account, token string) any {
	addr := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing", nil, token), 200).Body["account_billing_address"].(map[string]any)
	return addr["vat_id_status"]
}

// TestVATIDStatusOnSave: saving the billing address checks its VAT id with
// the stand-in: no id is none; a valid id verified (on the timeline); an
// unknown one (…000) is saved as invalid, the address stored all the same;
// VIES unavailable (…999) saves pending with the start of its check queued;
// the same id saved again keeps its answer without a new check; a status
// sent by the client is ignored. The save's answer and the billing read
// (checked against openapi.yaml) agree.
func TestVATIDStatusOnSave(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("vat-status@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	for _, c := range []struct {
		vatID string
		want  kudos.VATIDStatus
	}{{"", kudos.VATIDNone}, {"BE0123456789", kudos.VATIDVerified}, {"BE0123456000", kudos.VATIDInvalid},
		{"BE0123456999", kudos.VATIDPending}} {
		body := beAddress(c.vatID)
		body["vat_id_status"] = "verified" // the server's to set
		r := h.expect(h.do("PATCH", path, body, token), 200)
		if r.str("vat_id_status") != string(c.want) || h.vatStatus(account, token) != string(c.want) {
			t.Errorf("%q: saved %s, read %v, want %s", c.vatID, r.str("vat_id_status"), h.vatStatus(account, token), c.want)
		}
	}
	var starts int
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'vat_check_start'
		AND workflow_id = 'vatcheck:' || $1 AND payload->>'VATID' = 'BE0123456999'`, account).Scan(&starts); err != nil || starts != 1 {
		t.Fatalf("%d check starts queued (%v), want 1", starts, err)
	}
	// A VAT id of another member state than the billing country is refused
	// (VIES checks the id's state, reverse charge goes by the country), and
	// nothing changes.
	if r := h.expect(h.do("PATCH", path, beAddress("NL123456789B01"), token), 422); r.field("vat_id") != kudos.FInvalidVATID {
		t.Fatalf("a Dutch id on a Belgian address: %s", r.Raw)
	}
	// An invalid id saved again is asked again (it may have been invalid for
	// want of an answer); the same answer adds no event.
	h.expect(h.do("PATCH", path, beAddress("BE0123456000"), token), 200)
	h.expect(h.do("PATCH", path, beAddress("BE0123456000"), token), 200)
	if s := h.vatStatus(account, token); s != "invalid" {
		t.Fatalf("saved again: %v", s)
	}
	types := timelineTypes(h.expect(h.do("GET", "/v1/accounts/"+account+"/billing/timeline", nil, token), 200))
	if n := len(slices.DeleteFunc(types, func(s string) bool { return s != string(kudos.EventVATIDChecked) })); n != 3 {
		t.Errorf("%d vat_id_checked events, want 3 (verified, invalid, invalid again after the pending id)", n)
	}
}

// TestVATCheckOutageThenVerified: VIES is unavailable (the stand-in's …999,
// down for 2 s here): the id is saved pending and its workflow asks again
// (after 1 s here) until it is verified, which the owner is mailed
// (vat_id_checked) and the pricing follows: a Belgian business with a
// verified id is reverse charged. The run is recorded for the replay tests.
func TestVATCheckOutageThenVerified(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-outage@example.com")
	r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", beAddress("BE0123456999"), token), 200)
	if r.str("vat_id_status") != "pending" {
		t.Fatalf("saved %s", r.Raw)
	}
	if p := h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200); p.Body["vat_rate"] != float64(21) || p.Body["reverse_charge"] != false {
		t.Fatalf("pending id priced %s", p.Raw)
	}
	eventuallyWithin(t, 30*time.Second, "the id verified", func() bool { return h.vatStatus(account, token) == "verified" })
	eventually(t, "the vat_id_checked mail", func() bool {
		return slices.Contains(h.sent.purposes("vat-outage@example.com"), kudos.MailVATIDChecked)
	})
	if p := h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200); p.Body["vat_rate"] != float64(0) || p.Body["reverse_charge"] != true {
		t.Fatalf("verified id priced %s", p.Raw)
	}
	wf := "vatcheck:" + account
	eventually(t, "the check's workflow to end", func() bool { return h.workflowClosed(wf) })
	h.recordHistory(wf, "", "vatcheck_outage_verified.json")
}

// TestVATCheckStaleResultNotWritten: an id saved pending (VIES down), then
// another id saved (answered invalid at once) before VIES is back: the
// first check ends finding its address changed and writes nothing (the
// status stays invalid, no mail), however late it comes.
func TestVATCheckStaleResultNotWritten(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-stale@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	h.expect(h.do("PATCH", path, beAddress("BE0123456999"), token), 200)
	wf := "vatcheck:" + account
	eventually(t, "the check to start", func() bool {
		_, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), wf, "")
		return err == nil
	})
	if r := h.expect(h.do("PATCH", path, beAddress("BE0123456000"), token), 200); r.str("vat_id_status") != "invalid" {
		t.Fatalf("second save %s", r.Raw)
	}
	eventuallyWithin(t, 30*time.Second, "the first check to end", func() bool { return h.workflowClosed(wf) })
	if s := h.vatStatus(account, token); s != "invalid" {
		t.Fatalf("a stale check overwrote the status: %v", s)
	}
	h.deliverQueued()
	if slices.Contains(h.sent.purposes("vat-stale@example.com"), kudos.MailVATIDChecked) {
		t.Fatal("a stale check mailed the owner")
	}
	h.recordHistory(wf, "", "vatcheck_superseded.json")
}

// workflowClosed reports whether the workflow's current run has ended.
func (h *harness) workflowClosed(id string) bool {
	d, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
	return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}

// TestReverseChargeOnPricing: the pricing's vat_rate is 0 with
// reverse_charge only for a verified id of another member state's
// business; a pending or invalid id, the seller's own member state and no
// id pay their country's VAT; a business outside the EU pays none (issue
// 34, TestOutsideEUVATOnPricing).
func TestReverseChargeOnPricing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("vat-pricing@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	for _, c := range []struct {
		name, country, vatID string
		rate                 float64
		reverse              bool
	}{
		{"verified, Belgium", "nl_BE", "BE0123456789", 0, true},
		{"verified, Germany", "de_DE", "DE123456789", 0, true},
		{"pending", "nl_BE", "BE0123456999", 21, false},
		{"invalid", "nl_BE", "BE0123456000", 21, false},
		{"no VAT id", "nl_BE", "", 21, false},
		{"verified, the seller's country", "nl_NL", "NL123456789B01", 21, false},
		{"a business outside the EU", "de_CH", "CHE123456789", 0, false},
	} {
		a := beAddress(c.vatID)
		a["country"] = c.country
		h.expect(h.do("PATCH", path, a, token), 200)
		p := h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200)
		if p.Body["vat_rate"] != c.rate || p.Body["reverse_charge"] != c.reverse {
			t.Errorf("%s: %s", c.name, p.Raw)
		}
	}
}

// TestReverseChargeOnCheckoutAndInvoice: a Belgian business with a
// verified VAT id pays Pro without VAT at checkout (the sandbox page's
// amount) and gets an invoice of 0 % marked reverse charged, which a later
// change of the id (now invalid) does not change; its next checkout is
// charged 21 %.
func TestReverseChargeOnCheckoutAndInvoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	token, account := h.signedUpUser("vat-reverse@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", beAddress("BE0123456789"), token), 200)
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201).str("checkout_href")
	page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200)
	if !strings.Contains(page.Raw, "EUR 468.00") {
		t.Fatalf("sandbox page: %s", page.Raw)
	}
	h.expect(h.sandbox(href, "pay"), 200)
	eventually(t, "the invoice paid", func() bool { return h.invoiceCount(account, "status = 'PAID' AND number IS NOT NULL") == 1 })
	h.expect(h.do("PATCH", base+"/billing-address", beAddress("BE0123456000"), token), 200)
	var vat, total int64
	var rate float64
	var reverse bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT vat_amount, total_amount, vat_rate::float8, reverse_charge FROM invoices
		WHERE account_id = $1 AND kind = 'SUBSCRIPTION'`, account).Scan(&vat, &total, &rate, &reverse); err != nil {
		t.Fatal(err)
	}
	if vat != 0 || total != 46800 || rate != 0 || !reverse {
		t.Fatalf("invoice vat %d total %d rate %v reverse charge %v", vat, total, rate, reverse)
	}
	up := h.expect(h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, token), 201).str("checkout_href")
	page = h.expect(h.do("GET", strings.TrimPrefix(up, "http://127.0.0.1:8080"), nil, ""), 200)
	var upVAT int64
	var upReverse bool
	if err := h.db.Pool.QueryRow(ctx, `SELECT vat_amount, reverse_charge FROM invoices WHERE account_id = $1 AND kind = 'UPGRADE'`,
		account).Scan(&upVAT, &upReverse); err != nil {
		t.Fatal(err)
	}
	if upVAT == 0 || upReverse {
		t.Fatalf("an upgrade with an invalid id: VAT %d, reverse charge %v", upVAT, upReverse)
	}
}
