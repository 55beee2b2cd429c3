package invoicepdf

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// update rewrites the golden files: go test ./invoicepdf -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// creditNote is the credit note of the whole of invoice("EUR", 21).
func creditNote() kudos.Invoice {
	inv := invoice("EUR", 21)
	corrects := uuid.MustParse("00000000-0000-0000-0000-000000000042")
	return kudos.Invoice{Number: "KUD-CN-2026-000007", Kind: kudos.InvoiceCreditNote, Plan: kudos.PlanPro,
		Description: kudos.InvoiceDescription(kudos.InvoiceCreditNote, kudos.PlanPro),
		Net:         -inv.Net, VAT: -inv.VAT, VATRate: inv.VATRate, Total: -inv.Total, Currency: "EUR",
		Status: kudos.InvoiceCredited, CreatedAt: issued, Corrects: &corrects, CorrectsNumber: inv.Number, Service: inv.Service}
}

// TestCreditNoteGolden renders a credit note in en, nl and fr and compares
// the PDF and its text with testdata/credit-note.<lang>.{pdf,txt}: titled a
// credit note, its own number, the invoice it corrects, negative amounts,
// status credited, the buyer.
func TestCreditNoteGolden(t *testing.T) {
	want := map[string][]string{
		"en": {"Credit note", "Credit note number", "KUD-CN-2026-000007", "Corrects invoice", "KUD-2026-000042",
			"Credited", "Credit on invoice", "-€1,493.82", "-€259.26", "Amount credited"},
		"nl": {"Creditnota", "Creditnotanummer", "Corrigeert factuur", "Gecrediteerd", "Creditering van factuur",
			"-€\u00a01.493,82", "Gecrediteerd bedrag"},
		"fr": {"Note de crédit", "Numéro de la note de crédit", "Corrige la facture", "Créditée",
			"Crédit sur la facture", "-1\u00a0493,82\u00a0€", "Montant crédité"},
	}
	for _, lang := range []string{"en", "nl", "fr"} {
		t.Run(lang, func(t *testing.T) {
			in := Input{Invoice: creditNote(), Buyer: buyer("nl_BE"), BuyerEmail: "owner@acme.example", Language: lang}
			b, text := render(t, in)
			contains(t, text, want[lang]...)
			contains(t, text, "Acme Testimonials", "BE0987654321")
			golden(t, "credit-note."+lang+".pdf", b)
			golden(t, "credit-note."+lang+".txt", []byte(text))
		})
	}
}

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./invoicepdf -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the rendered credit note (go test ./invoicepdf -update rewrites it)", path)
	}
}
