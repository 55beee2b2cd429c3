package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/invoicepdf"
	"kudos/store"
	"kudos/workflows"
)

// OpenCheckout prices what is bought (VAT by the billing country; an upgrade
// prorated to the rest of the period), opens the provider's hosted
// checkout, and only then records the checkout with its invoice
// (PROCESSING), in one transaction: a checkout the provider refuses, or
// that times out, leaves no invoice behind.
func (a *Activities) OpenCheckout(ctx context.Context, in workflows.OpenCheckoutInput) (workflows.OpenCheckoutResult, error) {
	var inv *kudos.Invoice
	var discount *kudos.Discount
	if in.Purpose.PaysExistingInvoice() {
		var err error
		if inv, err = a.Store.Invoice(ctx, in.AccountID, in.InvoiceID); err != nil {
			return workflows.OpenCheckoutResult{}, err
		}
	} else {
		var err error
		if discount, err = a.checkoutDiscount(ctx, in); err != nil {
			return workflows.OpenCheckoutResult{}, err
		}
		net := a.Prices.Yearly(in.Plan)
		kind := kudos.InvoiceSubscription
		var lines []kudos.InvoiceLine
		switch in.Purpose {
		case kudos.CheckoutUpgrade:
			kind = kudos.InvoiceUpgrade
			net = kudos.Prorate(a.Prices.Yearly(in.Plan)-a.Prices.Yearly(in.FromPlan), in.Remaining, in.Period)
		case kudos.CheckoutSeats: // the seats added, for the rest of the period (issue 38)
			kind, lines = kudos.InvoiceSeats, seatsBought(a.Prices, in)
			net = kudos.LinesNet(lines)
		}
		prorated := kind == kudos.InvoiceUpgrade || kind == kudos.InvoiceSeats
		if net <= 0 && !prorated {
			return workflows.OpenCheckoutResult{}, temporal.NewNonRetryableApplicationError("nothing to pay", workflows.ErrTypeNoPrice, nil)
		}
		if inv, err = a.priceLines(ctx, in.AccountID, in.InvoiceID, kind, in.Plan, lines, net, discount); err != nil {
			return workflows.OpenCheckoutResult{}, err
		}
		if prorated && inv.Total < kudos.MinimumCharge(inv.Currency) {
			return a.waive(ctx, in, inv, discount)
		}
	}
	email, err := a.Store.OwnerEmail(ctx, in.AccountID)
	if err != nil {
		return workflows.OpenCheckoutResult{}, err
	}
	amount := kudos.Money{Amount: inv.Total, Currency: inv.Currency}
	back := fmt.Sprintf("%s/dashboard/%s/account-settings/plan", a.UIBase, in.AccountID)
	if in.Owed { // a debt paid: back to the invoices, where it shows paid
		back = fmt.Sprintf("%s/dashboard/%s/billing/invoices", a.UIBase, in.AccountID)
	}
	co, err := a.Payments.CreateCheckout(ctx, kudos.CheckoutRequest{
		CheckoutID: in.CheckoutID, AccountID: in.AccountID, CustomerEmail: email, Purpose: in.Purpose,
		Description: "Kudos " + inv.Description, Amount: amount, SuccessURL: back + "?checkout=success",
		CancelURL: back + "?checkout=cancelled", ExpiresAt: in.ExpiresAt,
	})
	if err != nil {
		return workflows.OpenCheckoutResult{}, a.checkoutRefused(ctx, in, err)
	}
	err = a.Store.RecordCheckout(ctx, a.checkoutRecord(in, inv, co))
	if refusal := recordRefusal(err); refusal != nil {
		// The team outgrew the plan, or the code's last use went to
		// another account or it was withdrawn, while the page was being
		// opened: the page goes (a retry would be refused as well),
		// nothing is recorded.
		if _, xerr := a.Payments.ExpireCheckout(ctx, co.ProviderID); xerr != nil {
			return workflows.OpenCheckoutResult{}, xerr
		}
		return workflows.OpenCheckoutResult{}, refusal
	}
	res := workflows.OpenCheckoutResult{ProviderID: co.ProviderID, URL: co.URL, Amount: amount}
	if inv.Discount != nil && !in.Purpose.PaysExistingInvoice() {
		res.Promotion = discount
	}
	return res, err
}

