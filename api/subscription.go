package api

import (
	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/workflows"
)

// registerSubscriptionRoutes adds pricing, the subscription routes and the
// due-invoice payment of SPEC §7. Every change is an update of the account's
// subscription workflow; reads come from Postgres.
func (s *Server) registerSubscriptionRoutes(v1, acc fiber.Router) {
	v1.Get("/pricing/:accountId", s.requireSession, s.requireMember, s.pricing)
	acc.Post("/subscription", s.createSubscription)
	acc.Patch("/subscription", s.upgradeSubscription)
	acc.Delete("/subscription", s.setAutoRenewal(false))
	acc.Post("/subscription/restart", s.setAutoRenewal(true))
	acc.Delete("/subscription/checkout", s.cancelCheckout)
	acc.Get("/invoices/latest-unpaid", s.latestUnpaid)
	acc.Post("/invoices/:invoiceId/payment", s.payInvoice)
	s.registerSubscriptionChangeRoutes(acc)
}

type pricingTable struct {
	Starter float64 `json:"starter_pricing"`
	Pro     float64 `json:"pro_pricing"`
	Team    float64 `json:"team_pricing"`
}

type pricingResponse struct {
	PricingTable pricingTable `json:"pricing_table"`
	Currency     string       `json:"currency"`
	VATRate      float64      `json:"vat_rate"`
	// ReverseCharge: the account's verified VAT id of another member state
	// makes its VAT reverse charged (VATRate 0).
	ReverseCharge bool `json:"reverse_charge"`
	// VATTreatment names the rule VATRate comes from (kudos.DecideVAT):
	// standard, reverse_charge, outside_eu_business or outside_eu_consumer.
	VATTreatment string `json:"vat_treatment"`
	// CheckoutOrigin is the only origin a checkout_href may have (SPEC §4).
	CheckoutOrigin string `json:"checkout_origin"`
	// Promotion is the promotion code asked about (?promotion_code=), whose
	// discount PricingTable shows (omitted without one).
	Promotion *promotionView `json:"promotion,omitempty"`
}

// vatTreatment is the name of the rule d comes from, as the pricing read
// says it.
func vatTreatment(d kudos.VATDecision) string {
	switch {
	case d.ReverseCharge:
		return "reverse_charge"
	case d.OutsideEU != "":
		return "outside_eu_" + string(d.OutsideEU)
	}
	return "standard"
}

