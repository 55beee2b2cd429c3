package kudos

import (
	"strconv"
	"strings"
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

// FormatMoney writes an amount (minor units, two decimals) as lang writes
// it: €1,234.56 (en), € 1.234,56 (nl), 1 234,56 € (fr); an ISO code stands
// in for a currency without a symbol (SEK 2,500.00), and an amount without
// a currency is the number alone. Other languages are written as English.
// Mails and invoice PDFs use it, so that both write an amount alike.
func FormatMoney(m Money, lang string) string {
	st, ok := numberStyles[lang]
	if !ok {
		st = numberStyles["en"]
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
	switch {
	case sym == "":
		return sign + n
	case st.symbolFirst:
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
