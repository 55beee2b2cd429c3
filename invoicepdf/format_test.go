package invoicepdf

import (
	"testing"

	"kudos"
)

func TestMoney(t *testing.T) {
	tests := []struct {
		minor          int64
		currency, lang string
		want           string
	}{
		{0, "EUR", "en", "€0.00"},
		{5, "EUR", "nl", "0,05 €"},
		{99999, "GBP", "en", "£999.99"},
		{100000, "gbp", "fr", "1.000,00 £"},
		{123456789, "USD", "en", "$1,234,567.89"},
		{123456789, "USD", "nl", "1.234.567,89 $"},
		{-150, "EUR", "en", "-€1.50"},
		{-150, "EUR", "fr", "-1,50 €"},
		{250000, "SEK", "en", "SEK 2,500.00"},
		{250000, "CHF", "nl", "2.500,00 CHF"},
		{1, "", "en", "0.01"},
	}
	for _, tt := range tests {
		if got := money(tt.minor, tt.currency, tt.lang); got != tt.want {
			t.Errorf("money(%d, %q, %q) = %q, want %q", tt.minor, tt.currency, tt.lang, got, tt.want)
		}
	}
}

func TestRate(t *testing.T) {
	for _, tt := range []struct {
		pct        float64
		lang, want string
	}{{21, "en", "21%"}, {25.5, "en", "25.5%"}, {25.5, "nl", "25,5%"}, {8.1, "fr", "8,1 %"}, {0, "fr", "0 %"}} {
		if got := rate(tt.pct, tt.lang); got != tt.want {
			t.Errorf("rate(%v, %q) = %q, want %q", tt.pct, tt.lang, got, tt.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	for in, want := range map[string]string{"en": "en", "nl": "nl", "FR": "fr", "fr_BE": "fr", "nl-NL": "nl",
		"de": "en", "": "en"} {
		if got := language(in); got != want {
			t.Errorf("language(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every label and every billing country must exist in every language, or
// the invoice would show a blank.
func TestTranslationsComplete(t *testing.T) {
	for _, lang := range []string{"en", "nl", "fr"} {
		for l := label(0); l < labelCount; l++ {
			if labels[lang][l] == "" {
				t.Errorf("%s: label %d missing", lang, l)
			}
		}
		if len(labels[lang]) != int(labelCount) {
			t.Errorf("%s: %d labels, want %d", lang, len(labels[lang]), labelCount)
		}
		for _, c := range kudos.Countries {
			if got := countryName(c, lang); got == c {
				t.Errorf("%s: no name for country %s", lang, c)
			}
		}
	}
	if got := countryName("xx_YY", "en"); got != "xx_YY" {
		t.Errorf("unknown country shown as %q, want it as given", got)
	}
}

func TestDescribeFreeText(t *testing.T) {
	for in, want := range map[string]string{"TEAM": "Team plan — 1 year", "UPGRADE_STARTER": "Upgrade to Starter",
		"Renewal TEAM": "Renewal of the Team plan", "Payment method check": "Payment method check"} {
		if got := describe(kudos.Invoice{Description: in}, "en"); got != want {
			t.Errorf("describe(%q) = %q, want %q", in, got, want)
		}
	}
}
