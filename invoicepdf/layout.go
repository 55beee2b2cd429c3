package invoicepdf

import (
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"

	"kudos"
)

// doc draws one invoice page; every text passes through encodeCP1252.
type doc struct {
	pdf  *fpdf.Fpdf
	t    map[label]string
	lang string
	// proForma is set for an invoice not final yet (its checkout open):
	// titled pro forma, with no number, marked as not yet paid.
	proForma bool
	// request is set for a due invoice not numbered (issue 34): a payment
	// request, titled so, numbered only once paid.
	request bool
	// creditNote is set for a credit note (issue 30): titled so, with the
	// invoice it corrects, its negative amounts credited.
	creditNote bool
}

// title is the document's title.
func (d *doc) title() string {
	switch {
	case d.proForma:
		return d.t[lProForma]
	case d.request:
		return d.t[lPaymentRequest]
	case d.creditNote:
		return d.t[lCreditNote]
	}
	return d.t[lTitle]
}

// Table column widths (mm): description, net, VAT rate, VAT, total.
var cols = [5]float64{60, 30, 20, 30, 30}

// text draws s in a cell of width w at the current position.
func (d *doc) text(w, h float64, s, align string, fill bool) {
	d.pdf.CellFormat(w, h, encodeCP1252(s), "", 0, align, fill, 0, "")
}

// font sets the Helvetica style and size and the text grey level.
func (d *doc) font(style string, size float64, grey int) {
	d.pdf.SetFont("Helvetica", style, size)
	d.pdf.SetTextColor(grey, grey, grey)
}

// wrap draws s at x within width w, wrapped onto as many lines as needed,
// and returns the y below it.
func (d *doc) wrap(x, y, w float64, s, align string) float64 {
	for _, line := range d.pdf.SplitLines([]byte(encodeCP1252(s)), w) {
		d.pdf.SetXY(x, y)
		d.pdf.CellFormat(w, lineH, string(line), "", 0, align, false, 0, "")
		y += lineH
	}
	return y
}

// issueDate is the date inv was issued: numbered (an invoice when paid, a
// credit note when made); a draft's (pro-forma, payment request) is when it
// was made.
func issueDate(inv kudos.Invoice) time.Time {
	if !inv.IssuedAt.IsZero() {
		return inv.IssuedAt
	}
	return inv.CreatedAt
}

// header draws the title and the number, date and status block.
func (d *doc) header(inv kudos.Invoice) {
	d.pdf.SetXY(margin, margin)
	d.font("B", 26, 30)
	d.text(90, 12, d.title(), "L", false)

	rows := [][2]string{
		{d.t[lNumber], numberOrDash(inv.Number)},
		{d.t[lIssueDate], date(issueDate(inv))},
	}
	if d.creditNote {
		rows[0][0] = d.t[lCreditNoteNumber]
		rows = append(rows, [2]string{d.t[lCorrects], numberOrDash(inv.CorrectsNumber)})
	}
	if p := inv.Service; p != nil { // Art. 226(7) VAT Directive: when the supply was made
		rows = append(rows, [2]string{d.t[lServicePeriod], date(p.From) + " – " + date(p.To)})
	}
	rows = append(rows, [2]string{d.t[lStatus], statusText(inv.Status, d.lang)})
	y := margin + 1
	for i, r := range rows {
		d.pdf.SetXY(110, y)
		d.font("", 9, 110)
		d.text(35, lineH+1, r[0], "L", false)
		d.font("B", 10, 30)
		if i == len(rows)-1 {
			d.statusColour(inv.Status)
		}
		d.text(45, lineH+1, r[1], "R", false)
		y += lineH + 1
	}
}

// statusColour marks paid invoices green and unpaid ones amber, so the
// status is readable at a glance on a printed page.
func (d *doc) statusColour(s kudos.InvoiceStatus) {
	switch s {
	case kudos.InvoicePaid:
		d.pdf.SetTextColor(20, 120, 60)
	case kudos.InvoiceDue:
		d.pdf.SetTextColor(190, 100, 0)
	}
}

// parties draws the seller and buyer blocks side by side. registration is
// the seller's VAT id outside the EU the invoice's VAT is charged under
// ("": none), printed under its own.
func (d *doc) parties(s Seller, registration string, buyer *kudos.BillingAddress, email string) {
	const top = 55.0
	left := d.block(margin, top, d.t[lFrom], s.Name, []string{
		s.Street, join(" ", s.PostalCode, s.City), countryName(s.Country, d.lang),
		prefixed(d.t[lVATID], s.VATID), prefixed(d.t[lVATID], registration), s.Email,
	})
	var right float64
	if buyer == nil {
		right = d.block(110, top, d.t[lBilledTo], email, nil)
	} else {
		right = d.block(110, top, d.t[lBilledTo], buyer.OrganizationName, []string{
			buyer.StreetAndNumber, buyer.StreetAdditional, join(" ", buyer.PostalCode, buyer.City),
			buyer.Region, countryName(buyer.Country, d.lang), prefixed(d.t[lVATID], buyer.VATID), email,
		})
	}
	d.pdf.SetY(max(left, right) + 12)
}

