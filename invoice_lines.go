package kudos

// InvoiceLineKind says what an invoice line bills (issue 38). An invoice
// of one line (the plan's: every invoice before issue 38) keeps no lines:
// its Description and Net are the line. Another kind (a discount, with a
// negative net) sits beside these: the invoice's Net is the sum of its
// lines, and the VAT is computed on it, after every line.
type InvoiceLineKind string

// Invoice line kinds.
const (
	// LinePlan bills the plan (or its prorated upgrade).
	LinePlan InvoiceLineKind = "plan"
	// LineSeats bills a Team plan's extra seats: Quantity seats at UnitNet
	// a year each (Net prorated on a seats purchase).
	LineSeats InvoiceLineKind = "seats"
)

// InvoiceLine is one line of an invoice, net of VAT in minor units of the
// invoice's currency.
type InvoiceLine struct {
	Kind     InvoiceLineKind `json:"kind"`
	Plan     Plan            `json:"plan,omitempty"`
	Quantity int             `json:"quantity"`
	UnitNet  int64           `json:"unit_net"`
	Net      int64           `json:"net"`
}

// LinesNet is the net of lines: what the invoice's VAT is computed on.
func LinesNet(lines []InvoiceLine) int64 {
	var n int64
	for _, l := range lines {
		n += l.Net
	}
	return n
}

// SeatsBilled is the number of extra seats lines bill (their seats lines'
// quantities): what paying their invoice gives a Team plan beyond its own.
func SeatsBilled(lines []InvoiceLine) int {
	n := 0
	for _, l := range lines {
		if l.Kind == LineSeats {
			n += l.Quantity
		}
	}
	return n
}

// YearLines are the lines of a year of plan with extraSeats (only Team
// has them): the plan, and the seats on their own line when there are any.
func (l PriceList) YearLines(plan Plan, extraSeats int) []InvoiceLine {
	lines := []InvoiceLine{{Kind: LinePlan, Plan: plan, Quantity: 1, UnitNet: l.Yearly(plan), Net: l.Yearly(plan)}}
	if plan == PlanTeam && extraSeats > 0 {
		lines = append(lines, InvoiceLine{Kind: LineSeats, Plan: plan, Quantity: extraSeats, UnitNet: l.Seat, Net: int64(extraSeats) * l.Seat})
	}
	return lines
}
