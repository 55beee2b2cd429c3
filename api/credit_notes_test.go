package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// TestBillingListsCreditNotes: a paid invoice, then the billing address
// edited, then its payment refunded (recorded as the refund activity does).
// The billing read (checked against api/openapi.yaml, as every exchange)
// lists the credit note first: kind credit_note, status CREDITED, the
// negative amount, corrects the invoice; the invoice is kind invoice
// without corrects. Both download as PDFs: the invoice still made out to
// the buyer as it was, the credit note titled so; no one else downloads
// the credit note.
func TestBillingListsCreditNotes(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	token, account, href := h.startPlan("credit-note@example.com", "PRO")
	tokenB, _ := h.signedUpUser("credit-note-other@example.com")
	base := "/v1/accounts/" + account
	h.expect(h.sandbox(href, "pay"), 200)
	invoices := func() []any { return h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any) }
	eventually(t, "the invoice paid", func() bool {
		inv := invoices()[0].(map[string]any)
		return inv["status"] == "PAID" && inv["invoice_url"] != ""
	})
	paid := invoices()[0].(map[string]any)
	if paid["kind"] != "invoice" || paid["corrects"] != nil {
		t.Fatalf("an invoice in the billing read: %v", paid)
	}
	edited := validAddress()
	edited["organization_name"] = "Renamed Holding NV"
	h.expect(h.do("PATCH", base+"/billing-address", edited, token), 200)

	var checkout string
	if err := h.db.Pool.QueryRow(ctx, `SELECT id FROM checkouts WHERE invoice_id = $1`, paid["id"]).Scan(&checkout); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a retried activity
		if err := h.db.RecordRefund(ctx, uuid.MustParse(account), "refund:"+checkout, checkout, "re_1", "paid when nothing was owed",
			kudos.Money{Amount: int64(paid["amount"].(float64)*100 + 0.5), Currency: "EUR"}); err != nil {
			t.Fatal(err)
		}
	}
	list := invoices()
	if len(list) != 2 {
		t.Fatalf("%d items, want the invoice and its credit note", len(list))
	}
	cn := list[0].(map[string]any)
	if cn["kind"] != "credit_note" || cn["status"] != "CREDITED" || cn["corrects"] != paid["id"] || cn["amount"] != -paid["amount"].(float64) ||
		!strings.HasPrefix(cn["invoice_url"].(string), "KUD-CN-") || cn["currency"] != "EUR" {
		t.Fatalf("credit note item %v (invoice %v)", cn, paid)
	}

	download := func(id string) (string, []byte) {
		t.Helper()
		var dl response
		eventually(t, "the PDF of "+id, func() bool {
			dl = h.do("POST", base+"/invoices/"+id+"/download", nil, token)
			return dl.Status == 200
		})
		res, err := http.Get(dl.str("presigned_url"))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		pdf, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) {
			t.Fatalf("download of %s: %d", id, res.StatusCode)
		}
		return res.Header.Get("Content-Disposition"), pdf
	}
	disp, pdf := download(paid["id"].(string))
	if !bytes.Contains(pdf, []byte("Acme NV")) || bytes.Contains(pdf, []byte("Renamed Holding")) {
		t.Fatalf("the issued invoice's PDF (%s) is not made out to the buyer as it was", disp)
	}
	disp, pdf = download(cn["id"].(string))
	if !strings.Contains(disp, cn["invoice_url"].(string)+".pdf") || !bytes.Contains(pdf, []byte("Credit note")) ||
		!bytes.Contains(pdf, []byte(paid["invoice_url"].(string))) {
		t.Fatalf("credit note download %q", disp)
	}
	h.expect(h.do("POST", base+"/invoices/"+cn["id"].(string)+"/download", nil, tokenB), 404)
}