// block draws a heading, a bold first line and the non-empty other lines
// in an 80 mm column, and returns the y below it.
func (d *doc) block(x, y float64, heading, first string, rest []string) float64 {
	d.font("B", 8, 120)
	y = d.wrap(x, y, 80, heading, "L") + 1
	d.font("B", 10, 30)
	y = d.wrap(x, y, 80, first, "L")
	d.font("", 10, 30)
	for _, s := range rest {
		if s != "" {
			y = d.wrap(x, y, 80, s, "L")
		}
	}
	return y
}

// lines draws the table of the invoice's lines: its plan (and extra
// seats), then a promotion's discount.
func (d *doc) lines(inv kudos.Invoice) {
	y := d.pdf.GetY()
	d.pdf.SetFillColor(238, 240, 244)
	d.font("B", 9, 60)
	d.pdf.SetX(margin)
	for i, h := range []label{lDescription, lNet, lVATRate, lVAT, lTotal} {
		d.text(cols[i], 8, d.t[h], align(i), true)
	}
	y += 10
	d.font("", 10, 30)
	var end float64
	switch {
	case len(inv.Lines) > 0:
		end = d.invoiceLines(inv, y)
	case inv.Discount != nil: // the plan at its price; VAT and total come after the discount's line
		end = d.row(y, describe(inv, d.lang), []string{money(planNet(inv), inv.Currency, d.lang), rate(inv.VATRate, d.lang), "", ""})
	default:
		end = d.row(y, describe(inv, d.lang), []string{
			money(inv.Net, inv.Currency, d.lang), rate(inv.VATRate, d.lang),
			money(inv.VAT, inv.Currency, d.lang), money(inv.Total, inv.Currency, d.lang),
		})
	}
	end = d.discountRow(inv, end)
	d.pdf.SetDrawColor(200, 204, 210)
	d.pdf.Line(margin, end, margin+contW, end)
	d.pdf.SetY(end + 6)
}

// align right-aligns every table column but the description.
func align(col int) string {
	if col == 0 {
		return "L"
	}
	return "R"
}

// totals draws the subtotal, VAT and total under the table, then a note on
// how the invoice stands (paid or to be paid).
func (d *doc) totals(inv kudos.Invoice) {
	y := d.pdf.GetY()
	rows := [][2]string{
		{d.t[lSubtotal], money(inv.Net, inv.Currency, d.lang)},
		{d.t[lVAT] + " " + rate(inv.VATRate, d.lang), money(inv.VAT, inv.Currency, d.lang)},
	}
	for _, r := range rows {
		d.pdf.SetXY(110, y)
		d.font("", 10, 60)
		d.text(45, lineH+1, r[0], "L", false)
		d.text(35, lineH+1, r[1], "R", false)
		y += lineH + 1
	}
	d.pdf.Line(110, y+1, margin+contW, y+1)
	total := d.t[lTotalDue]
	switch inv.Status {
	case kudos.InvoicePaid:
		total = d.t[lTotalPaid]
	case kudos.InvoiceCredited:
		total = d.t[lTotalCredited]
	}
	d.pdf.SetXY(110, y+3)
	d.font("B", 12, 30)
	d.text(45, 8, total, "L", false)
	d.text(35, 8, money(inv.Total, inv.Currency, d.lang), "R", false)

	note := d.t[lNoteDue]
	switch {
	case d.creditNote:
		note = fmt.Sprintf(d.t[lNoteCredited], numberOrDash(inv.CorrectsNumber))
	case inv.Status == kudos.InvoicePaid:
		note = d.t[lNotePaid]
	case d.proForma:
		note = d.t[lNoteProForma]
	case d.request:
		note = d.t[lNotePaymentRequest]
	}
	y += 20
	if m := vatMention(inv); m != 0 { // the legal mention, before anything else said
		d.font("B", 10, 30)
		y = d.wrap(margin, y, contW, d.t[m], "L") + 2
	}
	d.font("", 9, 90)
	d.wrap(margin, y, contW, note, "L")
}

// vatMention is the legal mention of why inv bears no VAT (0: none): reverse
// charged (art. 196 VAT Directive), or a buyer outside the EU (art. 44 for a
// business, art. 58 for a consumer; issue 34).
func vatMention(inv kudos.Invoice) label {
	switch {
	case inv.ReverseCharge:
		return lReverseCharge
	case inv.OutsideEU == kudos.OutsideEUBusiness:
		return lOutsideEUBusiness
	case inv.OutsideEU == kudos.OutsideEUConsumer:
		return lOutsideEUConsumer
	}
	return 0
}

// footer closes the page with the seller's legal details and a thank-you.
func (d *doc) footer(s Seller) {
	d.pdf.SetDrawColor(200, 204, 210)
	d.pdf.Line(margin, footerY, margin+contW, footerY)
	d.font("", 8, 120)
	legal := join(" · ", s.Name, s.Street, join(" ", s.PostalCode, s.City), countryName(s.Country, d.lang),
		prefixed(d.t[lVATID], s.VATID), s.Email)
	y := d.wrap(margin, footerY+2, contW, legal, "C")
	d.wrap(margin, y, contW, d.t[lThanks], "C")
}

// join joins the non-empty parts with sep.
func join(sep string, parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += sep
		}
		out += p
	}
	return out
}

// prefixed is "label value", or empty when there is no value.
func prefixed(label, value string) string {
	if value == "" {
		return ""
	}
	return label + " " + value
}

// numberOrDash is the invoice number, or a dash on a pro-forma or a
// payment request.
func numberOrDash(n string) string {
	if n == "" {
		return "—"
	}
	return n
}
