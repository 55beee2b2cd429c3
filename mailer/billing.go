package mailer

import (
	"strings"

	"github.com/google/uuid"

	"kudos"
)

// billingView is what a billing mail's templates see of its
// kudos.MailBilling: the facts already written in the mail's language.
type billingView struct {
	Plan          string
	Amount        string
	InvoiceNumber string
	// CreditNoteNumber is a refund's credit note ("" when none).
	CreditNoteNumber string
	PeriodStart      string
	PeriodEnd        string
	// Date is the trial's end, the renewal or end date, the next attempt
	// or the plan's end, depending on the purpose ("" when unset).
	Date      string
	AutoRenew bool
	// RefundRequested: a refund an operator made (issue 36).
	RefundRequested bool
	// NextPlan is, on a renewal reminder, the lower plan the renewal
	// starts (issue 38; "" when none).
	NextPlan string
	// Returned: on payment_failed, a debit that came back and that nothing
	// retries (the customer pays the invoice).
	Returned bool
}

// billingFacts checks that req carries every fact its billing purpose must
// state, and writes them in lang. A mail missing one is refused (EInvalid)
// rather than sent with a blank. It returns nil for other purposes, which
// must not carry billing facts.
func billingFacts(req kudos.MailRequest, lang string) (*billingView, error) {
	b := req.Billing
	if !req.Purpose.IsBilling() {
		if b != nil {
			return nil, kudos.Errorf(kudos.EInvalid, "mail: purpose %q carries no billing facts", req.Purpose)
		}
		return nil, nil
	}
	if b == nil {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: billing mail %q without its billing facts", req.Purpose)
	}
	var missing []string
	need := func(ok bool, fact string) {
		if !ok {
			missing = append(missing, fact)
		}
	}
	need(b.AccountID != uuid.Nil, "account_id")
	need(req.Purpose == kudos.MailTrialReminder || b.Plan.IsPaid(), "plan")
	hasAmount := b.Amount != nil && strings.TrimSpace(b.Amount.Currency) != ""
	switch req.Purpose {
	case kudos.MailTrialReminder:
		need(b.Date != nil, "date")
	case kudos.MailRenewalReminder:
		need(b.Date != nil, "date")
		need(hasAmount || !b.AutoRenew, "amount")
	case kudos.MailPaymentReceipt:
		need(strings.TrimSpace(b.InvoiceNumber) != "", "invoice_number")
		need(hasAmount, "amount")
		need(b.PeriodStart != nil, "period_start")
		need(b.PeriodEnd != nil, "period_end")
	case kudos.MailPaymentFailed:
		need(hasAmount, "amount")
		need(b.Date != nil || b.Returned, "date (the next attempt, unless the payment was returned)")
		need(b.InvoiceID != nil, "invoice_id")
	case kudos.MailPaymentActionRequired:
		need(hasAmount, "amount")
		need(b.InvoiceID != nil, "invoice_id")
		need(kudos.IsWebURL(b.PayURL), "pay_url (an http or https URL)")
	case kudos.MailPlanExpired:
		need(hasAmount, "amount")
	case kudos.MailRefundIssued:
		need(hasAmount, "amount")
		need(b.CreditNoteNumber == "" || strings.TrimSpace(b.InvoiceNumber) != "", "invoice_number (the invoice the credit note corrects)")
	}
	if len(missing) > 0 {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: %s mail without %s", req.Purpose, strings.Join(missing, ", "))
	}
	v := &billingView{Plan: planName(b.Plan), NextPlan: planName(b.NextPlan), InvoiceNumber: strings.TrimSpace(b.InvoiceNumber), AutoRenew: b.AutoRenew,
		RefundRequested: b.RefundRequested, Returned: b.Returned,
		CreditNoteNumber: strings.TrimSpace(b.CreditNoteNumber)}
	if hasAmount {
		v.Amount = formatMoney(*b.Amount, lang)
	}
	if b.Date != nil {
		v.Date = formatDate(*b.Date, lang)
	}
	if b.PeriodStart != nil {
		v.PeriodStart = formatDate(*b.PeriodStart, lang)
	}
	if b.PeriodEnd != nil {
		v.PeriodEnd = formatDate(*b.PeriodEnd, lang)
	}
	return v, nil
}
