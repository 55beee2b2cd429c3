package invoicepdf

import (
	"fmt"

	"kudos"
)

// row draws one row of the table at y: its description, wrapped in the
// first column, and its amounts right-aligned in the others; it returns
// where the row ends.
func (d *doc) row(y float64, description string, amounts []string) float64 {
	x := margin + cols[0]
	for i, a := range amounts {
		d.pdf.SetXY(x, y)
		d.text(cols[i+1], lineH, a, "R", false)
		x += cols[i+1]
	}
	return d.wrap(margin, y, cols[0], description, "L") + 2
}

// invoiceLines draws an invoice of several lines (issue 38: a Team plan's
// extra seats on their own): each line's net and the VAT rate; the VAT,
// computed on the sum of the lines, and the totals are under the table.
func (d *doc) invoiceLines(inv kudos.Invoice, y float64) float64 {
	for _, l := range inv.Lines {
		y = d.row(y, lineText(inv, l, d.lang), []string{money(l.Net, inv.Currency, d.lang), rate(inv.VATRate, d.lang), "", ""})
	}
	return y
}

// lineText describes line l of invoice inv in lang: the plan's line as the
// invoice's description, the seats with their count and yearly price.
func lineText(inv kudos.Invoice, l kudos.InvoiceLine, lang string) string {
	t := labels[lang]
	if t == nil {
		t = labels["en"]
	}
	switch l.Kind {
	case kudos.LineSeats:
		return fmt.Sprintf(t[lSeats], l.Quantity, money(l.UnitNet, inv.Currency, lang))
	case kudos.LinePlan:
		return describe(inv, lang)
	}
	return string(l.Kind)
}
