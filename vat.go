package kudos

import (
	"context"
	"errors"
)

// VATIDStatus is how far a billing address's VAT id has been checked
// against VIES (issue 30).
type VATIDStatus string

// VAT id statuses. An id whose check could not be made for 24 h counts as
// invalid: VAT is charged, and saving the address again checks it anew.
const (
	VATIDNone     VATIDStatus = "none"     // the address has no VAT id
	VATIDPending  VATIDStatus = "pending"  // VIES was unavailable: a workflow checks it again
	VATIDVerified VATIDStatus = "verified" // VIES confirmed the id
	VATIDInvalid  VATIDStatus = "invalid"  // VIES does not know the id (or it could not be checked in 24 h)
)

// ErrVATCheckUnavailable is the VAT-id check's "ask again later": the
// service (VIES or a member state's register behind it) does not answer.
// A VATChecker wraps it, so that callers tell it apart with errors.Is.
var ErrVATCheckUnavailable = errors.New("the VAT-id check service is unavailable")

// VATChecker checks a VAT id against the EU's register (VIES in
// production, a local stand-in in development and tests).
type VATChecker interface {
	// Check reports whether vatID (as typed, with its country prefix) is a
	// registered VAT id of a business in country (a billing country such as
	// "nl_BE"). An error wrapping ErrVATCheckUnavailable means: try later.
	Check(ctx context.Context, country, vatID string) (valid bool, err error)
}

// euMembers are the EU member states among the billing countries, by
// ISO 3166 code (the country part of a billing country).
var euMembers = map[string]bool{"BE": true, "NL": true, "FR": true, "DE": true, "AT": true, "ES": true, "PT": true,
	"IT": true, "SE": true, "FI": true, "DK": true, "HU": true, "PL": true, "LV": true, "LT": true}

// IsEUMember reports whether an ISO 3166 country code is an EU member state.
func IsEUMember(iso string) bool { return euMembers[iso] }

// CountryCode is the ISO 3166 part of a billing country ("nl_BE" → "BE"),
// or the code itself when given one.
func CountryCode(country string) string {
	if len(country) == 5 && (country[2] == '_' || country[2] == '-') {
		return country[3:]
	}
	return country
}

// VATBasis is what an account's VAT depends on: its billing country ("":
// no address yet) and how its VAT id stands.
type VATBasis struct {
	Country     string
	VATIDStatus VATIDStatus
}

// ReverseCharged reports whether an invoice to b is reverse charged
// (art. 196 VAT Directive): a verified VAT id of a business in an EU member
// state other than seller's (an ISO 3166 code).
func (b VATBasis) ReverseCharged(seller string) bool {
	buyer := CountryCode(b.Country)
	return b.VATIDStatus == VATIDVerified && IsEUMember(buyer) && buyer != CountryCode(seller)
}

// VATRateFor is the one VAT decision of Kudos, shared by the pricing
// call, the checkout's amount and every invoice: 0 % and reverse charge
// when ReverseCharged, otherwise the standard rate of the buyer's country
// (VATRate). An empty seller is SellerCountry.
func VATRateFor(seller string, b VATBasis) (rate float64, reverseCharge bool) {
	if seller == "" {
		seller = SellerCountry
	}
	if b.ReverseCharged(seller) {
		return 0, true
	}
	return VATRate(b.Country), false
}

// BasisOf is the VAT basis of a billing address (nil: none yet).
func BasisOf(a *BillingAddress) VATBasis {
	if a == nil {
		return VATBasis{VATIDStatus: VATIDNone}
	}
	return VATBasis{Country: a.Country, VATIDStatus: a.VATIDStatus}
}

// Quote is what an invoice's VAT is decided on, taken once from one read
// of the billing address and carried by the checkout, its invoice and any
// credit note (issue 34): the buyer and, decided for that buyer, the rate
// and whether it is reverse charged. Deciding the VAT at one moment and
// taking the buyer at another made a 0 % invoice to a buyer without a VAT
// id possible.
type Quote struct {
	// Buyer is the billing address as read (nil: the account has none).
	Buyer         *BillingAddress
	VATRate       float64
	ReverseCharge bool
}

// QuoteFor decides the quote of buyer (nil: no billing address) by
// VATRateFor, for seller (empty: SellerCountry).
func QuoteFor(seller string, buyer *BillingAddress) Quote {
	rate, reverse := VATRateFor(seller, BasisOf(buyer))
	return Quote{Buyer: buyer, VATRate: rate, ReverseCharge: reverse}
}

// Holds reports whether invoice inv, priced earlier, still stands by quote
// q taken now: the same VAT decision and, when inv was quoted, the same
// buyer on the document. A checkout whose quote no
// longer holds is closed (the customer opens a new one).
func (q Quote) Holds(inv Invoice) bool {
	if q.VATRate != inv.VATRate || q.ReverseCharge != inv.ReverseCharge {
		return false
	}
	return !inv.Quoted || SameBuyer(q.Buyer, inv.Buyer)
}

// SameBuyer reports whether two billing addresses name the same buyer on a
// document (every printed field; the version and the check's status are
// not printed).
func SameBuyer(a, b *BillingAddress) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	x.VATIDStatus, x.Version, y.VATIDStatus, y.Version = "", 0, "", 0
	return x == y
}
