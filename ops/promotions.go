package ops

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"kudos"
)

// PromoStore is the part of the store `kudos ops promo` uses (*store.DB).
type PromoStore interface {
	CreatePromotion(ctx context.Context, p kudos.Promotion) error
	Promotions(ctx context.Context) ([]kudos.Promotion, error)
	DeactivatePromotion(ctx context.Context, code string) error
}

// ErrPromoUsage is a `kudos ops promo` command with wrong arguments; its
// message says what is wrong.
var ErrPromoUsage = errors.New("usage: kudos ops promo create CODE --percent N | --amount X --duration once|forever|years:N " +
	"[--max-redemptions N] [--expires YYYY-MM-DD] [--plans team,pro] | list | deactivate CODE")

// Promo runs `kudos ops promo create|list|deactivate` (issue 38): prices
// are the price list, whose currency an --amount is in (major units: 50 or
// 49.50). An --expires date is the last day the code is accepted (it
// expires at the end of that day, UTC).
func Promo(ctx context.Context, db PromoStore, prices kudos.PriceList, args []string, out io.Writer) error {
	if len(args) == 0 {
		return ErrPromoUsage
	}
	switch {
	case args[0] == "list" && len(args) == 1:
		return promoList(ctx, db, out)
	case args[0] == "deactivate" && len(args) == 2:
		if err := db.DeactivatePromotion(ctx, args[1]); err != nil {
			return err
		}
		fmt.Fprintf(out, "promotion code %s deactivated: refused from now on; discounts it gives run on\n", kudos.NormalizePromotionCode(args[1]))
		return nil
	case args[0] == "create" && len(args) >= 2:
		p, err := parsePromo(args[1], args[2:], prices.Currency)
		if err == nil {
			err = leavesACharge(p, prices)
		}
		if err != nil {
			return fmt.Errorf("%v\n%w", err, ErrPromoUsage)
		}
		if err := db.CreatePromotion(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(out, "promotion code %s created: %s\n", p.Code, describePromo(p))
		return nil
	}
	return ErrPromoUsage
}

// parsePromo reads the code and the flags of `promo create`.
func parsePromo(code string, args []string, currency string) (kudos.Promotion, error) {
	p := kudos.Promotion{Code: kudos.NormalizePromotionCode(code), Currency: currency}
	if !kudos.ValidPromotionCode(p.Code) {
		return p, fmt.Errorf("code %q: 3 to 40 letters, digits, - or _", code)
	}
	fs := flag.NewFlagSet("promo create", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	percent := fs.Int("percent", 0, "")
	amount := fs.String("amount", "", "")
	duration := fs.String("duration", "", "")
	maxRed := fs.Int("max-redemptions", 0, "")
	expires := fs.String("expires", "", "")
	plans := fs.String("plans", "", "")
	if err := fs.Parse(args); err != nil {
		return p, err
	}
	if fs.NArg() > 0 {
		return p, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case (*percent != 0) == (*amount != ""):
		return p, errors.New("give one of --percent and --amount")
	case *percent != 0 && (*percent < 1 || *percent > 100):
		return p, fmt.Errorf("--percent %d: from 1 to 100", *percent)
	case *percent != 0:
		p.PercentOff = *percent
	default:
		f, err := strconv.ParseFloat(*amount, 64)
		if err != nil || f <= 0 || math.IsInf(f, 0) || f > 1e9 {
			return p, fmt.Errorf("--amount %q: a positive amount in %s, such as 50 or 49.50", *amount, currency)
		}
		p.AmountOff = int64(math.Round(f * 100))
	}
	var err error
	if p.Duration, p.Years, err = kudos.ParsePromotionDuration(*duration); err != nil {
		return p, err
	}
	if *maxRed < 0 {
		return p, fmt.Errorf("--max-redemptions %d: a positive number", *maxRed)
	} else if *maxRed > 0 {
		p.MaxRedemptions = maxRed
	}
	if *expires != "" {
		day, err := time.Parse("2006-01-02", *expires)
		if err != nil {
			return p, fmt.Errorf("--expires %q: a date such as 2027-03-31", *expires)
		}
		end := day.AddDate(0, 0, 1)
		p.ExpiresAt = &end
	}
	if *plans != "" {
		for _, name := range strings.Split(*plans, ",") {
			plan := kudos.Plan(strings.ToUpper(strings.TrimSpace(name)))
			if !plan.IsPaid() {
				return p, fmt.Errorf("--plans: %q is no paid plan (starter, pro, team)", name)
			}
			p.Plans = append(p.Plans, plan)
		}
	}
	return p, nil
}

// leavesACharge refuses a code that takes a plan it covers under the
// smallest charge the provider takes (kudos.MinimumCharge): a plan of
// nothing cannot be checked out nor renewed at the provider (a 100 % code,
// or an amount near the price), and Kudos sells no free plans.
func leavesACharge(p kudos.Promotion, prices kudos.PriceList) error {
	d := p.Discount()
	floor := kudos.MinimumCharge(prices.Currency)
	for _, plan := range []kudos.Plan{kudos.PlanStarter, kudos.PlanPro, kudos.PlanTeam} {
		price := prices.Yearly(plan)
		if left := price - d.Off(plan, price); d.Covers(plan) && left < floor {
			return fmt.Errorf("the code leaves the %s plan at %s %.2f a year, under the smallest charge (%s %.2f): "+
				"give less off, or leave that plan out with --plans", plan, prices.Currency, float64(left)/100, prices.Currency, float64(floor)/100)
		}
	}
	return nil
}

// describePromo says what a code does, as ops read it.
func describePromo(p kudos.Promotion) string {
	off := fmt.Sprintf("%d%% off", p.PercentOff)
	if p.AmountOff > 0 {
		off = fmt.Sprintf("%s %.2f off", p.Currency, float64(p.AmountOff)/100)
	}
	s := off + ", " + p.DurationText()
	if len(p.Plans) > 0 {
		names := make([]string, len(p.Plans))
		for i, x := range p.Plans {
			names[i] = strings.ToLower(string(x))
		}
		s += ", plans " + strings.Join(names, ",")
	}
	if p.MaxRedemptions != nil {
		s += fmt.Sprintf(", %d of %d used", p.Redeemed, *p.MaxRedemptions)
	} else {
		s += fmt.Sprintf(", %d used", p.Redeemed)
	}
	if p.ExpiresAt != nil {
		s += ", accepted until " + p.ExpiresAt.Add(-time.Second).UTC().Format("2006-01-02")
	}
	return s
}

// promoList prints every code, newest first.
func promoList(ctx context.Context, db PromoStore, out io.Writer) error {
	ps, err := db.Promotions(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tSTATE\tTERMS")
	for _, p := range ps {
		state := "active"
		switch why := p.Unusable(time.Now(), p.Currency); {
		case !p.Active:
			state = "deactivated"
		case why == kudos.FPromotionExpired:
			state = "expired"
		case why == kudos.FPromotionUsedUp:
			state = "used up"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Code, state, describePromo(p))
	}
	return tw.Flush()
}

// promotionLine is an account's running promotion as `kudos ops account`
// shows it: the code, what it takes off, and the renewals it still
// discounts.
func promotionLine(d kudos.Discount) string {
	off := fmt.Sprintf("%d%% off", d.PercentOff)
	if d.AmountOff > 0 {
		off = fmt.Sprintf("%s %.2f off", d.Currency, float64(d.AmountOff)/100)
	}
	left := "every renewal"
	if d.RenewalsLeft >= 0 {
		left = fmt.Sprintf("%d more renewal(s)", d.RenewalsLeft)
	}
	return fmt.Sprintf("%s: %s, %s", d.Code, off, left)
}
