package invoicepdf

import (
	"strconv"
	"strings"
	"time"

	"kudos"
)

// money formats an amount as the invoice's language writes it
// (kudos.FormatMoney, as the mails do), with the narrow no-break space of
// French digit groups as the no-break space the core fonts have.
func money(minor int64, currency, lang string) string {
	return strings.ReplaceAll(kudos.FormatMoney(kudos.Money{Amount: minor, Currency: currency}, lang), "\u202f", "\u00a0")
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
