package kudos

import "testing"

// TestQuoteCarriesTheWholeVATDecision (issue 34, items 4 and 9): a quote
// is DecideVAT's whole decision for the buyer it read — a British buyer
// with a tax id is a business outside the EU (BasisOf says it named one),
// one without is a consumer, charged where the seller is registered and
// under that registration — and a checkout priced earlier holds only
// while all of the decision is the same: a buyer outside the EU who adds
// a tax id (0 % either way) is another sale, as is a registration made
// since.
func TestQuoteCarriesTheWholeVATDecision(t *testing.T) {
	business := &BillingAddress{OrganizationName: "Acme Ltd", StreetAndNumber: "1 High St", PostalCode: "EC1A 1BB",
		City: "London", Region: "London", Country: "en_GB", VATID: "GB123456789", VATIDStatus: VATIDNone}
	consumer := *business
	consumer.VATID = ""
	none := VATSeller{Country: "NL"}
	registered := VATSeller{Country: "NL", Registrations: map[string]string{"GB": "GB999999973"}}

	if q := QuoteFor(none, business); q.Buyer != business || q.VAT != (VATDecision{OutsideEU: OutsideEUBusiness}) {
		t.Fatalf("a British business: %+v", q)
	}
	if q := QuoteFor(none, &consumer); q.VAT != (VATDecision{OutsideEU: OutsideEUConsumer}) {
		t.Fatalf("a British consumer, the seller not registered: %+v", q)
	}
	if q := QuoteFor(registered, &consumer); q.VAT != (VATDecision{Rate: 20, SellerVATID: "GB999999973"}) {
		t.Fatalf("a British consumer, the seller registered: %+v", q)
	}
	if q := QuoteFor(none, nil); q.Buyer != nil || q.VAT != (VATDecision{Rate: 21}) {
		t.Fatalf("no address: %+v", q)
	}

	// A checkout's invoice, priced for the consumer before quotes kept a
	// buyer (Quoted false: only the decision is compared).
	q := QuoteFor(none, &consumer)
	priced := Invoice{VATRate: q.VAT.Rate, ReverseCharge: q.VAT.ReverseCharge, OutsideEU: q.VAT.OutsideEU, SellerVATID: q.VAT.SellerVATID}
	if !QuoteFor(none, &consumer).Holds(priced) {
		t.Fatal("the same consumer's quote does not hold")
	}
	if QuoteFor(none, business).Holds(priced) {
		t.Fatal("a consumer's 0 % holds for a business's 0 %: the reason outside the EU is part of the decision")
	}
	if QuoteFor(registered, &consumer).Holds(priced) {
		t.Fatal("a quote without the seller's registration holds once it is registered")
	}
	quoted := priced
	quoted.Buyer, quoted.Quoted = &consumer, true
	if !QuoteFor(none, &consumer).Holds(quoted) {
		t.Fatal("a quoted invoice does not hold for its own buyer")
	}
}
