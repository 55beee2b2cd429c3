package api_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestDeclinedYearIsAPaymentRequest (issue 34, item 5): with auto-renew
// off the plan stops with a due invoice that is a payment request: the
// billing read shows it DUE_PAYMENT without a number (the UI's dash), no
// PDF is stored for it, its download is a payment request drawn now, and
// an invoice numbered meanwhile is not given a gap. Paid, it takes the next
// number and its invoice PDF.
func TestDeclinedYearIsAPaymentRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(3 * time.Second)
	token, account := h.signedUpUser("decliner@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "Starter", func() bool { return h.subscription(token, account)["show_status"] == "active" })
	h.expect(h.do("DELETE", base+"/subscription", nil, token), 200)
	eventually(t, "the plan to expire", func() bool { return h.subscription(token, account)["show_status"] == "plan_expired" })

	due := h.expect(h.do("GET", base+"/invoices/latest-unpaid", nil, token), 200).str("invoice_id")
	invoice := func(id string) map[string]any {
		for _, i := range h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any) {
			if i.(map[string]any)["id"] == id {
				return i.(map[string]any)
			}
		}
		t.Fatalf("invoice %s not in the billing read", id)
		return nil
	}
	if inv := invoice(due); inv["status"] != "DUE_PAYMENT" || inv["invoice_url"] != "" {
		t.Fatalf("the declined year: %v; want DUE_PAYMENT without a number", inv)
	}
	var numbered int
	var pdfKey *string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM invoices WHERE account_id = $1 AND number IS NOT NULL),
		(SELECT pdf_key FROM invoices WHERE id = $2)`, account, due).Scan(&numbered, &pdfKey); err != nil || numbered != 1 || pdfKey != nil {
		t.Fatalf("%d numbered invoices, the due one's PDF %v (%v); want only the paid one numbered, no PDF stored", numbered, pdfKey, err)
	}
	dl := h.expect(h.do("POST", base+"/invoices/"+due+"/download", nil, token), 200)
	status, body, header := httpDo(t, "GET", dl.str("presigned_url"), "", nil)
	if status != 200 || !bytes.HasPrefix(body, []byte("%PDF")) || !strings.Contains(header.Get("Content-Disposition"), "payment-request-") ||
		!bytes.Contains(body, []byte("Payment request")) {
		t.Fatalf("the due invoice's download: %d %q", status, header.Get("Content-Disposition"))
	}

	pay := h.expect(h.do("POST", base+"/invoices/"+due+"/payment", nil, token), 201)
	h.expect(h.sandbox(pay.str("checkout_href"), "pay"), 200)
	eventually(t, "the due invoice paid and numbered", func() bool {
		inv := invoice(due)
		return inv["status"] == "PAID" && strings.HasSuffix(inv["invoice_url"].(string), "-000002")
	})
	eventually(t, "its invoice PDF", func() bool { return h.do("POST", base+"/invoices/"+due+"/download", nil, token).Status == 200 })
}

// TestInvoicesCarryTheirServicePeriod (issue 34, item 11): every invoice
// keeps the period of the plan it pays for (Art. 226(7) VAT Directive) and
// its PDF prints it: a first plan from its payment to its renewal date, a
// renewal from its renewal date to the next (known when it is billed).
func TestInvoicesCarryTheirServicePeriod(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(4 * time.Second)
	token, account := h.signedUpUser("period@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "a paid renewal", func() bool { return h.invoiceCount(account, "kind = 'RENEWAL' AND status = 'PAID'") >= 1 })
	type period struct{ from, to *time.Time }
	read := func(kind string) (string, period) {
		var id string
		var p period
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT id, service_from, service_to FROM invoices
			WHERE account_id = $1 AND kind = $2 ORDER BY created_at LIMIT 1`, account, kind).Scan(&id, &p.from, &p.to); err != nil {
			t.Fatal(err)
		}
		if p.from == nil || p.to == nil || !p.from.Before(*p.to) {
			t.Fatalf("the %s invoice's service period is %v – %v", kind, p.from, p.to)
		}
		return id, p
	}
	first, p1 := read("SUBSCRIPTION")
	_, p2 := read("RENEWAL")
	if !p1.to.Equal(*p2.from) {
		t.Fatalf("the first year ends %v, its renewal begins %v: want the renewal date", p1.to, p2.from)
	}
	if d := p2.to.Sub(*p2.from); d < 3*time.Second || d > 5*time.Second {
		t.Fatalf("the renewal's period lasts %v, want the billing period", d)
	}
	var dl response
	eventually(t, "the PDF", func() bool {
		dl = h.do("POST", base+"/invoices/"+first+"/download", nil, token)
		return dl.Status == 200
	})
	_, body, _ := httpDo(t, "GET", dl.str("presigned_url"), "", nil)
	if want := p1.from.UTC().Format("02/01/2006"); !bytes.Contains(body, []byte("Service period")) || !bytes.Contains(body, []byte(want)) {
		t.Fatalf("the invoice PDF lacks its service period (from %s)", want)
	}
	h.recordHistory("subscription:"+account, "", "subscription_renewal_service_period.json")
}
