package activities

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// QueueBillingMail has a billing mail delivered to the account's owner: it
// builds the request (the recipient from Postgres, and the facts the
// workflow does not keep: the invoice's number and amount, the price a
// renewal will charge) and queues it in the outbox, from which the durable
// e-mail workflow delivers it, like every other mail. The outbox keeps one
// entry per key: queued again, it sends nothing twice.
func (a *Activities) QueueBillingMail(ctx context.Context, in workflows.BillingMailInput) error {
	req, err := a.billingMail(ctx, in)
	if err != nil {
		return err
	}
	if a.QueueMail == nil {
		return temporal.NewNonRetryableApplicationError("no mail queue configured", workflows.ErrTypeBadMail, nil)
	}
	return a.QueueMail(ctx, req, reminderEvent(req))
}

// reminderEvent is the timeline's record of a reminder mail queued (nil
// for the other mails: the payments they tell of are recorded already).
func reminderEvent(req kudos.MailRequest) *kudos.BillingEvent {
	typ := map[kudos.MailPurpose]kudos.BillingEventType{kudos.MailTrialReminder: kudos.EventTrialReminderSent,
		kudos.MailRenewalReminder: kudos.EventRenewalReminderSent}[req.Purpose]
	if typ == "" {
		return nil
	}
	return &kudos.BillingEvent{AccountID: req.Billing.AccountID, Type: typ, Plan: req.Billing.Plan, Key: string(typ) + ":" + req.Key}
}

// billingMail is the request of a billing mail.
func (a *Activities) billingMail(ctx context.Context, in workflows.BillingMailInput) (kudos.MailRequest, error) {
	if !in.Purpose.IsBilling() {
		return kudos.MailRequest{}, temporal.NewNonRetryableApplicationError("not a billing mail: "+string(in.Purpose), workflows.ErrTypeBadMail, nil)
	}
	to, name, lang, err := a.Store.MailRecipient(ctx, in.AccountID)
	if err != nil {
		return kudos.MailRequest{}, refused(err)
	}
	b := in.Billing
	b.AccountID = in.AccountID
	if b.InvoiceID != nil {
		inv, err := a.Store.Invoice(ctx, in.AccountID, *b.InvoiceID)
		if err != nil {
			return kudos.MailRequest{}, refused(err)
		}
		b.InvoiceNumber = inv.Number
		if b.Amount == nil {
			b.Amount = &kudos.Money{Amount: inv.Total, Currency: inv.Currency}
		}
	}
	if b.Amount == nil && in.Purpose == kudos.MailRenewalReminder && b.AutoRenew {
		inv, err := a.price(ctx, in.AccountID, uuid.Nil, kudos.InvoiceRenewal, b.Plan, a.Prices.Yearly(b.Plan))
		if err != nil {
			return kudos.MailRequest{}, err
		}
		b.Amount = &kudos.Money{Amount: inv.Total, Currency: inv.Currency}
	}
	return kudos.MailRequest{Key: in.Key, Purpose: in.Purpose, To: to, Language: lang, Name: name, Billing: &b}, nil
}

// LoadLifecycle returns the worker's reminder and dunning timings, for a
// workflow whose state was made before they were part of it.
func (a *Activities) LoadLifecycle(context.Context, workflows.LifecycleInput) (kudos.Lifecycle, error) {
	return a.Lifecycle, nil
}
