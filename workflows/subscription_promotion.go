package workflows

import (
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// ErrTypeInvalidPromotion marks a checkout refused because its promotion
// code cannot be used (expired, used up meanwhile, not for the plan): the
// api's 422 fields.promotion_code, whose code is the error's details.
const ErrTypeInvalidPromotion = "InvalidPromotion"

// Promotion codes (issue 38 item 3). The workflow is the one owner of the
// account's discount: a code entered with a plan or an upgrade prices that
// checkout (OpenCheckout takes a use of it); once the checkout is paid,
// a code whose duration goes on (forever, years:N) is the account's
// Promotion, which each renewal takes off its invoice's price before VAT
// and uses a period of, until it runs out. Runs from before take none of
// these paths (they have no code and no Promotion); the "promotion-codes"
// marker is recorded where a code first changes what a run does.

// promotionCode is the code a plan request carries, "" when none (or,
// for a replayed run that took no promotion path, never).
func (s *subscription) promotionCode(ctx workflow.Context, req PlanRequest) string {
	if req.PromotionCode == "" || !s.newer(ctx, "promotion-codes") {
		return ""
	}
	return req.PromotionCode
}

// discountCode is the code of a discount, "" for none.
func discountCode(d *kudos.Discount) string {
	if d == nil {
		return ""
	}
	return d.Code
}

// takePromotion makes the promotion a paid checkout was priced with the
// account's, when its duration discounts renewals too (once: it ends with
// this payment).
func (s *subscription) takePromotion(c *kudos.OpenCheckout) {
	if c.Promotion == nil || !c.Promotion.Renews() {
		return
	}
	p := *c.Promotion
	s.st.Promotion = &p
}

// renewalDiscount is the discount of the renewal at RenewalAt (nil: none),
// and moves the account's promotion on by that period: a years:N code
// discounts the first N yearly periods (the checkout's and N-1 renewals),
// whether or not the plan renewed is one it covers.
func (s *subscription) renewalDiscount(ctx workflow.Context) *kudos.Discount {
	p := s.st.Promotion
	if p == nil || !s.newer(ctx, "promotion-codes") {
		return nil
	}
	s.st.Promotion = p.AfterRenewal()
	if !p.Covers(s.st.Plan) {
		return nil
	}
	return p
}