// checkoutRefused is refused for CreateCheckout's errors, but for an
// EConflict: the provider holds a checkout of another total under this
// checkout's id (an earlier attempt made it and its answer was lost, and
// the invoice was priced again since: a VAT id verified, an address
// edited, a code withdrawn). The adapter expired that page, which never
// reached the customer; a record of it that the earlier attempt made
// before dying is closed as expired (CloseCheckout: its new invoice
// dropped, its code's use given back; none made, nothing changes). The
// update answers 409 price_changed, and asked again it opens a new checkout (a
// new id: one a request) at the new price.
func (a *Activities) checkoutRefused(ctx context.Context, in workflows.OpenCheckoutInput, err error) error {
	if kudos.ErrorCode(err) != kudos.EConflict {
		return refused(err)
	}
	if cerr := a.CloseCheckout(ctx, workflows.CloseCheckoutInput{AccountID: in.AccountID, CheckoutID: in.CheckoutID, Purpose: in.Purpose,
		InvoiceID: in.InvoiceID, Outcome: kudos.PaymentExpired}); cerr != nil {
		return cerr
	}
	return temporal.NewNonRetryableApplicationError(errPriceChanged, workflows.ErrTypePriceChanged, err)
}

// errPriceChanged is the customer's message of a checkout refused by
// checkoutRefused.
const errPriceChanged = "the price changed while the checkout was being opened: please try again"

// checkoutRecord is the record of checkout co opened for in, priced by
// inv (co's zero value: a sale waived, never at the provider).
func (a *Activities) checkoutRecord(in workflows.OpenCheckoutInput, inv *kudos.Invoice, co kudos.Checkout) kudos.CheckoutRecord {
	invoiceID := in.InvoiceID
	rec := kudos.CheckoutRecord{ID: in.CheckoutID, AccountID: in.AccountID, Purpose: in.Purpose,
		Plan: in.Plan, InvoiceID: &invoiceID, ExtraSeats: in.ExtraSeats, Provider: a.Payments.Name(), ProviderID: co.ProviderID, URL: co.URL, ExpiresAt: in.ExpiresAt,
		Invoice: inv}
	switch in.Purpose { // what it is priced from, which a late payment of it is checked against
	case kudos.CheckoutUpgrade:
		rec.FromPlan = in.FromPlan
	case kudos.CheckoutSeats:
		from := in.FromExtraSeats
		rec.FromExtraSeats = &from
	}
	return rec
}

// recordRefusal is the non-retryable answer to a checkout's record that
// the store refused for good (the team outgrew the plan: ErrTypeSeatLimit;
// the promotion code cannot be used any more: ErrTypeInvalidPromotion),
// nil for any other outcome.
func recordRefusal(err error) error {
	if kudos.ErrorCode(err) == kudos.ESeatLimit {
		return temporal.NewNonRetryableApplicationError(kudos.ErrorMessage(err), workflows.ErrTypeSeatLimit, err)
	}
	if why := promotionRefusal(err); why != "" {
		return invalidPromotion(why)
	}
	return nil
}

// waive applies a prorated sale (an upgrade, seats) priced as inv, whose
// total is too little for the provider to charge, without a charge: the
// upgrade applies at once on a paid invoice of zero that names what was
// bought. Stripe Billing charges no amount under its minimum either, and
// counts a promotion code's redemption whatever the amount it leaves: a
// code that brought the sale under the minimum (chargeable without it)
// was used for it. Its use is recorded as a checkout's is (RecordCheckout:
// the code's count against max_redemptions, once per account; refused
// when its last use went meanwhile), on a checkout paid at once that never
// reached the provider; the invoice names the code (its discount line at
// nothing: the waiver took the rest), and the result carries its terms
// for the workflow (a forever code discounts the renewals). A sale under
// the minimum without the code is waived without it: the code took
// nothing, and it is not used.
func (a *Activities) waive(ctx context.Context, in workflows.OpenCheckoutInput, inv *kudos.Invoice,
	discount *kudos.Discount) (workflows.OpenCheckoutResult, error) {
	res := workflows.OpenCheckoutResult{Waived: true, WaivedAmount: kudos.Money{Amount: inv.Total, Currency: inv.Currency}}
	used := false
	if d := inv.Discount; d != nil {
		_, undiscounted := kudos.AddVAT(inv.Net+d.Amount, inv.VATRate)
		used = undiscounted >= kudos.MinimumCharge(inv.Currency)
	}
	inv.Net, inv.VAT, inv.Total, inv.Discount = 0, 0, 0, nil
	for i := range inv.Lines { // what was bought stays named, at nothing: the lines add up to the net
		inv.Lines[i].Net = 0
	}
	if now := a.now(); in.Remaining > 0 { // the rest of the period, from now
		inv.Service = &kudos.ServicePeriod{From: now, To: now.Add(in.Remaining)}
	}
	if !used {
		if err := a.Store.CreateInvoice(ctx, *inv); err != nil {
			return workflows.OpenCheckoutResult{}, err
		}
		return res, a.Store.SetInvoiceStatus(ctx, inv.ID, kudos.InvoicePaid)
	}
	inv.Discount = &kudos.InvoiceDiscount{Code: discount.Code}
	err := a.Store.RecordCheckout(ctx, a.checkoutRecord(in, inv, kudos.Checkout{}))
	if refusal := recordRefusal(err); refusal != nil {
		return workflows.OpenCheckoutResult{}, refusal
	} else if err != nil {
		return workflows.OpenCheckoutResult{}, err
	}
	if err := a.Store.SetCheckoutStatus(ctx, in.CheckoutID, string(kudos.PaymentPaid)); err != nil {
		return workflows.OpenCheckoutResult{}, err
	}
	res.Promotion = discount
	return res, a.Store.SetInvoiceStatus(ctx, inv.ID, kudos.InvoicePaid)
}

