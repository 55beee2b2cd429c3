package invoicepdf

import (
	"strconv"
	"strings"
	"time"
)

// currencySymbols are the symbols of SPEC §9. Other currencies are shown by
// their ISO code: an invoice amount must never appear without its currency.
var currencySymbols = map[string]string{"EUR": "€", "USD": "$", "GBP": "£"}

// money formats an amount in minor units with two decimals and its
// currency: €1,234.56 in English, 1.234,56 € in Dutch and French. ISO codes
// are separated by a space in English (SEK 1,234.56).
func money(minor int64, currency, lang string) string {
	cur := strings.ToUpper(strings.TrimSpace(currency))
	sym, ok := currencySymbols[cur]
	if !ok {
		sym = cur
	}
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	thousands, decimal := ",", "."
	if lang != "en" {
		thousands, decimal = ".", ","
	}
	units := group(strconv.FormatInt(minor/100, 10), thousands)
	n := units + decimal + twoDigits(minor%100)
	switch {
	case sym == "":
		return sign + n
	case lang != "en":
		return sign + n + " " + sym
	case ok:
		return sign + sym + n
	}
	return sign + sym + " " + n
}

// group inserts sep between every three digits from the right.
func group(digits, sep string) string {
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(d)
	}
	return b.String()
}

// twoDigits pads n (0–99) to two digits.
func twoDigits(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// rate formats a VAT rate in percent with the language's decimal mark and
// only the decimals it needs: 21%, 25.5% / 25,5%; French puts a space
// before the percent sign (21 %).
func rate(pct float64, lang string) string {
	s := strconv.FormatFloat(pct, 'f', -1, 64)
	if lang == "fr" {
		return strings.Replace(s, ".", ",", 1) + " %"
	}
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + "%"
}

// date formats an issue date as day/month/four-digit year, in UTC so the
// printed day does not depend on the server's time zone.
func date(t time.Time) string { return t.UTC().Format("02/01/2006") }
