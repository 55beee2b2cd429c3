package invoicepdf

import (
	"strings"
	"testing"

	"kudos"
)

// reverseCharged is invoice and creditNote as reverse charged: 0 % VAT.
func reverseCharged(inv kudos.Invoice) kudos.Invoice {
	inv.ReverseCharge, inv.VATRate, inv.VAT, inv.Total = true, 0, 0, inv.Net
	return inv
}

// TestReverseChargeGolden renders a reverse-charged invoice and its credit
// note in en, nl and fr against testdata/reverse-charge-*.<lang>.{pdf,txt}:
// VAT 0 and the legal mention of art. 196 VAT Directive in the document's
// language; an invoice that is not reverse charged has no mention.
func TestReverseChargeGolden(t *testing.T) {
	mention := map[string]string{"en": "VAT reverse charged (art. 196 VAT Directive)",
		"nl": "Btw verlegd (art. 196 Btw-richtlijn)", "fr": "Autoliquidation de la TVA (art. 196 de la directive TVA)"}
	zero := map[string]string{"en": "€0.00", "nl": "€\u00a00,00", "fr": "0,00\u00a0€"}
	for _, lang := range []string{"en", "nl", "fr"} {
		t.Run(lang, func(t *testing.T) {
			for name, inv := range map[string]kudos.Invoice{"invoice": reverseCharged(invoice("EUR", 21)),
				"credit-note": reverseCharged(creditNote())} {
				b, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_BE"), BuyerEmail: "owner@acme.example", Language: lang})
				contains(t, text, mention[lang], zero[lang], "BE0987654321")
				golden(t, "reverse-charge-"+name+"."+lang+".pdf", b)
				golden(t, "reverse-charge-"+name+"."+lang+".txt", []byte(text))
			}
			_, text := render(t, Input{Invoice: invoice("EUR", 21), Buyer: buyer("nl_BE"), Language: lang})
			if strings.Contains(text, mention[lang]) {
				t.Errorf("%s: an invoice with VAT says it is reverse charged", lang)
			}
		})
	}
}
