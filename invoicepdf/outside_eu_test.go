package invoicepdf

import (
	"strings"
	"testing"

	"kudos"
)

// TestOutsideEUGolden (issue 34, item 9) renders invoices to buyers outside
// the EU in en, nl and fr against testdata/outside-eu-*.<lang>.{pdf,txt}: a
// business pays 0 % with "outside the scope of EU VAT (art. 44 VAT
// Directive)", a consumer where the seller is not registered 0 % with
// art. 58; a consumer where the seller is registered pays its country's VAT
// and the invoice names the seller's VAT id there.
func TestOutsideEUGolden(t *testing.T) {
	mention := map[kudos.VATOutsideEU]map[string]string{
		kudos.OutsideEUBusiness: {"en": "Outside the scope of EU VAT (art. 44 VAT Directive)",
			"nl": "Buiten de reikwijdte van de EU-btw (art. 44 Btw-richtlijn)",
			"fr": "Hors du champ d'application de la TVA de l'UE (art. 44 de la directive TVA)"},
		kudos.OutsideEUConsumer: {"en": "Outside the scope of EU VAT (art. 58 VAT Directive)",
			"nl": "Buiten de reikwijdte van de EU-btw (art. 58 Btw-richtlijn)",
			"fr": "Hors du champ d'application de la TVA de l'UE (art. 58 de la directive TVA)"},
	}
	for _, lang := range []string{"en", "nl", "fr"} {
		t.Run(lang, func(t *testing.T) {
			for name, why := range map[string]kudos.VATOutsideEU{"business": kudos.OutsideEUBusiness, "consumer": kudos.OutsideEUConsumer} {
				inv := invoice("GBP", 0)
				inv.OutsideEU = why
				b := buyer("en_GB")
				if why == kudos.OutsideEUConsumer {
					b.VATID = ""
				}
				pdf, text := render(t, Input{Invoice: inv, Buyer: b, BuyerEmail: "owner@acme.example", Language: lang})
				contains(t, text, mention[why][lang])
				if strings.Contains(text, labels[lang][lReverseCharge]) {
					t.Errorf("%s: an invoice outside the EU says it is reverse charged", name)
				}
				golden(t, "outside-eu-"+name+"."+lang+".pdf", pdf)
				golden(t, "outside-eu-"+name+"."+lang+".txt", []byte(text))
			}
			registered := invoice("NOK", 25)
			registered.SellerVATID = "NO923456789MVA"
			_, text := render(t, Input{Invoice: registered, Buyer: buyer("nb_NO"), Language: lang})
			contains(t, text, "NO923456789MVA", "NL859123456B01")
			for _, m := range mention {
				if strings.Contains(text, m[lang]) {
					t.Errorf("an invoice with VAT says it is outside the scope of EU VAT")
				}
			}
		})
	}
}