// CloseCheckout records how a checkout ended and settles its invoice: paid
// → PAID (numbered; an invoice dropped when the checkout closed unpaid is
// billed again at the checkout's price); otherwise a new invoice is dropped
// (nothing is owed for a plan not started) and a due one stays due.
// ExpireAtProvider is only set by histories from before ExpireCheckout.
func (a *Activities) CloseCheckout(ctx context.Context, in workflows.CloseCheckoutInput) error {
	if in.ExpireAtProvider {
		if _, err := a.Payments.ExpireCheckout(ctx, in.ProviderID); err != nil {
			return err
		}
	}
	if err := a.Store.SetCheckoutStatus(ctx, in.CheckoutID, string(in.Outcome)); err != nil {
		return err
	}
	switch {
	case in.Outcome == kudos.PaymentPaid:
		if !in.Purpose.PaysExistingInvoice() {
			c, err := a.Store.Checkout(ctx, in.AccountID, in.CheckoutID)
			if err != nil {
				return err
			}
			if c.Invoice != nil {
				if err := a.Store.CreateInvoice(ctx, *c.Invoice); err != nil { // idempotent by id
					return err
				}
			}
		}
		return a.Store.PayInvoice(ctx, in.InvoiceID, in.CheckoutID)
	case in.Purpose.PaysExistingInvoice():
		return nil
	default:
		if err := a.Store.ReleasePromotion(ctx, in.CheckoutID); err != nil { // the code's use goes back
			return err
		}
		return a.Store.DeleteDraftInvoice(ctx, in.InvoiceID)
	}
}

// SettlePaidCheckout applies a paid checkout in one transaction: the
// checkout paid, its invoice (billed again at the checkout's price if it was
// dropped when the checkout closed) PAID and numbered, and the subscription
// row. Retried, it changes nothing twice.
func (a *Activities) SettlePaidCheckout(ctx context.Context, in workflows.SettlePaidInput) error {
	_, err := a.settlePaid(ctx, in)
	return err
}

// settlePaid is SettlePaidCheckout, returning the invoice as settled.
func (a *Activities) settlePaid(ctx context.Context, in workflows.SettlePaidInput) (*kudos.Invoice, error) {
	how := store.Settlement{Revive: !in.Purpose.PaysExistingInvoice(), NewPeriod: in.NewPeriod}
	return a.Store.SettlePaidCheckout(ctx, in.AccountID, in.CheckoutID, in.InvoiceID, how, in.Record, appliedEvents(in.AppliedEvent)...)
}

