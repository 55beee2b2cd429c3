package kudos

import "testing"

// The separators of French and Dutch amounts are no-break spaces, so that an
// amount never breaks across lines: U+202F (narrow) between groups of digits
// in French, U+00A0 between the number and its currency.
const (
	nbsp   = "\u00a0"
	narrow = "\u202f"
)

func TestFormatMoney(t *testing.T) {
	tests := []struct {
		minor          int64
		currency, lang string
		want           string
	}{
		{21780, "EUR", "en", "€217.80"},
		{21780, "EUR", "nl", "€" + nbsp + "217,80"},
		{21780, "EUR", "fr", "217,80" + nbsp + "€"},
		{123456, "EUR", "en", "€1,234.56"},
		{123456, "EUR", "nl", "€" + nbsp + "1.234,56"},
		{123456, "EUR", "fr", "1" + narrow + "234,56" + nbsp + "€"},
		{123456789, "USD", "en", "$1,234,567.89"},
		{123456789, "usd", "nl", "$" + nbsp + "1.234.567,89"},
		{123456789, "GBP", "fr", "1" + narrow + "234" + narrow + "567,89" + nbsp + "£"},
		{0, "EUR", "en", "€0.00"},
		{5, "EUR", "fr", "0,05" + nbsp + "€"},
		{100000, "GBP", "en", "£1,000.00"},
		{99999, "EUR", "nl", "€" + nbsp + "999,99"},
		{250000, "SEK", "en", "SEK" + nbsp + "2,500.00"},
		{250000, "CHF", "nl", "CHF" + nbsp + "2.500,00"},
		{250000, "CHF", "fr", "2" + narrow + "500,00" + nbsp + "CHF"},
		{-150, "EUR", "en", "-€1.50"},
		{-150, "EUR", "fr", "-1,50" + nbsp + "€"},
		{1, "", "en", "0.01"},
		{1, "", "xx", "0.01"},
	}
	for _, tt := range tests {
		if got := FormatMoney(Money{Amount: tt.minor, Currency: tt.currency}, tt.lang); got != tt.want {
			t.Errorf("FormatMoney(%d %s, %s) = %q, want %q", tt.minor, tt.currency, tt.lang, got, tt.want)
		}
	}
}
