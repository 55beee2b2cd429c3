package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBillingAndPaymentMethods(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("billing@example.com")
	tokenB, accountB := h.signedUpUser("other-billing@example.com")
	base := "/v1/accounts/" + account

	b := h.expect(h.do("GET", base+"/billing", nil, token), 200)
	if b.Body["mandate_count"] != float64(0) || len(b.Body["invoices"].([]any)) != 0 || b.Body["account_billing_address"] != nil {
		t.Fatalf("empty billing %s", b.Raw)
	}
	add := func(tok, acc string) {
		t.Helper()
		co := h.expect(h.do("POST", "/v1/accounts/"+acc+"/billing/payment-methods", nil, tok), 201)
		h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	}
	add(token, account)
	b = h.expect(h.do("GET", base+"/billing", nil, token), 200)
	mandates := b.Body["mandates"].([]any)
	if b.Body["mandate_count"] != float64(1) || len(mandates) != 1 {
		t.Fatalf("after adding one: %s", b.Raw)
	}
	m := mandates[0].(map[string]any)
	d := m["details"].(map[string]any)
	if m["method"] != "card" || d["cardNumber"] != "4242" || d["cardExpiryDate"] == "" {
		t.Fatalf("mandate %v", m)
	}
	// The verification charge (made when the subscription workflow gets the
	// checkout's event) was refunded at once.
	eventually(t, "the 0.01 verification charge refunded", func() bool {
		var refunded bool
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT refunded FROM sandbox_charges WHERE account_id = $1 AND amount = 1`, account).Scan(&refunded)
		return refunded
	})
	only := m["id"].(string)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": only}, token), 409)
	add(token, account)
	// Another account's mandate cannot be removed through this account.
	add(tokenB, accountB)
	other := h.expect(h.do("GET", "/v1/accounts/"+accountB+"/billing", nil, tokenB), 200).Body["mandates"].([]any)[0].(map[string]any)["id"].(string)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": other}, token), 404)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{}, token), 422)
	h.expect(h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": only}, token), 204)
	if n := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["mandate_count"]; n != float64(1) {
		t.Fatalf("mandate_count %v after removal", n)
	}
	h.expect(h.do("GET", "/v1/accounts/"+accountB+"/billing", nil, token), 404)
}

func TestBillingShowsInvoicesNewestFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("invoices@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	b := h.expect(h.do("GET", base+"/billing", nil, token), 200)
	inv := b.Body["invoices"].([]any)[0].(map[string]any)
	if inv["status"] != "PROCESSING" || inv["invoice_url"] != "" || inv["description"] != "STARTER" {
		t.Fatalf("while paying: %v", inv)
	}
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "the invoice to be paid", func() bool {
		inv := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any)[0].(map[string]any)
		return inv["status"] == "PAID" && inv["invoice_url"] != "" && inv["amount"] == 217.8 && inv["currency"] == "EUR"
	})
	if addr := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["account_billing_address"].(map[string]any); addr["vat_id"] != "NL123456789B01" {
		t.Fatalf("address %v", addr)
	}
}

func TestInvoicePDFDownload(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("pdf@example.com")
	tokenB, accountB := h.signedUpUser("pdf-other@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	co := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201)
	invoice := func() map[string]any {
		return h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any)[0].(map[string]any)
	}
	id := invoice()["id"].(string)
	// Still PROCESSING (its checkout is open): a pro-forma, marked as not
	// yet paid and without a number (SPEC §2 shows a download icon).
	pro := h.expect(h.do("POST", base+"/invoices/"+id+"/download", nil, token), 200)
	status, body, header := httpDo(t, "GET", pro.str("presigned_url"), "", nil)
	if status != 200 || !bytes.HasPrefix(body, []byte("%PDF")) || !strings.Contains(header.Get("Content-Disposition"), "pro-forma") {
		t.Fatalf("pro-forma download: %d %q", status, header.Get("Content-Disposition"))
	}
	h.expect(h.sandbox(co.str("checkout_href"), "pay"), 200)
	eventually(t, "the invoice to be final", func() bool { return invoice()["invoice_url"] != "" })
	var dl response
	eventually(t, "the PDF", func() bool {
		dl = h.do("POST", base+"/invoices/"+id+"/download", nil, token)
		return dl.Status == 200
	})
	number := invoice()["invoice_url"].(string)
	res, err := http.Get(dl.str("presigned_url"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	pdf, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `filename="`+number+`.pdf"`) {
		t.Fatalf("download: %d %q %q", res.StatusCode, res.Header.Get("Content-Disposition"), pdf[:min(len(pdf), 8)])
	}
	// Another account cannot download it, through either account id.
	h.expect(h.do("POST", "/v1/accounts/"+accountB+"/invoices/"+id+"/download", nil, tokenB), 404)
	h.expect(h.do("POST", base+"/invoices/"+id+"/download", nil, tokenB), 404)
	// A tampered link is refused by the storage.
	bad, err := http.Get(strings.Replace(dl.str("presigned_url"), number, number+"x", 1))
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != 403 {
		t.Fatalf("tampered link answered %d", bad.StatusCode)
	}
}