// SettlePayment is a payment from settlement to receipt in one activity,
// for one local activity of the workflow: the settlement transaction
// (SettlePaidCheckout), the invoice's PDF, then the receipt queued. The PDF
// and the receipt share the settled invoice and one read of the buyer. Each
// step changes nothing twice, so a retry of the whole (a step that failed
// for a while: storage, Postgres) redoes only what is missing. A PDF or a
// receipt refused for good is logged and the payment stands without it, as
// when they were activities of their own.
func (a *Activities) SettlePayment(ctx context.Context, in workflows.SettlePaymentInput) error {
	inv, err := a.settlePaid(ctx, in.SettlePaidInput)
	if err != nil {
		return err
	}
	to, err := a.recipient(ctx, in.AccountID)
	if err != nil { // no owner: neither the PDF nor the receipt can be addressed
		return standsWithout(ctx, workflows.ActivityRenderInvoicePDF+", "+workflows.ActivityQueueBillingMail, in.InvoiceID, err)
	}
	addr, err := invoicepdf.BuyerOf(ctx, a.Store, *inv)
	if err != nil {
		return err
	}
	pdf := a.storeInvoicePDF(ctx, invoicepdf.Input{Invoice: *inv, Buyer: addr, BuyerEmail: to.email, Language: to.language})
	if err := standsWithout(ctx, workflows.ActivityRenderInvoicePDF, in.InvoiceID, pdf); err != nil {
		return err
	}
	if in.Receipt != nil {
		if err := standsWithout(ctx, workflows.ActivityQueueBillingMail, in.InvoiceID, a.queueBillingMail(ctx, *in.Receipt, to, inv)); err != nil {
			return err
		}
	}
	if !in.Purpose.PaysExistingInvoice() {
		return nil
	}
	return standsWithout(ctx, "UseCheckoutMethod", in.InvoiceID, a.useCheckoutMethod(ctx, in.AccountID, in.CheckoutID, inv))
}

// useCheckoutMethod makes the payment method that paid checkout checkoutID
// (one that pays a renewal or a due invoice: the charge of the default
// failed) the account's default, so that the next renewal charges the card
// the customer paid with, not the one that failed. A first payment or an
// upgrade needs no call: the provider charges the most recent card when no
// default was chosen.
func (a *Activities) useCheckoutMethod(ctx context.Context, accountID uuid.UUID, checkoutID string, inv *kudos.Invoice) error {
	if inv.Total == 0 { // waived: nothing was paid with anything
		return nil
	}
	c, err := a.Store.Checkout(ctx, accountID, checkoutID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	} else if err != nil {
		return err
	}
	return refused(a.Payments.UseCheckoutMethod(ctx, accountID, c.ProviderID))
}

// standsWithout returns err of a payment's step, unless no retry can mend
// it: then the step is logged and the payment stands without it.
func standsWithout(ctx context.Context, step string, invoiceID uuid.UUID, err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.NonRetryable() {
		activity.GetLogger(ctx).Error("payment settled without a step refused for good", "step", step, "invoice", invoiceID, "err", err)
		return nil
	}
	return err
}

// ExpireCheckout closes a checkout at the provider and returns how it
// ended there: a checkout paid (or complete and settling) while its
// deadline passed is a payment, never an expiry.
func (a *Activities) ExpireCheckout(ctx context.Context, in workflows.ExpireCheckoutInput) (kudos.PaymentOutcome, error) {
	outcome, err := a.Payments.ExpireCheckout(ctx, in.ProviderID)
	return outcome, refused(err)
}

// LoadCheckout returns a checkout of the account as the read model keeps
// it (its status, and the price it was opened at).
func (a *Activities) LoadCheckout(ctx context.Context, in workflows.CheckoutRef) (kudos.CheckoutRecord, error) {
	c, err := a.Store.Checkout(ctx, in.AccountID, in.CheckoutID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return kudos.CheckoutRecord{}, temporal.NewNonRetryableApplicationError("no such checkout", workflows.ErrTypeNoCheckout, err)
	}
	if err != nil {
		return kudos.CheckoutRecord{}, err
	}
	if c.Purpose != kudos.CheckoutPaymentMethod { // paid or not here: a payment lost to a dispute before its event came is taken back too
		c.TakenBack, err = a.Store.PaymentTakenBack(ctx, in.AccountID, c.ID)
	}
	return *c, err
}

