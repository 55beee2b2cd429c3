package kudos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// VATIDStatus is how far a billing address's VAT id has been checked
// against VIES (issue 30).
type VATIDStatus string

// VAT id statuses. An id whose check could not be made for 24 h counts as
// invalid: VAT is charged, and saving the address again checks it anew.
const (
	VATIDNone     VATIDStatus = "none"     // the address has no VAT id, or a tax id outside the EU (not checked)
	VATIDPending  VATIDStatus = "pending"  // VIES was unavailable: a workflow checks it again
	VATIDVerified VATIDStatus = "verified" // VIES confirmed the id
	VATIDInvalid  VATIDStatus = "invalid"  // VIES does not know the id (or it could not be checked in 24 h)
)

// ErrVATCheckUnavailable is the VAT-id check's "ask again later": the
// service (VIES or a member state's register behind it) does not answer.
// A VATChecker wraps it, so that callers tell it apart with errors.Is.
var ErrVATCheckUnavailable = errors.New("the VAT-id check service is unavailable")

// VATAnswerTTL is how long VIES's answer about a VAT id (valid or
// invalid, never an outage) is kept and given again without asking VIES
// (issue 35): asking about the same ids again costs VIES nothing.
const VATAnswerTTL = 24 * time.Hour

// VATRecheckAfter is how old a VAT id's verification may be when an
// invoice is priced off-session (a renewal, a due invoice) before VIES is
// asked again: a reverse charge relies on the id being valid at the supply,
// not only when the address was saved.
const VATRecheckAfter = 30 * 24 * time.Hour

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
// no address yet), how its VAT id stands, and whether it names a VAT or
// tax id at all (TaxID: the buyer is a business; outside the EU that id is
// not checked, VIES knows only the member states').
type VATBasis struct {
	Country     string
	VATIDStatus VATIDStatus
	TaxID       bool
}

// ReverseCharged reports whether an invoice to b is reverse charged
// (art. 196 VAT Directive): a verified VAT id of a business in an EU member
// state other than seller's (an ISO 3166 code).
func (b VATBasis) ReverseCharged(seller string) bool {
	buyer := CountryCode(b.Country)
	return b.VATIDStatus == VATIDVerified && IsEUMember(buyer) && buyer != CountryCode(seller)
}

// VATSeller is who charges the VAT: the member state Kudos is established
// in (KUDOS_SELLER_COUNTRY; "" is SellerCountry) and the countries outside
// the EU where it is registered for VAT, with its VAT id there
// (KUDOS_VAT_REGISTRATIONS, ParseVATRegistrations).
type VATSeller struct {
	Country       string
	Registrations map[string]string
}

// VATOutsideEU says why an invoice to a buyer outside the EU bears no VAT
// ("": it is not such an invoice); the invoice prints its legal mention.
type VATOutsideEU string

// The reasons a buyer outside the EU pays no VAT (issue 34).
const (
	// OutsideEUBusiness: a business (it gave a tax id) outside the EU; the
	// service is supplied where it is established (art. 44 VAT Directive),
	// outside the scope of EU VAT.
	OutsideEUBusiness VATOutsideEU = "business"
	// OutsideEUConsumer: a consumer outside the EU, where the seller is not
	// registered for VAT; an electronically supplied service is supplied
	// where the consumer lives (art. 58 VAT Directive).
	OutsideEUConsumer VATOutsideEU = "consumer"
)

// VATDecision is the VAT of a sale: its rate (percent), whether it is
// reverse charged (art. 196: rate 0), why a buyer outside the EU pays none
// (OutsideEU: rate 0), and the seller's VAT id the VAT is charged under
// when it is a registration outside the EU ("": the seller's own).
type VATDecision struct {
	Rate          float64
	ReverseCharge bool
	OutsideEU     VATOutsideEU
	SellerVATID   string
}

