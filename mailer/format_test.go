package mailer

import (
	"testing"
	"time"

	"kudos"
)

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
	}
	for _, tt := range tests {
		if got := formatMoney(kudos.Money{Amount: tt.minor, Currency: tt.currency}, tt.lang); got != tt.want {
			t.Errorf("formatMoney(%d %s, %s) = %q, want %q", tt.minor, tt.currency, tt.lang, got, tt.want)
		}
	}
}

func TestFormatDate(t *testing.T) {
	brussels, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		brussels = time.FixedZone("CET", 3600)
	}
	march5 := time.Date(2027, 3, 5, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		t    time.Time
		lang string
		want string
	}{
		{march5, "en", "5 March 2027"},
		{march5, "nl", "5 maart 2027"},
		{march5, "fr", "5 mars 2027"},
		{time.Date(2027, 8, 1, 0, 0, 0, 0, time.UTC), "fr", "1er août 2027"},
		{time.Date(2027, 8, 1, 0, 0, 0, 0, time.UTC), "nl", "1 augustus 2027"},
		{time.Date(2027, 12, 31, 23, 59, 0, 0, time.UTC), "en", "31 December 2027"},
		{time.Date(2028, 2, 11, 0, 0, 0, 0, time.UTC), "fr", "11 février 2028"},
		// In UTC, whatever the zone of the time: 00:30 in Brussels on
		// 6 March is still 5 March in UTC.
		{time.Date(2027, 3, 6, 0, 30, 0, 0, brussels), "en", "5 March 2027"},
	}
	for _, tt := range tests {
		if got := formatDate(tt.t, tt.lang); got != tt.want {
			t.Errorf("formatDate(%v, %s) = %q, want %q", tt.t, tt.lang, got, tt.want)
		}
	}
}

func TestFormatPlan(t *testing.T) {
	for in, want := range map[kudos.Plan]string{kudos.PlanStarter: "Starter", kudos.PlanPro: "Pro", kudos.PlanTeam: "Team", kudos.PlanTrial: "Trial"} {
		if got := planName(in); got != want {
			t.Errorf("planName(%s) = %q, want %q", in, got, want)
		}
	}
}
