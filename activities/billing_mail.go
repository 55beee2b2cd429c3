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
	to, err := a.recipient(ctx, in.AccountID)
	if err != nil {
		return err
	}
	return a.queueBillingMail(ctx, in, to, nil)
}

// queueBillingMail is QueueBillingMail to recipient to; known, when not nil,
// is the mail's invoice as just read (else it is read).
func (a *Activities) queueBillingMail(ctx context.Context, in workflows.BillingMailInput, to recipient, known *kudos.Invoice) error {
	req, err := a.billingMail(ctx, in, to, known)
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

// recipient is an account's owner as a mail addresses them.
type recipient struct{ email, name, language string }

// recipient reads the account's owner (an account without one is refused
// for good).
func (a *Activities) recipient(ctx context.Context, accountID uuid.UUID) (recipient, error) {
	email, name, lang, err := a.Store.MailRecipient(ctx, accountID)
	return recipient{email: email, name: name, language: lang}, refused(err)
}

// billingMail is the request of a billing mail to to; known, when not nil,
// is an invoice just read, used when the mail is about it.
func (a *Activities) billingMail(ctx context.Context, in workflows.BillingMailInput, to recipient, known *kudos.Invoice) (kudos.MailRequest, error) {
	if !in.Purpose.IsBilling() {
		return kudos.MailRequest{}, temporal.NewNonRetryableApplicationError("not a billing mail: "+string(in.Purpose), workflows.ErrTypeBadMail, nil)
	}
	b := in.Billing
	b.AccountID = in.AccountID
	if b.InvoiceID != nil {
		inv := known
		if inv == nil || inv.ID != *b.InvoiceID {
			var err error
			if inv, err = a.Store.Invoice(ctx, in.AccountID, *b.InvoiceID); err != nil {
				return kudos.MailRequest{}, refused(err)
			}
		}
		b.InvoiceNumber = inv.Number
		if b.Amount == nil {
			b.Amount = &kudos.Money{Amount: inv.Total, Currency: inv.Currency}
		}
	}
	if b.Amount == nil && in.Purpose == kudos.MailRenewalReminder && b.AutoRenew {
		plan := b.Plan // the plan the renewal charges: a lower one scheduled (issue 38), with its extra seats
		if b.NextPlan != "" {
			plan = b.NextPlan
		}
		inv, err := a.priceLines(ctx, in.AccountID, uuid.Nil, kudos.InvoiceRenewal, plan, a.yearLines(plan, b.ExtraSeats), 0, b.Discount)
		if err != nil {
			return kudos.MailRequest{}, err
		}
		b.Amount = &kudos.Money{Amount: inv.Total, Currency: inv.Currency}
	}
	return kudos.MailRequest{Key: in.Key, Purpose: in.Purpose, To: to.email, Language: to.language, Name: to.name, Billing: &b}, nil
}

// LoadLifecycle returns the worker's reminder and dunning timings, for a
// workflow whose state was made before they were part of it.
func (a *Activities) LoadLifecycle(context.Context, workflows.LifecycleInput) (kudos.Lifecycle, error) {
	return a.Lifecycle, nil
}
