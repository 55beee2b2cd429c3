package kudos

import "testing"

// TestDecideVAT (issue 34, item 9): the one VAT decision. A business in
// another member state with a verified id is reverse charged; a business
// outside the EU (a tax id) pays no EU VAT (art. 44); a consumer outside the
// EU pays the VAT of their country only where the seller is registered
// (and the invoice names that registration), none elsewhere (art. 58);
// everyone else pays their country's rate.
func TestDecideVAT(t *testing.T) {
	seller := VATSeller{Country: "NL", Registrations: map[string]string{"NO": "NO923456789MVA"}}
	for _, c := range []struct {
		name  string
		basis VATBasis
		want  VATDecision
	}{
		{"no address", VATBasis{VATIDStatus: VATIDNone}, VATDecision{Rate: 21}},
		{"a Dutch consumer", VATBasis{Country: "nl_NL", VATIDStatus: VATIDNone}, VATDecision{Rate: 21}},
		{"a Belgian business, verified", VATBasis{Country: "nl_BE", VATIDStatus: VATIDVerified, TaxID: true},
			VATDecision{Rate: 0, ReverseCharge: true}},
		{"a Belgian business, invalid id", VATBasis{Country: "nl_BE", VATIDStatus: VATIDInvalid, TaxID: true}, VATDecision{Rate: 21}},
		{"a British business", VATBasis{Country: "en_GB", VATIDStatus: VATIDNone, TaxID: true},
			VATDecision{Rate: 0, OutsideEU: OutsideEUBusiness}},
		{"a Swiss business", VATBasis{Country: "de_CH", VATIDStatus: VATIDNone, TaxID: true},
			VATDecision{Rate: 0, OutsideEU: OutsideEUBusiness}},
		{"a British consumer, the seller not registered in GB", VATBasis{Country: "en_GB", VATIDStatus: VATIDNone},
			VATDecision{Rate: 0, OutsideEU: OutsideEUConsumer}},
		{"a Norwegian consumer, the seller registered in NO", VATBasis{Country: "nb_NO", VATIDStatus: VATIDNone},
			VATDecision{Rate: 25, SellerVATID: "NO923456789MVA"}},
		{"an Icelandic business, the seller registered elsewhere", VATBasis{Country: "is_IS", TaxID: true},
			VATDecision{Rate: 0, OutsideEU: OutsideEUBusiness}},
	} {
		if got := DecideVAT(seller, c.basis); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := DecideVAT(VATSeller{}, VATBasis{Country: "fr_FR"}); got != (VATDecision{Rate: 20}) {
		t.Errorf("an unset seller is NL: a French consumer %+v", got)
	}
}

// TestParseVATRegistrations reads KUDOS_VAT_REGISTRATIONS: pairs of a
// billing country outside the EU and the seller's VAT id there.
func TestParseVATRegistrations(t *testing.T) {
	got, err := ParseVATRegistrations(" GB=GB123456789 , no=NO923456789MVA")
	if err != nil || len(got) != 2 || got["GB"] != "GB123456789" || got["NO"] != "NO923456789MVA" {
		t.Fatalf("%v %v", got, err)
	}
	if got, err := ParseVATRegistrations(""); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
	for _, bad := range []string{"GB", "BE=BE0123456789", "US=123", "GB=", "GB=1,GB=2"} {
		if _, err := ParseVATRegistrations(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
