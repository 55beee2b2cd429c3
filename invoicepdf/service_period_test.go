package invoicepdf

import (
	"strings"
	"testing"
	"time"

	"kudos"
)

// TestServicePeriod (issue 34, item 11): an invoice prints the period of
// the plan it pays for (Art. 226(7) VAT Directive: the date of the supply)
// in each language, and a credit note its invoice's; an invoice without one
// (from before it was kept) prints no such line.
func TestServicePeriod(t *testing.T) {
	want := map[string]string{"en": "Service period", "nl": "Periode van de dienst", "fr": "Période de service"}
	for lang, label := range want {
		for name, inv := range map[string]kudos.Invoice{"invoice": invoice("EUR", 21), "credit note": creditNote()} {
			_, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_BE"), Language: lang})
			contains(t, text, label, "05/03/2026 – 04/03/2027")
			_ = name
		}
		bare := invoice("EUR", 21)
		bare.Service = nil
		if _, text := render(t, Input{Invoice: bare, Language: lang}); strings.Contains(text, label) {
			t.Errorf("%s: an invoice without a period prints %q", lang, label)
		}
	}
}

// servicePeriod is the year of the test invoices: a plan paid on issued.
var servicePeriod = &kudos.ServicePeriod{From: issued, To: time.Date(2027, 3, 4, 10, 30, 0, 0, time.UTC)}
