package api

import (
	"github.com/gofiber/fiber/v3"

	"kudos"
)

// promotionView is a promotion code as the pricing read shows it: what it
// takes off (percent_off, or amount_off in major units of the currency),
// for how long (duration once, forever or years, with duration_years) and
// on which plans (all when empty).
type promotionView struct {
	Code          string       `json:"code"`
	PercentOff    *int         `json:"percent_off,omitempty"`
	AmountOff     *float64     `json:"amount_off,omitempty"`
	Duration      string       `json:"duration"`
	DurationYears *int         `json:"duration_years,omitempty"`
	Plans         []kudos.Plan `json:"plans"`
}

func viewPromotion(p *kudos.Promotion) *promotionView {
	v := &promotionView{Code: p.Code, Duration: string(p.Duration), Plans: p.Plans}
	if v.Plans == nil {
		v.Plans = []kudos.Plan{}
	}
	if p.PercentOff > 0 {
		v.PercentOff = &p.PercentOff
	} else {
		off := float64(p.AmountOff) / 100
		v.AmountOff = &off
	}
	if p.Duration == kudos.PromotionYears {
		v.DurationYears = &p.Years
	}
	return v
}

// usablePromotion checks the promotion code a customer entered for plan
// ("": any plan the code covers) after the guessing limits: every request
// with a code takes a try from the account's and from the client's
// budget, so that codes cannot be found by trying many (429 beyond).
func (s *Server) usablePromotion(c fiber.Ctx, code string, plan kudos.Plan) (*kudos.Promotion, error) {
	if err := allow(c, s.limits.promoAccount, accountID(c).String()); err != nil {
		return nil, err
	}
	if err := allow(c, s.limits.promoClient, s.clientKey(c)); err != nil {
		return nil, err
	}
	return s.DB.UsablePromotion(ctx(c), accountID(c), code, plan, s.Config.Prices.Currency)
}

// discountedTable is the pricing table less the code's discount on the
// plans it covers (the others at their price).
func discountedTable(p kudos.PriceList, promo *kudos.Promotion) pricingTable {
	major := func(plan kudos.Plan) float64 {
		net := p.Yearly(plan)
		if promo != nil {
			d := promo.Discount()
			net, _ = kudos.ApplyDiscount(&d, plan, net)
		}
		return float64(net) / 100
	}
	return pricingTable{Starter: major(kudos.PlanStarter), Pro: major(kudos.PlanPro), Team: major(kudos.PlanTeam)}
}

// requestedPromotion is the normalized promotion code of a plan request
// ("" none), checked for plan.
func (s *Server) requestedPromotion(c fiber.Ctx, req planRequest) (string, error) {
	if req.PromotionCode == nil || *req.PromotionCode == "" {
		return "", nil
	}
	p, err := s.usablePromotion(c, *req.PromotionCode, req.Plan)
	if err != nil {
		return "", err
	}
	return p.Code, nil
}