// RefundCheckout gives back the whole payment of a checkout that was paid
// when nothing was owed any more (idempotent: one refund per checkout), and
// records it with its credit note (a checkout that paid a numbered
// invoice), whose PDF it then stores. A refusal for good is recorded for an operator; one the
// provider says is temporary is, when the input is Deferrable, recorded as
// deferred (with its next try, in.RetryAt) and returned as
// ErrTypeRefundDeferred for the workflow (or the reconciliation) to try
// again later.
func (a *Activities) RefundCheckout(ctx context.Context, in workflows.RefundInput) error {
	c, err := a.Store.Checkout(ctx, in.AccountID, in.CheckoutID)
	if err != nil {
		return err
	}
	if c.Invoice == nil {
		return temporal.NewNonRetryableApplicationError("the checkout's price is not known", workflows.ErrTypeNoPrice, nil)
	}
	amount := kudos.Money{Amount: c.Invoice.Total, Currency: c.Invoice.Currency}
	refundID := "refund:" + c.ID
	req := kudos.RefundRequest{RefundID: refundID, ProviderID: c.ProviderID, AccountID: in.AccountID, Amount: amount}
	if err := a.giveBack(ctx, in, req, c.ID); err != nil {
		return err
	}
	cn, err := a.refundCreditNote(ctx, in.AccountID, refundID)
	if err != nil {
		return err
	}
	return a.queueRefundMail(ctx, in.AccountID, refundID, cn, c.Plan, amount, false)
}

// refundCreditNote is the credit note refund refundID issued, if it issued
// one (a refund of an invoiced sale; nil otherwise), with its PDF stored:
// the receipt that names it goes out after.
func (a *Activities) refundCreditNote(ctx context.Context, accountID uuid.UUID, refundID string) (*kudos.Invoice, error) {
	cn, err := a.Store.CreditNoteOfRefund(ctx, accountID, refundID)
	switch {
	case kudos.ErrorCode(err) == kudos.ENotFound:
		return nil, nil
	case err != nil:
		return nil, err
	}
	return cn, a.storeCreditNotePDF(ctx, *cn)
}

// giveBack makes refund req (of the payment paymentRef: a checkout's id, or
// an off-session charge's) at the provider and records it, unless it is
// made already (a retry, or an operator made it by hand while it was
// deferred: never twice). A refund made that failed at the provider after
// (failed, or settled_by_dispute or settled_by_return since) counts as made: it is an
// operator's (`kudos ops refund` pays it out again, under a key of its
// own), and a replay or a reset of this activity asks nothing of the
// provider, whose refund key changes with time (a second refund there,
// paid out and never booked). A refusal for now of a Deferrable try is
// recorded as deferred until in.RetryAt (when set) and returned as
// ErrTypeRefundDeferred; one for good (or the last try's) is recorded as
// refused.
func (a *Activities) giveBack(ctx context.Context, in workflows.RefundInput, req kudos.RefundRequest, paymentRef string) error {
	refundID, amount := req.RefundID, req.Amount
	status, err := a.Store.RefundStatus(ctx, refundID)
	if err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
		return err
	}
	switch status {
	case "refunded":
		return nil
	case "failed", "settled_by_dispute", "settled_by_return":
		activity.GetLogger(ctx).Info("refund made before, failed at the provider since: left to an operator, not made again",
			"refund", refundID, "status", status)
		return nil
	}
	providerID, err := a.Payments.Refund(ctx, req)
	if kudos.ErrorCode(err) == kudos.EUnavailable {
		if in.Deferrable {
			if !in.RetryAt.IsZero() {
				if rerr := a.Store.RecordDeferredRefund(ctx, in.AccountID, refundID, paymentRef, err.Error(), amount, in.RetryAt); rerr != nil {
					return rerr
				}
			}
			return temporal.NewNonRetryableApplicationError(err.Error(), workflows.ErrTypeRefundDeferred, err)
		}
		err = kudos.Errorf(kudos.EInvalid, "%s", kudos.ErrorMessage(err)) // the last try: refused
	}
	if err != nil {
		err = refused(err)
		if temporal.IsApplicationError(err) { // refused for good: recorded for an operator, never only logged
			if rerr := a.Store.RecordRefusedRefund(ctx, in.AccountID, refundID, paymentRef, err.Error(), amount); rerr != nil {
				return rerr
			}
		}
		return err
	}
	reason := in.Reason
	if reason == "" {
		reason = "paid when nothing was owed"
	}
	return a.Store.RecordRefund(ctx, in.AccountID, refundID, paymentRef, providerID, reason, amount)
}

