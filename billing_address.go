package kudos

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Countries are the 21 locale codes a billing address may name (SPEC §3).
var Countries = []string{"nl_BE", "fr_BE", "nl_NL", "fr_FR", "en_GB", "de_DE", "de_AT", "de_CH", "es_ES", "ca_ES",
	"pt_PT", "it_IT", "nb_NO", "sv_SE", "fi_FI", "da_DK", "is_IS", "hu_HU", "pl_PL", "lv_LV", "lt_LT"}

// vatIDPattern is SPEC §5: two uppercase letters, then 8 to 12 uppercase
// letters or digits.
var vatIDPattern = regexp.MustCompile(`^[A-Z]{2}[A-Z0-9]{8,12}$`)

// BillingAddress is the organization an account's invoices are made out to.
// Version increases with every change: a change based on an older version is
// an edit conflict.
type BillingAddress struct {
	OrganizationName string `json:"organization_name"`
	StreetAndNumber  string `json:"street_and_number"`
	StreetAdditional string `json:"street_additional,omitempty"`
	PostalCode       string `json:"postal_code"`
	City             string `json:"city"`
	Region           string `json:"region"`
	Country          string `json:"country"`
	VATID            string `json:"vat_id,omitempty"`
	// VATIDStatus is how far VATID has been checked against VIES; it is the
	// server's to set (a client's value is ignored).
	VATIDStatus VATIDStatus `json:"vat_id_status"`
	Version     int         `json:"version"`
}

// Normalize trims every field and treats the literal BLANK as empty (SPEC §9);
// the VAT id is normalised as NormalizeVATID says.
func (a *BillingAddress) Normalize() {
	for _, f := range []*string{&a.OrganizationName, &a.StreetAndNumber, &a.StreetAdditional, &a.PostalCode,
		&a.City, &a.Region, &a.Country, &a.VATID} {
		*f = strings.TrimSpace(*f)
		if *f == "BLANK" {
			*f = ""
		}
	}
	a.VATID = NormalizeVATID(a.VATID)
}

// NormalizeVATID writes a VAT id as people type it ("BE 0123.456.789",
// "nl123456789b01", with dashes) the way SPEC §5's pattern and VIES read
// it (issue 37): spaces, dots and dashes dropped, upper-cased. What is
// left is then checked against the pattern, and stored so.
func NormalizeVATID(id string) string {
	return strings.ToUpper(strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, id))
}

// Validate checks the SPEC §5 rules and returns the field errors, if any.
func (a *BillingAddress) Validate() error {
	fe := FieldErrors{}
	if code := ValidateAccountName(a.OrganizationName); code != "" {
		fe.Add("organization_name", code)
	}
	for field, v := range map[string]string{"street_and_number": a.StreetAndNumber, "postal_code": a.PostalCode,
		"city": a.City, "region": a.Region} {
		switch {
		case v == "":
			fe.Add(field, FRequired)
		case !lineText(v):
			fe.Add(field, FInvalidValue)
		case utf8.RuneCountInString(v) > NameMaxLength:
			fe.Add(field, FTooLong)
		}
	}
	switch {
	case !lineText(a.StreetAdditional):
		fe.Add("street_additional", FInvalidValue)
	case utf8.RuneCountInString(a.StreetAdditional) > NameMaxLength:
		fe.Add("street_additional", FTooLong)
	}
	switch {
	case a.Country == "":
		fe.Add("country", FRequired)
	case !ValidCountry(a.Country):
		fe.Add("country", FInvalidCountry)
	}
	if a.VATID != "" && (!vatIDPattern.MatchString(a.VATID) || !vatIDOfCountry(a.VATID, a.Country)) {
		fe.Add("vat_id", FInvalidVATID)
	}
	return fe.Err()
}

// vatIDOfCountry reports whether an EU VAT id's prefix names the billing
// country's member state (Greece's is EL): VIES checks the id in the state
// of its prefix, and reverse charge is decided by the billing country, so
// the two must agree. Ids of countries outside the EU are not checked.
func vatIDOfCountry(vatID, country string) bool {
	cc := CountryCode(country)
	if !IsEUMember(cc) {
		return true
	}
	prefix := vatID[:2]
	if prefix == "EL" {
		prefix = "GR"
	}
	return prefix == cc
}

// ValidCountry reports whether c is one of Countries.
func ValidCountry(c string) bool { return contains(Countries, c) }
