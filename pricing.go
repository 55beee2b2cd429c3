package kudos

import (
	"math"
	"time"
)

// PaidPlans are the plans one pays for, in upgrade order (SPEC §4).
var PaidPlans = []Plan{PlanStarter, PlanPro, PlanTeam}

// PlanRank is the position of a plan in the upgrade order: 0 for the trial,
// 1 for Starter, 2 for Pro, 3 for Team, -1 for anything else.
func PlanRank(p Plan) int {
	if p == PlanTrial {
		return 0
	}
	for i, x := range PaidPlans {
		if x == p {
			return i + 1
		}
	}
	return -1
}

// IsPaid reports whether p is a plan one pays for.
func (p Plan) IsPaid() bool { return PlanRank(p) > 0 }

// PriceList holds the yearly price of each paid plan, net of VAT, in minor
// units of Currency.
type PriceList struct {
	Starter, Pro, Team int64
	Currency           string
	// Seat is the yearly net price of one of a Team plan's extra seats
	// (KUDOS_PRICE_SEAT; issue 38).
	Seat int64
}

// Yearly returns the yearly net price of plan (0 for the trial).
func (l PriceList) Yearly(p Plan) int64 {
	switch p {
	case PlanStarter:
		return l.Starter
	case PlanPro:
		return l.Pro
	case PlanTeam:
		return l.Team
	}
	return 0
}

// SellerCountry is the member state Kudos is established in (ISO 3166):
// the invoices' seller (invoicepdf.DefaultSeller), the default of
// KUDOS_SELLER_COUNTRY, and the VAT rate of an account without a billing
// address yet.
const SellerCountry = "NL"

// vatRates are the standard VAT rates (percent) of the countries of the
// billing address (SPEC §3's 21 locale codes), by the country part.
var vatRates = map[string]float64{
	"BE": 21, "NL": 21, "FR": 20, "GB": 20, "DE": 19, "AT": 20, "CH": 8.1, "ES": 21, "PT": 23, "IT": 22,
	"NO": 25, "SE": 25, "FI": 25.5, "DK": 25, "IS": 24, "HU": 27, "PL": 23, "LV": 21, "LT": 21,
}

// VATRate returns the standard VAT rate for a billing country such as
// "nl_BE" (empty or unknown: the seller's country).
func VATRate(country string) float64 {
	if r, ok := vatRates[CountryCode(country)]; ok && country != "" {
		return r
	}
	return vatRates[SellerCountry]
}

// AddVAT returns the VAT on net at rate percent, rounded half away from
// zero to the minor unit, and the total.
func AddVAT(net int64, rate float64) (vat, total int64) {
	vat = int64(math.Round(float64(net) * rate / 100))
	return vat, net + vat
}

// Prorate returns the part of a yearly difference that falls in the
// remaining time of a period, rounded to the minor unit; never negative.
func Prorate(yearlyDiff int64, remaining, period time.Duration) int64 {
	if remaining <= 0 || period <= 0 || yearlyDiff <= 0 {
		return 0
	}
	if remaining > period {
		remaining = period
	}
	return int64(math.Round(float64(yearlyDiff) * float64(remaining) / float64(period)))
}

// minimumCharges are the smallest amounts a card payment provider charges
// (Stripe's minimums), in minor units, by currency.
var minimumCharges = map[string]int64{
	"EUR": 50, "USD": 50, "CHF": 50, "GBP": 30, "DKK": 250, "NOK": 300, "SEK": 300, "PLN": 200, "HUF": 17500,
}

// MinimumCharge is the smallest total a payment provider takes in currency.
// An upgrade prorated below it (the last hours of a period) is not charged:
// the plan changes at once and the invoice shows the amount waived.
func MinimumCharge(currency string) int64 {
	if m, ok := minimumCharges[currency]; ok {
		return m
	}
	return 50
}

// notInCents are the currencies whose amounts are not counted in hundredths
// at the payment provider: ISO 4217's with no minor unit or with three
// decimals, and those Stripe takes without decimals (MGA) or as whole units
// written in cents (ISK). Kudos counts every price, invoice and charge in
// hundredths (Money), so in these a price would be charged a hundred times
// (or a tenth of) what its invoice says.
var notInCents = map[string]bool{
	"BIF": true, "CLP": true, "DJF": true, "GNF": true, "ISK": true, "JPY": true, "KMF": true, "KRW": true, "MGA": true,
	"PYG": true, "RWF": true, "UGX": true, "UYI": true, "VND": true, "VUV": true, "XAF": true, "XOF": true, "XPF": true,
	"BHD": true, "IQD": true, "JOD": true, "KWD": true, "LYD": true, "OMR": true, "TND": true, "CLF": true, "UYW": true,
}

// CountsInCents reports whether amounts of currency (an upper-case ISO 4217
// code) are hundredths at the payment provider, as Money counts them.
func CountsInCents(currency string) bool { return !notInCents[currency] }

// VerificationCharge is what adding a payment method charges, in minor
// units of the account's currency, and refunds at once (SPEC §9: 0.01):
// the sandbox's verification. Stripe refuses charges under its minimum, so
// there the setup's check with the bank is the verification.
const VerificationCharge = 1
