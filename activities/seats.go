package activities

import (
	"context"

	"github.com/google/uuid"

	"kudos"
	"kudos/workflows"
)

// yearLines are the lines of a year of plan with extraSeats: nil for the
// plan alone (an invoice of one line keeps none), else the plan's and the
// seats' (issue 38).
func (a *Activities) yearLines(plan kudos.Plan, extraSeats int) []kudos.InvoiceLine {
	lines := a.Prices.YearLines(plan, extraSeats)
	if len(lines) == 1 {
		return nil
	}
	return lines
}

// seatsBought is the line of a seats checkout: the seats added, at the
// yearly seat price, prorated for the rest of the period like an upgrade.
func seatsBought(prices kudos.PriceList, in workflows.OpenCheckoutInput) []kudos.InvoiceLine {
	n := in.ExtraSeats - in.FromExtraSeats
	return []kudos.InvoiceLine{{Kind: kudos.LineSeats, Plan: in.Plan, Quantity: n, UnitNet: prices.Seat,
		Net: kudos.Prorate(int64(n)*prices.Seat, in.Remaining, in.Period)}}
}

// priceLines is price (the one pricing of an invoice) for an invoice of
// lines (their sum is its net), or, with no lines, of net alone (the plan's
// price when net is 0 too), less the promotion discount d (nil: none): the
// discount's line is taken off the net first and VAT is computed on what
// is left. The lines go with it, to its PDF and its credit notes.
func (a *Activities) priceLines(ctx context.Context, accountID, id uuid.UUID, kind kudos.InvoiceKind, plan kudos.Plan,
	lines []kudos.InvoiceLine, net int64, d *kudos.Discount) (*kudos.Invoice, error) {
	switch {
	case len(lines) > 0:
		net = kudos.LinesNet(lines)
	case net == 0 && kind != kudos.InvoiceUpgrade && kind != kudos.InvoiceSeats:
		net = a.Prices.Yearly(plan)
	}
	left, line := kudos.ApplyDiscount(d, plan, net)
	inv, err := a.price(ctx, accountID, id, kind, plan, left)
	if err != nil {
		return nil, err
	}
	inv.Lines, inv.Discount = lines, line
	return inv, nil
}
