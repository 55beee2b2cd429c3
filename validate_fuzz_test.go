package kudos_test

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"kudos"
)

// Fuzz targets for the validators of outside input. Each checks that the
// verdict is stable, that the code is one of the field codes the rule may
// give, and that whatever is accepted really keeps the rule, and can be
// stored (valid UTF-8, no NUL, which Postgres refuses).

// storable reports whether s can be kept in a text column.
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"Ada", "", "  ", "Ann\x00", "\xff", strings.Repeat("é", 101), "<script>", "'; DROP TABLE users; --"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code := kudos.ValidateName(s)
		if code != kudos.ValidateName(s) {
			t.Fatalf("unstable verdict for %q", s)
		}
		if !slices.Contains([]string{"", kudos.FRequired, kudos.FTooLong, kudos.FInvalidValue}, code) {
			t.Fatalf("ValidateName(%q) = unexpected code %q", s, code)
		}
		if code == "" && (strings.TrimSpace(s) == "" || !storable(s) || utf8.RuneCountInString(s) > kudos.NameMaxLength) {
			t.Fatalf("accepted %q", s)
		}
	})
}

func FuzzValidateAccountName(f *testing.F) {
	for _, s := range []string{"Acme", "ab", " abc ", "a\x00c", "\xc3\x28ab", strings.Repeat("x", 100), strings.Repeat("x", 101)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code := kudos.ValidateAccountName(s)
		if code != kudos.ValidateAccountName(strings.TrimSpace(s)) {
			t.Fatalf("verdict for %q changes when trimmed", s)
		}
		if !slices.Contains([]string{"", kudos.FRequired, kudos.FTooShort, kudos.FTooLong, kudos.FInvalidValue}, code) {
			t.Fatalf("ValidateAccountName(%q) = unexpected code %q", s, code)
		}
		n := utf8.RuneCountInString(strings.TrimSpace(s))
		if code == "" && (!storable(s) || n < kudos.AccountNameMinLength || n > kudos.NameMaxLength) {
			t.Fatalf("accepted %q", s)
		}
	})
}

// vatID is SPEC §5, written out independently of the validator.
var vatID = regexp.MustCompile(`^[A-Z][A-Z][A-Z0-9]{8,12}$`)

// addressFields are the payload names of a billing address.
var addressFields = []string{"organization_name", "street_and_number", "street_additional", "postal_code", "city", "region", "country", "vat_id"}

// fieldErrors returns the fields of a validation error (nil for nil) and
// fails unless err is an EInvalid error naming only known fields with codes.
func fieldErrors(t *testing.T, err error, known []string) map[string]string {
	t.Helper()
	if err == nil {
		return nil
	}
	var kerr *kudos.Error
	if !errors.As(err, &kerr) || kerr.Code != kudos.EInvalid || len(kerr.Fields) == 0 {
		t.Fatalf("not a validation error: %v", err)
	}
	for field, code := range kerr.Fields {
		if !slices.Contains(known, field) || code == "" {
			t.Fatalf("unknown field or empty code: %v", kerr.Fields)
		}
	}
	return kerr.Fields
}

func FuzzBillingAddress(f *testing.F) {
	f.Add("Acme NV", "Main 1", "", "1000", "Brussels", "Brussels", "nl_BE", "BE0123456789")
	f.Add("AB", "", "BLANK", " ", "x\x00", "\xff", "xx_XX", "be123")
	f.Add(" Acme ", "Main 1", "Box 2", "1000", "Brussels", "Brussels", " fr_FR ", "FR12345678901234")
	f.Fuzz(func(t *testing.T, org, street, additional, postal, city, region, country, vat string) {
		a := kudos.BillingAddress{OrganizationName: org, StreetAndNumber: street, StreetAdditional: additional,
			PostalCode: postal, City: city, Region: region, Country: country, VATID: vat}
		a.Normalize()
		again := a
		again.Normalize()
		if again != a {
			t.Fatalf("Normalize is not idempotent: %+v then %+v", a, again)
		}
		fields := fieldErrors(t, a.Validate(), addressFields)
		if !maps.Equal(fields, fieldErrors(t, a.Validate(), addressFields)) {
			t.Fatalf("unstable verdict for %+v", a)
		}
		if fields != nil {
			return
		}
		for _, v := range []string{a.OrganizationName, a.StreetAndNumber, a.PostalCode, a.City, a.Region} {
			if v == "" || !storable(v) || utf8.RuneCountInString(v) > kudos.NameMaxLength {
				t.Fatalf("accepted %+v", a)
			}
		}
		if !storable(a.StreetAdditional) || !kudos.ValidCountry(a.Country) || a.VATID != "" && !vatID.MatchString(a.VATID) {
			t.Fatalf("accepted %+v", a)
		}
	})
}

func FuzzFeatureRequest(f *testing.F) {
	f.Add("OTHER", "OTHER", "dark mode")
	f.Add("PRODUCT_NUKES", "CEO", "")
	f.Add("SUPPORT", "DEVELOPER", "x\x00y")
	f.Add("PRODUCT_TEAM", "DESIGNER", strings.Repeat("é", 5001))
	f.Fuzz(func(t *testing.T, area, profile, description string) {
		r := kudos.FeatureRequest{Area: area, Profile: profile, Description: description}
		known := []string{"feature_area", "feature_profile", "feature_description"}
		fields := fieldErrors(t, r.Validate(), known)
		if !maps.Equal(fields, fieldErrors(t, r.Validate(), known)) {
			t.Fatalf("unstable verdict for %+v", r)
		}
		if fields != nil {
			return
		}
		d := strings.TrimSpace(description)
		if !slices.Contains(kudos.FeatureAreas, area) || !slices.Contains(kudos.FeatureProfiles, profile) ||
			d == "" || !storable(d) || utf8.RuneCountInString(d) > kudos.FeatureDescriptionMaxLength {
			t.Fatalf("accepted %+v", r)
		}
	})
}