// DecideVAT is the one VAT decision of Kudos, shared by the pricing call,
// the checkout's amount and every invoice (issue 30, 34):
//   - a business with a verified VAT id of another member state: 0 %,
//     reverse charged;
//   - a business outside the EU (a tax id): 0 %, outside the scope of EU VAT;
//   - a consumer outside the EU: its country's rate where the seller is
//     registered (the invoice names that registration), else 0 %;
//   - anyone else: the standard rate of the buyer's country (VATRate; the
//     seller's without an address).
func DecideVAT(seller VATSeller, b VATBasis) VATDecision {
	home := seller.Country
	if home == "" {
		home = SellerCountry
	}
	country := CountryCode(b.Country)
	switch {
	case b.ReverseCharged(home):
		return VATDecision{ReverseCharge: true}
	case b.Country == "" || IsEUMember(country):
	case b.TaxID:
		return VATDecision{OutsideEU: OutsideEUBusiness}
	case seller.Registrations[country] == "":
		return VATDecision{OutsideEU: OutsideEUConsumer}
	default:
		return VATDecision{Rate: VATRate(b.Country), SellerVATID: seller.Registrations[country]}
	}
	return VATDecision{Rate: VATRate(b.Country)}
}

// ParseVATRegistrations reads KUDOS_VAT_REGISTRATIONS: comma-separated
// pairs COUNTRY=VATID, each COUNTRY a billing country outside the EU (ISO
// 3166: GB, CH, NO, IS) where the seller is registered for VAT, VATID its
// VAT id there; empty: registered nowhere outside the EU.
func ParseVATRegistrations(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		cc, id, ok := strings.Cut(pair, "=")
		cc, id = strings.ToUpper(strings.TrimSpace(cc)), strings.TrimSpace(id)
		switch {
		case !ok || id == "":
			return nil, fmt.Errorf("%q: want COUNTRY=VATID", pair)
		case IsEUMember(cc) || !billingCountryCode(cc):
			return nil, fmt.Errorf("%q: %s is not a billing country outside the EU", pair, cc)
		case out[cc] != "":
			return nil, fmt.Errorf("%q: %s named twice", pair, cc)
		}
		out[cc] = id
	}
	return out, nil
}

// billingCountryCode reports whether an ISO 3166 code is the country of
// one of the billing countries (Countries).
func billingCountryCode(cc string) bool {
	for _, c := range Countries {
		if CountryCode(c) == cc {
			return true
		}
	}
	return false
}

// BasisOf is the VAT basis of a billing address (nil: none yet): its
// country, its VAT id's status and whether it names a VAT or tax id at all
// (a business, outside the EU too).
func BasisOf(a *BillingAddress) VATBasis {
	if a == nil {
		return VATBasis{VATIDStatus: VATIDNone}
	}
	return VATBasis{Country: a.Country, VATIDStatus: a.VATIDStatus, TaxID: a.VATID != ""}
}

// Quote is what an invoice's VAT is decided on, taken once from one read
// of the billing address and carried by the checkout, its invoice and any
// credit note (issue 34): the buyer and the whole VAT decision made for
// that buyer (DecideVAT: the rate, reverse charge, why a buyer outside the
// EU pays none, the seller's registration it is charged under). Deciding
// the VAT at one moment and taking the buyer at another made a 0 % invoice
// to a buyer without a VAT id possible.
type Quote struct {
	// Buyer is the billing address as read (nil: the account has none).
	Buyer *BillingAddress
	// VAT is the decision for Buyer.
	VAT VATDecision
}

// QuoteFor decides the quote of buyer (nil: no billing address) by
// DecideVAT, for seller.
func QuoteFor(seller VATSeller, buyer *BillingAddress) Quote {
	return Quote{Buyer: buyer, VAT: DecideVAT(seller, BasisOf(buyer))}
}

// Holds reports whether invoice inv, priced earlier, still stands by quote
// q taken now: the same VAT decision (all of it: a buyer that moved outside
// the EU, or a seller's registration that changed, is another decision)
// and, when inv was quoted, the same buyer on the document. A checkout
// whose quote no longer holds is closed (the customer opens a new one).
func (q Quote) Holds(inv Invoice) bool {
	if q.VAT != inv.VATDecision() {
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