// queueRefundMail queues the owner's receipt of refund refundID
// (refund_issued) with its credit note cn's number, if it has one (nil
// otherwise), once its PDF is stored: keyed by the refund, a retried
// activity queues no second mail (the outbox keeps one entry per key).
//
// requested is set for a refund an operator made (ops, the provider's
// dashboard: issue 36), which the mail does not call a payment nothing was
// owed for.
func (a *Activities) queueRefundMail(ctx context.Context, accountID uuid.UUID, refundID string, cn *kudos.Invoice, plan kudos.Plan,
	amount kudos.Money, requested bool) error {
	b := kudos.MailBilling{AccountID: accountID, Plan: plan, Amount: &amount, RefundRequested: requested}
	if cn != nil {
		b.CreditNoteNumber, b.InvoiceNumber, b.InvoiceID = cn.Number, cn.CorrectsNumber, &cn.ID
	}
	to, err := a.recipient(ctx, accountID)
	if err != nil { // no owner to tell (refused for good): the refund stands without its mail
		var about uuid.UUID
		if b.InvoiceID != nil {
			about = *b.InvoiceID
		}
		return standsWithout(ctx, "refund_issued mail", about, err)
	}
	if a.QueueMail == nil { // the refund is made and recorded: it stands without its receipt
		activity.GetLogger(ctx).Error("no mail queue configured: refund receipt not queued", "refund", refundID)
		return nil
	}
	req := kudos.MailRequest{Key: "refund_issued:" + refundID, Purpose: kudos.MailRefundIssued, To: to.email, Name: to.name,
		Language: to.language, Billing: &b}
	return a.QueueMail(ctx, req, nil)
}

// storeCreditNotePDF renders and stores the PDF of credit note cn. A
// retry renders the same bytes to the same key; a PDF refused for good is
// logged and the refund stands without it.
func (a *Activities) storeCreditNotePDF(ctx context.Context, cn kudos.Invoice) error {
	in, err := invoicepdf.InputFrom(ctx, a.Store, cn) // an erased account's too: drawn for its buyer snapshot
	if err != nil {
		return err
	}
	return standsWithout(ctx, workflows.ActivityRenderInvoicePDF, cn.ID, a.storeInvoicePDF(ctx, in))
}

// VerifyPaymentMethod verifies the payment method a payment-method checkout
// saved (kudos.VerificationRequest: the sandbox's 0.01 refunded at once,
// Stripe's check with the bank) and
// records the checkout as paid. A method the provider declines is a
// refusal: the checkout is recorded as failed.
func (a *Activities) VerifyPaymentMethod(ctx context.Context, in workflows.CheckoutRef) error {
	c, err := a.Store.Checkout(ctx, in.AccountID, in.CheckoutID)
	if err != nil {
		return err
	}
	err = a.Payments.VerifyPaymentMethod(ctx, kudos.VerificationRequest{VerificationID: c.ID, ProviderID: c.ProviderID,
		AccountID: in.AccountID, Amount: kudos.Money{Amount: kudos.VerificationCharge, Currency: a.Prices.Currency}})
	if kudos.ErrorCode(err) == kudos.EInvalid {
		if serr := a.Store.SetCheckoutStatus(ctx, c.ID, string(kudos.PaymentFailed)); serr != nil {
			return serr
		}
		return refused(err)
	}
	if err != nil {
		return err
	}
	return a.Store.SetCheckoutStatus(ctx, c.ID, string(kudos.PaymentPaid))
}

