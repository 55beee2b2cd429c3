package api_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestOutsideEUVATOnPricing (issue 34, item 9): the pricing's vat_rate is
// the one checkouts and invoices charge. A business outside the EU (a tax
// id; not asked of VIES, which knows only member states) pays 0 %, outside
// the scope of EU VAT; a consumer outside the EU pays its country's VAT
// only where the seller is registered (KUDOS_VAT_REGISTRATIONS), 0 %
// elsewhere; in the EU nothing changes.
func TestOutsideEUVATOnPricing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.VATRegistrations = map[string]string{"NO": "NO923456789MVA"}
	token, account := h.signedUpUser("vat-abroad@example.com")
	path := "/v1/accounts/" + account + "/billing-address"
	for _, c := range []struct {
		name, country, vatID string
		rate                 float64
		treatment            string
	}{
		{"a British business", "en_GB", "GB123456789", 0, "outside_eu_business"},
		{"a Swiss business", "de_CH", "CHE123456789", 0, "outside_eu_business"},
		{"a British consumer, no registration in GB", "en_GB", "", 0, "outside_eu_consumer"},
		{"a Norwegian consumer, registered in NO", "nb_NO", "", 25, "standard"},
		{"an Icelandic business", "is_IS", "IS12345678", 0, "outside_eu_business"},
		{"a Belgian consumer", "nl_BE", "", 21, "standard"},
		{"a Belgian business, verified", "nl_BE", "BE0123456789", 0, "reverse_charge"},
	} {
		a := beAddress(c.vatID)
		a["country"] = c.country
		saved := h.expect(h.do("PATCH", path, a, token), 200)
		p := h.expect(h.do("GET", "/v1/pricing/"+account, nil, token), 200)
		if p.Body["vat_rate"] != c.rate || p.Body["vat_treatment"] != c.treatment ||
			p.Body["reverse_charge"] != (c.treatment == "reverse_charge") {
			t.Errorf("%s: %s", c.name, p.Raw)
		}
		if status := saved.Body["vat_id_status"]; c.vatID != "" && !strings.HasSuffix(c.country, "BE") && status != "none" {
			t.Errorf("%s: a tax id outside the EU has vat_id_status %v, want none (VIES cannot check it)", c.name, status)
		}
	}
}

// TestOutsideEUBusinessInvoice (issue 34, item 9): a British business pays
// Pro without VAT at checkout; its invoice is 0 %, marked outside the scope
// of EU VAT, and its PDF says so (art. 44 VAT Directive).
func TestOutsideEUBusinessInvoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	token, account := h.signedUpUser("vat-gb@example.com")
	base := "/v1/accounts/" + account
	a := beAddress("GB123456789")
	a["country"] = "en_GB"
	h.expect(h.do("PATCH", base+"/billing-address", a, token), 200)
	href := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "PRO"}, token), 201).str("checkout_href")
	if page := h.expect(h.do("GET", strings.TrimPrefix(href, "http://127.0.0.1:8080"), nil, ""), 200); !strings.Contains(page.Raw, "EUR 468.00") {
		t.Fatalf("sandbox page: %s", page.Raw)
	}
	h.expect(h.sandbox(href, "pay"), 200)
	eventually(t, "the invoice paid", func() bool { return h.invoiceCount(account, "status = 'PAID' AND number IS NOT NULL") == 1 })
	var id, outside string
	var vat int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT id, vat_amount, coalesce(vat_outside_eu, '') FROM invoices
		WHERE account_id = $1 AND kind = 'SUBSCRIPTION'`, account).Scan(&id, &vat, &outside); err != nil {
		t.Fatal(err)
	}
	if vat != 0 || outside != "business" {
		t.Fatalf("invoice vat %d, outside the EU %q; want 0, business", vat, outside)
	}
	var dl response
	eventually(t, "the PDF", func() bool {
		dl = h.do("POST", base+"/invoices/"+id+"/download", nil, token)
		return dl.Status == 200
	})
	_, body, _ := httpDo(t, "GET", dl.str("presigned_url"), "", nil)
	if !strings.Contains(string(body), "Outside the scope of EU VAT") || !strings.Contains(string(body), "art. 44 VAT Directive") {
		t.Fatal("the invoice PDF lacks the mention of art. 44")
	}
}
