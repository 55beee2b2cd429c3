package invoicepdf

import (
	"testing"

	"kudos"
)

// TestMoney: amounts are kudos.FormatMoney's, with the narrow no-break
// space of French digit groups as the no-break space the core fonts have.
func TestMoney(t *testing.T) {
	if got, want := money(123456789, "GBP", "fr"), "1\u00a0234\u00a0567,89\u00a0£"; got != want {
		t.Errorf("money = %q, want %q", got, want)
	}
	if got, want := money(123456, "EUR", "nl"), kudos.FormatMoney(kudos.Money{Amount: 123456, Currency: "EUR"}, "nl"); got != want {
		t.Errorf("money = %q, want %q", got, want)
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
