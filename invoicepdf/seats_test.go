package invoicepdf

import (
	"testing"

	"kudos"
)

// TestSeatsHaveTheirOwnLine (issue 38 item 2): a Team invoice with extra
// seats prints the plan and the seats as two lines, in each language, with
// the invoice's totals under them.
func TestSeatsHaveTheirOwnLine(t *testing.T) {
	inv := invoice("EUR", 21)
	inv.Kind, inv.Plan, inv.Description = kudos.InvoiceRenewal, kudos.PlanTeam, "Renewal TEAM"
	inv.Lines = kudos.PriceList{Team: 118800, Seat: 10800}.YearLines(kudos.PlanTeam, 3)
	inv.Net = kudos.LinesNet(inv.Lines)
	inv.VAT, inv.Total = kudos.AddVAT(inv.Net, 21)
	want := map[string][]string{
		"en": {"Renewal of the Team plan", "3 extra seats", "1,188.00", "324.00", "1,512.00"},
		"nl": {"Verlenging van het", "3 extra plaatsen", "1.188,00", "324,00", "1.512,00"},
		"fr": {"Renouvellement de la formule Team", "3 places supplémentaires", "324,00"},
	}
	for lang, parts := range want {
		_, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_BE"), Language: lang})
		contains(t, text, parts...)
	}
}
