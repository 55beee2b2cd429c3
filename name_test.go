package kudos

import (
	"strings"
	"testing"
)

// TestNamesRefuseControlCharacters: a line break, a tab or a bidi override
// in a name would let it pose as the text of the mails it appears in.
func TestNamesRefuseControlCharacters(t *testing.T) {
	for _, name := range []string{"Ann\nClick here", "Ann\r\nBcc: x", "Ann\tB", "Ann\u202eB", "Ann\u2028B", "Ann\x1bB"} {
		if ValidateName(name) != FInvalidValue {
			t.Errorf("%q accepted", name)
		}
	}
	for _, name := range []string{"Ann", "Zoë O'Brien-Smith", "李 小龙", "J.R.R."} {
		if code := ValidateName(name); code != "" {
			t.Errorf("%q refused: %s", name, code)
		}
	}
}

// TestAccountAndAddressFieldsRefuseControlCharacters: the account name and
// every billing-address field appear in mails, on invoices and in the
// timeline like a person's name does, so a line break or a bidi override is
// refused there too (issue 27 item 13: only the names were checked).
func TestAccountAndAddressFieldsRefuseControlCharacters(t *testing.T) {
	bad := []string{"Acme\nClick here", "Acme\u202eBV", "Acme\u2066x\u2069", "Acme\tBV", "Acme\u2028BV", "Acme\x1bBV", "Acme\u200fBV"}
	for _, v := range bad {
		if ValidateAccountName(v) != FInvalidValue {
			t.Errorf("account name %q accepted", v)
		}
	}
	good := BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Main 1", PostalCode: "1000 AA",
		City: "Amsterdam", Region: "NH", Country: "nl_NL"}
	if err := good.Validate(); err != nil {
		t.Fatalf("a plain address refused: %v", err)
	}
	fields := map[string]func(*BillingAddress) *string{
		"organization_name": func(a *BillingAddress) *string { return &a.OrganizationName },
		"street_and_number": func(a *BillingAddress) *string { return &a.StreetAndNumber },
		"street_additional": func(a *BillingAddress) *string { return &a.StreetAdditional },
		"postal_code":       func(a *BillingAddress) *string { return &a.PostalCode },
		"city":              func(a *BillingAddress) *string { return &a.City },
		"region":            func(a *BillingAddress) *string { return &a.Region },
	}
	for field, at := range fields {
		for _, v := range bad {
			a := good
			*at(&a) = v
			var fields map[string]string
			if e, ok := a.Validate().(*Error); ok {
				fields = e.Fields
			}
			if fields[field] != FInvalidValue {
				t.Errorf("%s = %q: got %v, want %s refused", field, v, a.Validate(), field)
			}
		}
	}
	for _, v := range []string{"Zoë & Co.", "李 小龙 有限公司", "Rue de l'Église 4"} {
		if code := ValidateAccountName(v); code != "" {
			t.Errorf("account name %q refused: %s", v, code)
		}
	}
}

// TestValidatePasskeyName: a passkey's name is required, one line, at most
// 60 characters.
func TestValidatePasskeyName(t *testing.T) {
	for name, want := range map[string]string{
		"Laptop":                "",
		"":                      FRequired,
		"   ":                   FRequired,
		"a\nb":                  FInvalidValue,
		"a\u202eb":              FInvalidValue,
		strings.Repeat("é", 60): "",
		strings.Repeat("é", 61): FTooLong,
	} {
		if got := ValidatePasskeyName(name); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}
