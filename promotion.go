package kudos

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// PromotionDuration says which payments a promotion code discounts (as
// Stripe's coupons do): the first payment only, every payment, or the first
// N yearly periods.
type PromotionDuration string

// The durations of a promotion code.
const (
	PromotionOnce    PromotionDuration = "once"
	PromotionForever PromotionDuration = "forever"
	PromotionYears   PromotionDuration = "years"
)

// Field codes of a promotion code that cannot be used (422
// fields.promotion_code): the UI says each in the customer's language.
const (
	FPromotionUnknown    = "promotion_unknown"
	FPromotionExpired    = "promotion_expired"
	FPromotionUsedUp     = "promotion_used_up"
	FPromotionNotForPlan = "promotion_not_for_plan"
	// FPromotionRedeemed: the account has used this code already (a code
	// is used once per account).
	FPromotionRedeemed = "promotion_already_redeemed"
	// FPromotionActive: the account has a promotion running (one at a
	// time): a new code waits until it has run out.
	FPromotionActive = "promotion_already_active"
)

// Promotion is a promotion code as ops created it (`kudos ops promo`).
// Exactly one of PercentOff and AmountOff is set.
type Promotion struct {
	// Code is upper case: codes are case-insensitive (NormalizePromotionCode).
	Code string `json:"code"`
	// PercentOff is the discount in whole percent (1–100), or AmountOff in
	// minor units of Currency (the price list's) off each discounted
	// payment (never below zero).
	PercentOff int               `json:"percent_off,omitempty"`
	AmountOff  int64             `json:"amount_off,omitempty"`
	Currency   string            `json:"currency,omitempty"`
	Duration   PromotionDuration `json:"duration"`
	// Years is the number of yearly periods a years duration discounts.
	Years int `json:"years,omitempty"`
	// MaxRedemptions caps the accounts that may use the code (nil: no
	// cap); Redeemed counts those that have (a checkout that closes unpaid
	// gives its use back).
	MaxRedemptions *int       `json:"max_redemptions"`
	Redeemed       int        `json:"redeemed"`
	ExpiresAt      *time.Time `json:"expires_at"`
	// Plans are the plans the code discounts (empty: all).
	Plans     []Plan    `json:"plans"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"created_at"`
}

var promotionCodeRE = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{2,39}$`)

// NormalizePromotionCode is the code as stored and compared: trimmed, upper
// case (codes are case-insensitive).
func NormalizePromotionCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// ValidPromotionCode reports whether a normalized code has the shape codes
// are created with (3–40 letters, digits, - and _): anything else is
// unknown without a database read.
func ValidPromotionCode(code string) bool { return promotionCodeRE.MatchString(code) }

// ParsePromotionDuration reads once, forever or years:N.
func ParsePromotionDuration(s string) (PromotionDuration, int, error) {
	switch {
	case s == string(PromotionOnce):
		return PromotionOnce, 0, nil
	case s == string(PromotionForever):
		return PromotionForever, 0, nil
	case strings.HasPrefix(s, "years:"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "years:"))
		if err != nil || n < 1 || n > 100 {
			return "", 0, fmt.Errorf("duration %q: years:N wants N from 1 to 100", s)
		}
		return PromotionYears, n, nil
	}
	return "", 0, fmt.Errorf("duration %q: want once, forever or years:N", s)
}

// DurationText is the duration as ops write it (once, forever, years:N).
func (p Promotion) DurationText() string {
	if p.Duration == PromotionYears {
		return fmt.Sprintf("years:%d", p.Years)
	}
	return string(p.Duration)
}

// Covers reports whether the code discounts plan.
func (p Promotion) Covers(plan Plan) bool {
	if len(p.Plans) == 0 {
		return true
	}
	for _, x := range p.Plans {
		if x == plan {
			return true
		}
	}
	return false
}

// Unusable is why the code cannot be used at now (a field code), or "":
// withdrawn or past its date is expired, every use taken is used up. A code
// whose amount is in another currency than the prices is unknown here.
func (p Promotion) Unusable(now time.Time, currency string) string {
	switch {
	case !p.Active || (p.ExpiresAt != nil && !now.Before(*p.ExpiresAt)):
		return FPromotionExpired
	case p.MaxRedemptions != nil && p.Redeemed >= *p.MaxRedemptions:
		return FPromotionUsedUp
	case p.AmountOff > 0 && p.Currency != currency:
		return FPromotionUnknown
	}
	return ""
}

// Discount is the promotion's terms as applied to an account's payments.
func (p Promotion) Discount() Discount {
	d := Discount{Code: p.Code, PercentOff: p.PercentOff, AmountOff: p.AmountOff, Currency: p.Currency,
		Duration: p.Duration, Years: p.Years, Plans: p.Plans}
	switch p.Duration {
	case PromotionForever:
		d.RenewalsLeft = -1
	case PromotionYears:
		d.RenewalsLeft = p.Years - 1
	}
	return d
}

// Discount is a promotion code applied to an account: its terms and how many
// renewals it still discounts. The subscription workflow holds the account's
// one running discount (SubscriptionState.Promotion) from the paid checkout
// it was entered with until it runs out.
type Discount struct {
	Code       string            `json:"code"`
	PercentOff int               `json:"percent_off,omitempty"`
	AmountOff  int64             `json:"amount_off,omitempty"`
	Currency   string            `json:"currency,omitempty"`
	Duration   PromotionDuration `json:"duration"`
	Years      int               `json:"years,omitempty"`
	Plans      []Plan            `json:"plans,omitempty"`
	// RenewalsLeft are the renewals still discounted after the first
	// payment: -1 for ever, 0 none (once), N-1 for years:N.
	RenewalsLeft int `json:"renewals_left"`
}

// Covers reports whether the discount applies to plan.
func (d Discount) Covers(plan Plan) bool {
	return Promotion{Plans: d.Plans}.Covers(plan)
}

// Off is the discount on a payment of net for plan, in minor units: the
// percent of net rounded half away from zero, or the amount, never more
// than net; 0 for a plan it does not cover.
func (d Discount) Off(plan Plan, net int64) int64 {
	if net <= 0 || !d.Covers(plan) {
		return 0
	}
	off := d.AmountOff
	if d.PercentOff > 0 {
		off = int64(math.Round(float64(net) * float64(d.PercentOff) / 100))
	}
	return min(off, net)
}

// Renews reports whether a renewal is still discounted.
func (d Discount) Renews() bool { return d.RenewalsLeft != 0 }

// AfterRenewal is the discount once a renewal has used one of its periods
// (nil: it has run out).
func (d Discount) AfterRenewal() *Discount {
	if d.RenewalsLeft > 0 {
		d.RenewalsLeft--
	}
	if d.RenewalsLeft == 0 {
		return nil
	}
	return &d
}

// InvoiceDiscount is an invoice's discount line: the promotion code and the
// amount taken off the plan's price (positive, minor units). The invoice's
// Net is what is left, and its VAT is computed on that.
type InvoiceDiscount struct {
	Code   string
	Amount int64
}

// ApplyDiscount takes the discount for plan off net: the net left and the
// invoice's discount line (nil when nothing is taken off).
func ApplyDiscount(d *Discount, plan Plan, net int64) (int64, *InvoiceDiscount) {
	if d == nil {
		return net, nil
	}
	off := d.Off(plan, net)
	if off <= 0 {
		return net, nil
	}
	return net - off, &InvoiceDiscount{Code: d.Code, Amount: off}
}