// pricing answers the yearly net prices, the currency and the VAT rate the
// account's checkouts and invoices are charged (kudos.DecideVAT: its
// billing country's, 0 % reverse charged, or 0 % outside the EU). With
// ?promotion_code= the prices are those less the code's discount (VAT is
// computed after it), and the code's terms come with them; a code that
// cannot be used is 422 fields.promotion_code.
func (s *Server) pricing(c fiber.Ctx) error {
	var promo *kudos.Promotion
	if code := c.Query("promotion_code"); code != "" {
		var err error
		if promo, err = s.usablePromotion(c, code, ""); err != nil {
			return err
		}
	}
	basis, err := s.DB.VATBasis(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	vat := kudos.DecideVAT(kudos.VATSeller{Country: s.Config.SellerCountry, Registrations: s.Config.VATRegistrations}, basis)
	res := pricingResponse{
		PricingTable: discountedTable(s.Config.Prices, promo),
		Currency:     s.Config.Prices.Currency, VATRate: vat.Rate, ReverseCharge: vat.ReverseCharge, VATTreatment: vatTreatment(vat),
		CheckoutOrigin: s.Payments.CheckoutOrigin(),
	}
	if promo != nil {
		res.Promotion = viewPromotion(promo)
	}
	return c.JSON(res)
}

type planRequest struct {
	Plan kudos.Plan `json:"plan"`
	// PromotionCode discounts the checkout (optional; case-insensitive).
	PromotionCode *string `json:"promotion_code"`
}

type checkoutResponse struct {
	CheckoutHref string `json:"checkout_href"`
}

func (s *Server) readPlan(c fiber.Ctx) (planRequest, error) {
	var req planRequest
	if err := decodeJSON(c, &req); err != nil {
		return req, err
	}
	if !req.Plan.IsPaid() {
		return req, kudos.FieldErrors{"plan": kudos.FInvalidValue}.Err()
	}
	return req, nil
}

// createSubscription opens the checkout of a first plan. An account without
// a billing address gets 422 account_billing_address: the UI then asks for
// it (SPEC §4) and tries again.
func (s *Server) createSubscription(c fiber.Ctx) error {
	req, err := s.readPlan(c)
	if err != nil {
		return err
	}
	plan := req.Plan
	addr, err := s.DB.BillingAddress(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	if addr == nil {
		return kudos.FieldErrors{"account_billing_address": kudos.FRequired}.Err()
	}
	if err := s.planFits(c, plan); err != nil {
		return err
	}
	code, err := s.requestedPromotion(c, req)
	if err != nil {
		return err
	}
	return s.checkoutUpdate(c, workflows.UpdateCreateSubscription, workflows.PlanRequest{Plan: plan, PromotionCode: code})
}

// upgradeSubscription opens the checkout of a higher plan, or schedules a
// lower one for the renewal (issue 38: 200 {scheduled_plan, scheduled_at}).
func (s *Server) upgradeSubscription(c fiber.Ctx) error {
	req, err := s.readPlan(c)
	if err != nil {
		return err
	}
	if lower, err := s.isDowngrade(c, req.Plan); err != nil {
		return err
	} else if lower {
		return s.scheduleDowngrade(c, req.Plan)
	}
	if err := s.planFits(c, req.Plan); err != nil {
		return err
	}
	code, err := s.requestedPromotion(c, req)
	if err != nil {
		return err
	}
	return s.checkoutUpdate(c, workflows.UpdateUpgradeSubscription, workflows.PlanRequest{Plan: req.Plan, PromotionCode: code})
}

func (s *Server) checkoutUpdate(c fiber.Ctx, name string, arg any) error {
	var res workflows.CheckoutResponse
	if err := s.Dispatcher.Update(ctx(c), accountID(c), name, arg, &res); err != nil {
		return err
	}
	if res.Applied { // nothing to pay: no checkout, the change is made
		return c.JSON(fiber.Map{"checkout_href": nil, "applied": true})
	}
	return c.Status(fiber.StatusCreated).JSON(checkoutResponse{CheckoutHref: res.CheckoutHref})
}

func (s *Server) setAutoRenewal(on bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		if on {
			if err := s.notBeingDeleted(c); err != nil {
				return err
			}
		}
		if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateSetAutoRenewal, workflows.AutoRenewalRequest{On: on}, nil); err != nil {
			return err
		}
		return c.JSON(fiber.Map{})
	}
}

func (s *Server) latestUnpaid(c fiber.Ctx) error {
	inv, err := s.DB.LatestUnpaidInvoice(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"invoice_id": inv.ID})
}

// payInvoice opens the checkout of a due invoice ('continue with plan').
func (s *Server) payInvoice(c fiber.Ctx) error {
	inv, err := s.pathInvoice(c)
	if err != nil {
		return err
	}
	if inv.Status != kudos.InvoiceDue {
		return kudos.Errorf(kudos.EConflict, "this invoice is not due")
	}
	sub, err := s.DB.Subscription(ctx(c), accountID(c))
	if err != nil {
		return err
	}
	// Nothing is paid during the account's scheduled deletion (its open
	// checkout was closed when it was scheduled). Only an expired plan's
	// due invoice starts a plan, which the team must fit; a renewal being
	// retried, or an invoice owed since its debit came back, keeps the plan
	// the team is on (an older, smaller one's invoice included).
	if err := s.notBeingDeletedTo(c, "pay an invoice"); err != nil {
		return err
	}
	if sub.ShowStatus != kudos.StatusActive {
		if err := s.teamFits(c, inv.Plan, kudos.SeatsBilled(inv.Lines)); err != nil { // the seats it bills come back with it
			return err
		}
	}
	return s.checkoutUpdate(c, workflows.UpdatePayInvoice, workflows.PayInvoiceRequest{InvoiceID: inv.ID})
}

// cancelCheckout ends the account's open checkout at once: the customer
// came back through the provider's cancel link or chose "Cancel payment".
// The answer says how it ended (a checkout found paid is applied).
func (s *Server) cancelCheckout(c fiber.Ctx) error {
	var res workflows.CancelCheckoutResult
	if err := s.Dispatcher.Update(ctx(c), accountID(c), workflows.UpdateCancelCheckout, nil, &res); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": res.Status})
}
