package invoicepdf

import (
	"fmt"

	"kudos"
)

// discountLabels name a promotion code's line (issue 38) in each supported
// language; %s is the code.
var discountLabels = map[string]string{
	"en": "Promotion code %s",
	"nl": "Promotiecode %s",
	"fr": "Code promo %s",
}

// planNet is the net shown on the plan's own line: its price before the
// promotion code's discount (the invoice's Net is after it).
func planNet(inv kudos.Invoice) int64 {
	if inv.Discount == nil {
		return inv.Net
	}
	return inv.Net + inv.Discount.Amount
}

// discountRow draws the promotion code's line under the plan's, at y, the
// amount taken off in the net column (VAT is computed on the subtotal,
// after it), and returns where the table goes on; nothing without one.
func (d *doc) discountRow(inv kudos.Invoice, y float64) float64 {
	if inv.Discount == nil {
		return y
	}
	label, ok := discountLabels[d.lang]
	if !ok {
		label = discountLabels["en"]
	}
	d.font("", 10, 30)
	d.pdf.SetXY(margin+cols[0], y)
	d.text(cols[1], lineH, "-"+money(inv.Discount.Amount, inv.Currency, d.lang), "R", false)
	return d.wrap(margin, y, cols[0], fmt.Sprintf(label, inv.Discount.Code), "L") + 2
}
