package mailer

import (
	"strconv"
	"strings"
	"time"

	"kudos"
)

// formatMoney writes an amount as lang does (kudos.FormatMoney).
func formatMoney(m kudos.Money, lang string) string { return kudos.FormatMoney(m, lang) }

// monthNames are the months of each language, January first.
var monthNames = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"nl": {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
}

// formatDate writes the UTC day of t as lang does: 5 March 2027, 5 maart
// 2027, 5 mars 2027 (1er mars: French writes the first of a month as an
// ordinal).
func formatDate(t time.Time, lang string) string {
	months, ok := monthNames[lang]
	if !ok {
		months = monthNames[languages[0]]
	}
	t = t.UTC()
	day := strconv.Itoa(t.Day())
	if lang == "fr" && t.Day() == 1 {
		day = "1er"
	}
	return day + " " + months[t.Month()-1] + " " + strconv.Itoa(t.Year())
}

// planName is how a mail names a plan: the product's names are the same in
// every language.
func planName(p kudos.Plan) string {
	s := strings.ToLower(string(p))
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
