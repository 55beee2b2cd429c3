package mailer

import (
	"testing"
	"time"

	"kudos"
)

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

// The separators of French and Dutch amounts are no-break spaces
// (kudos.FormatMoney): U+202F (narrow) between groups of digits in French,
// U+00A0 between the number and its currency.
const (
	nbsp   = "\u00a0"
	narrow = "\u202f"
)
