package mailer

import (
	"strconv"
	"strings"
	"time"

	"kudos"
)

// currencySymbols are the symbols of SPEC §9; other currencies are shown by
// their ISO code, so that an amount never appears without its currency.
var currencySymbols = map[string]string{"EUR": "€", "USD": "$", "GBP": "£"}

// numberStyle is how a language writes an amount: its separators and where
// the currency goes.
type numberStyle struct {
	thousands, decimal string
	// symbolFirst puts the currency before the number; space separates
	// them (always for an ISO code).
	symbolFirst bool
	space       string
}

// Separators are no-break spaces, so that an amount never breaks across
// lines: U+202F (narrow) between French digit groups, U+00A0 between a
// number and its currency.
var numberStyles = map[string]numberStyle{
	"en": {thousands: ",", decimal: ".", symbolFirst: true},
	"nl": {thousands: ".", decimal: ",", symbolFirst: true, space: "\u00a0"},
	"fr": {thousands: "\u202f", decimal: ",", space: "\u00a0"},
}

// formatMoney writes an amount in minor units (two decimals) as lang does:
// €1,234.56 (en), € 1.234,56 (nl), 1 234,56 € (fr); an ISO code stands in
// for a currency without a symbol (SEK 2,500.00).
func formatMoney(m kudos.Money, lang string) string {
	st, ok := numberStyles[lang]
	if !ok {
		st = numberStyles[languages[0]]
	}
	cur := strings.ToUpper(strings.TrimSpace(m.Currency))
	sym, ok := currencySymbols[cur]
	space := st.space
	if !ok {
		sym, space = cur, "\u00a0"
	}
	minor, sign := m.Amount, ""
	if minor < 0 {
		minor, sign = -minor, "-"
	}
	cents := strconv.FormatInt(100+minor%100, 10)[1:]
	n := groupDigits(strconv.FormatInt(minor/100, 10), st.thousands) + st.decimal + cents
	if st.symbolFirst {
		return sign + sym + space + n
	}
	return sign + n + space + sym
}

// groupDigits puts sep between groups of three digits, from the right.
func groupDigits(digits, sep string) string {
	var b strings.Builder
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}

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