// ChargeRenewal makes the renewal invoice (or takes the one a failed
// attempt left, at its price) and charges the default payment method
// off-session under in.ChargeID: paid → PAID; declined → DUE_PAYMENT. A
// payment the provider holds under in.ChargeID for another amount or
// currency than the invoice's total pays nothing of it (FailureReason
// workflows.FailureChargeMismatch, the invoice DUE_PAYMENT as refused). A
// charge under a key whose payment was taken back since (returned, lost to
// a dispute: asked again by a stale event of it, the provider still reads
// it as succeeded) is not paid, and nothing is charged or written.
func (a *Activities) ChargeRenewal(ctx context.Context, in workflows.RenewalInput) (workflows.RenewalResult, error) {
	if taken, err := a.Store.PaymentTakenBack(ctx, in.AccountID, in.ChargeID); err != nil || taken {
		return workflows.RenewalResult{FailureReason: "payment_returned"}, err
	}
	inv, err := a.Store.Invoice(ctx, in.AccountID, in.InvoiceID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		inv, err = a.newInvoice(ctx, in.AccountID, in.InvoiceID, kudos.InvoiceRenewal, in.Plan, in.ExtraSeats, kudos.InvoiceProcessing, in.Service, in.Discount)
	}
	if err != nil {
		return workflows.RenewalResult{}, err
	}
	amount := kudos.Money{Amount: inv.Total, Currency: inv.Currency}
	if inv.Status == kudos.InvoicePaid { // paid by an earlier attempt (or its checkout): never charged twice
		return workflows.RenewalResult{Paid: true, Amount: amount}, nil
	}
	if inv.Total == 0 { // discounted to nothing (a 100 % code): paid, nothing to charge
		return workflows.RenewalResult{Paid: true, Amount: amount}, a.Store.SetInvoiceStatus(ctx, in.InvoiceID, kudos.InvoicePaid)
	}
	owner, err := a.Store.OwnerEmail(ctx, in.AccountID) // the provider's customer is kept addressed to them
	if err != nil && kudos.ErrorCode(err) != kudos.ENotFound {
		return workflows.RenewalResult{}, err
	}
	res, err := a.Payments.ChargeOffSession(ctx, kudos.ChargeRequest{ChargeID: in.ChargeID, AccountID: in.AccountID,
		Amount: amount, Description: "Kudos " + kudos.InvoiceDescription(kudos.InvoiceRenewal, in.Plan), CustomerEmail: owner})
	switch code := kudos.ErrorCode(err); {
	case code == kudos.EConflict:
		// A payment under this key of another amount or currency: another
		// invoice's (a key of its period reused), never this one's. Unpaid,
		// as refused; the workflow gives that payment back (strayCharge).
		activity.GetLogger(ctx).Error("the provider holds a payment of another amount under this charge's key: not this invoice's",
			"charge", in.ChargeID, "invoice", in.InvoiceID, "err", err)
		res = kudos.ChargeResult{FailureReason: workflows.FailureChargeMismatch}
	case err != nil && code == kudos.EInvalid:
		// Refused for good: an unpaid renewal, like a decline.
		res = kudos.ChargeResult{FailureReason: "provider_refused"}
	case err != nil:
		return workflows.RenewalResult{}, err
	}
	return a.renewalCharged(ctx, in, amount, res)
}

// renewalCharged records the outcome of the renewal charge in on its
// invoice: paid → PAID (paid by the charge's key); settling → unchanged
// (PROCESSING, asked about again later); declined → DUE_PAYMENT.
func (a *Activities) renewalCharged(ctx context.Context, in workflows.RenewalInput, amount kudos.Money, res kudos.ChargeResult) (workflows.RenewalResult, error) {
	out := workflows.RenewalResult{Paid: res.Paid, Pending: res.Pending && !res.Paid, FailureReason: res.FailureReason, Amount: amount}
	if out.Pending {
		return out, nil
	}
	if res.Paid {
		return out, a.Store.PayInvoice(ctx, in.InvoiceID, in.ChargeID)
	}
	return out, a.Store.SetInvoiceStatus(ctx, in.InvoiceID, kudos.InvoiceDue)
}

// CancelRenewalCharge cancels, at the provider, a renewal charge that has
// been settling past its limit, if the provider still lets it be, and
// records how it stands (see ChargeRenewal).
func (a *Activities) CancelRenewalCharge(ctx context.Context, in workflows.RenewalInput) (workflows.RenewalResult, error) {
	inv, err := a.Store.Invoice(ctx, in.AccountID, in.InvoiceID)
	if err != nil {
		return workflows.RenewalResult{}, err
	}
	amount := kudos.Money{Amount: inv.Total, Currency: inv.Currency}
	if inv.Status == kudos.InvoicePaid {
		return workflows.RenewalResult{Paid: true, Amount: amount}, nil
	}
	res, err := a.Payments.CancelCharge(ctx, in.AccountID, in.ChargeID)
	if err != nil {
		return workflows.RenewalResult{}, refused(err)
	}
	return a.renewalCharged(ctx, in, amount, res)
}

// CreateDueInvoice makes the PAYMENTDUE invoice that 'continue with plan'
// pays when a plan stops at its renewal date. One made already (a retry)
// keeps its price.
func (a *Activities) CreateDueInvoice(ctx context.Context, in workflows.DueInvoiceInput) error {
	if _, err := a.Store.Invoice(ctx, in.AccountID, in.InvoiceID); kudos.ErrorCode(err) != kudos.ENotFound {
		return err
	}
	_, err := a.newInvoice(ctx, in.AccountID, in.InvoiceID, kudos.InvoicePaymentDue, in.Plan, in.ExtraSeats, kudos.InvoiceDue, nil, in.Discount)
	return err
}

