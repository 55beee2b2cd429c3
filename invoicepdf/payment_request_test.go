package invoicepdf

import (
	"strings"
	"testing"

	"kudos"
)

// TestPaymentRequest (issue 34, item 5): a due invoice has no number until
// it is paid; its download is a payment request in each language: titled
// so, a dash for the number, the amount due, saying it is not an invoice.
// Downloaded as payment-request-<id>.pdf.
func TestPaymentRequest(t *testing.T) {
	for lang, want := range map[string][]string{
		"en": {"Payment request", "Due for payment", "Amount due", "not an invoice"},
		"nl": {"Betaalverzoek", "Te betalen", "Te betalen bedrag", "geen factuur"},
		"fr": {"Demande de paiement", "À payer", "Montant à payer", "pas une facture"},
	} {
		inv := invoice("EUR", 21)
		inv.Number, inv.Status = "", kudos.InvoiceDue
		_, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_BE"), BuyerEmail: "a@example.com", Language: lang})
		contains(t, text, want...)
		contains(t, text, "—")
		if strings.Contains(text, labels[lang][lTitle]+"\n") || strings.Contains(text, "KUD-") {
			t.Errorf("%s: a payment request reads as an invoice:\n%s", lang, text)
		}
		if got := Filename(inv); !strings.HasPrefix(got, "payment-request-") {
			t.Errorf("%s: file name %q", lang, got)
		}
	}
}
