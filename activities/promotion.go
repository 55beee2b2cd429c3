package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// checkoutDiscount is the discount of the promotion code a checkout is
// opened with (nil: none), checked again now: the api checked it when the
// customer asked, and it may have expired, been withdrawn or used up since
// (a last use taken meanwhile is caught when the checkout is recorded,
// which takes the use with a conditional update of the code's row).
func (a *Activities) checkoutDiscount(ctx context.Context, in workflows.OpenCheckoutInput) (*kudos.Discount, error) {
	if in.PromotionCode == "" || in.Purpose.PaysExistingInvoice() {
		return nil, nil
	}
	p, err := a.Store.Promotion(ctx, in.PromotionCode)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil, invalidPromotion(kudos.FPromotionUnknown)
	} else if err != nil {
		return nil, err
	}
	// Used up is left to the checkout's record: a retry of this activity
	// after it recorded the checkout finds the code's last use its own.
	if why := p.Unusable(a.now(), a.Prices.Currency); why != "" && why != kudos.FPromotionUsedUp {
		return nil, invalidPromotion(why)
	}
	if !p.Covers(in.Plan) {
		return nil, invalidPromotion(kudos.FPromotionNotForPlan)
	}
	d := p.Discount()
	return &d, nil
}

// invalidPromotion is the non-retryable refusal of a promotion code, its
// field code (kudos.FPromotion…) in the details.
func invalidPromotion(why string) error {
	return temporal.NewNonRetryableApplicationError("this promotion code cannot be used", workflows.ErrTypeInvalidPromotion, nil, why)
}

// promotionRefusal is the field code of a store error refusing a checkout's
// promotion code, "" for any other.
func promotionRefusal(err error) string {
	var e *kudos.Error
	if errors.As(err, &e) && e.Code == kudos.EInvalid {
		return e.Fields["promotion_code"]
	}
	return ""
}