// newInvoice creates (idempotently) a full-year invoice for plan with its
// extra seats (their own line; issue 38), for the service period service
// when it is known now (a renewal's; nil: set when it is paid), less the
// account's promotion discount (nil: none). It is priced off-session: a
// verified VAT id whose verification is older than kudos.VATRecheckAfter
// is asked about again first (recheckVATID).
func (a *Activities) newInvoice(ctx context.Context, accountID, id uuid.UUID, kind kudos.InvoiceKind, plan kudos.Plan, extraSeats int,
	status kudos.InvoiceStatus, service *kudos.ServicePeriod, discount *kudos.Discount) (*kudos.Invoice, error) {
	if err := a.recheckVATID(ctx, accountID); err != nil {
		return nil, err
	}
	inv, err := a.priceLines(ctx, accountID, id, kind, plan, a.yearLines(plan, extraSeats), 0, discount)
	if err != nil {
		return nil, err
	}
	inv.Status, inv.Service = status, service
	return inv, a.Store.CreateInvoice(ctx, *inv)
}

// price is the one pricing of an invoice (and so of the checkout that pays
// it): net plus the VAT of the account's quote (kudos.QuoteFor: the whole
// kudos.DecideVAT decision — its billing country's rate, reverse charge at
// 0 %, 0 % outside the EU, or a registration's rate there), in the price
// list's currency (PROCESSING, not stored). The quote is one read of the
// billing address: the invoice carries the buyer its VAT was decided for,
// which its numbering and its credit notes keep.
func (a *Activities) price(ctx context.Context, accountID, id uuid.UUID, kind kudos.InvoiceKind, plan kudos.Plan, net int64) (*kudos.Invoice, error) {
	q, err := a.quote(ctx, accountID)
	if err != nil {
		return nil, err
	}
	d := q.VAT
	vat, total := kudos.AddVAT(net, d.Rate)
	return &kudos.Invoice{ID: id, AccountID: accountID, Kind: kind, Plan: plan, Net: net, VAT: vat, VATRate: d.Rate, Total: total,
		Currency: a.Prices.Currency, Status: kudos.InvoiceProcessing, Description: kudos.InvoiceDescription(kind, plan),
		ReverseCharge: d.ReverseCharge, OutsideEU: d.OutsideEU, SellerVATID: d.SellerVATID, Buyer: q.Buyer, Quoted: true}, nil
}

// quote is the account's quote now: its billing address, read once, and
// the VAT decided for it.
func (a *Activities) quote(ctx context.Context, accountID uuid.UUID) (kudos.Quote, error) {
	buyer, err := a.Store.BillingAddress(ctx, accountID)
	if err != nil {
		return kudos.Quote{}, err
	}
	return kudos.QuoteFor(kudos.VATSeller{Country: a.SellerCountry, Registrations: a.VATRegistrations}, buyer), nil
}

// QuoteHolds reports whether the quote an open checkout was priced by
// still holds: the billing address, read now, would be quoted the same
// (kudos.Quote.Holds: the same VAT decision and buyer). A checkout the read
// model does not know, or kept without its price, has nothing to compare
// and holds.
func (a *Activities) QuoteHolds(ctx context.Context, in workflows.CheckoutRef) (bool, error) {
	c, err := a.Store.Checkout(ctx, in.AccountID, in.CheckoutID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return true, nil
	} else if err != nil {
		return false, err
	}
	if c.Invoice == nil {
		return true, nil
	}
	q, err := a.quote(ctx, in.AccountID)
	if err != nil {
		return false, err
	}
	return q.Holds(*c.Invoice), nil
}

// WriteSubscription stores the subscription's read model (idempotent),
// marking the payment event whose application it ends applied.
func (a *Activities) WriteSubscription(ctx context.Context, in workflows.WriteSubscriptionInput) error {
	return a.Store.WriteSubscription(ctx, in.AccountID, in.Record, appliedEvents(in.AppliedEvent)...)
}

// MarkEventsApplied records payment events the workflow has applied.
func (a *Activities) MarkEventsApplied(ctx context.Context, in workflows.MarkEventsAppliedInput) error {
	return a.Store.MarkPaymentEventsApplied(ctx, in.AccountID, in.EventIDs)
}

// appliedEvents is the list of an input's applied event ("" : none).
func appliedEvents(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}
