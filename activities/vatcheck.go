package activities

import (
	"context"
	"errors"
	"strconv"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/dispatch"
	"kudos/vatcheck"
	"kudos/workflows"
)

// CheckVATID asks the VAT checker about the id a pending check was started
// for, unless the billing address has changed since (another id or a later
// save: Stale). VIES being unavailable is an outcome (not Answered), which
// the workflow waits on; Postgres being away is an error, retried.
func (a *Activities) CheckVATID(ctx context.Context, in workflows.VATCheckInput) (workflows.VATCheckOutcome, error) {
	if a.VATChecker == nil {
		return workflows.VATCheckOutcome{}, temporal.NewNonRetryableApplicationError("no VAT checker configured", "NoVATChecker", nil)
	}
	addr, err := a.Store.BillingAddress(ctx, in.AccountID)
	if err != nil {
		return workflows.VATCheckOutcome{}, err
	}
	if addr == nil || addr.VATID != in.VATID || addr.Version != in.Version || addr.VATIDStatus != kudos.VATIDPending {
		return workflows.VATCheckOutcome{Stale: true}, nil
	}
	// VIES's answer kept from any account's question within
	// kudos.VATAnswerTTL serves (issue 35); the workflow's own waits bound
	// its questions, and only a save within its limits starts it.
	valid, err := vatcheck.Ask(ctx, a.Store, a.VATChecker, in.Country, in.VATID, nil)
	if errors.Is(err, kudos.ErrVATCheckUnavailable) {
		activity.GetLogger(ctx).Info("VIES unavailable", "account", in.AccountID, "error", err)
		return workflows.VATCheckOutcome{}, nil
	}
	if err != nil {
		return workflows.VATCheckOutcome{}, err
	}
	return workflows.VATCheckOutcome{Answered: true, Valid: valid}, nil
}

// RecordVATCheck writes a check's result if the address still has the id
// and version it was made for and is pending (store.RecordVATCheck), with
// the owner's vat_id_checked mail and the timeline's vat_id_checked event
// in the same transaction; keyed by the version, a retry sends nothing
// twice. It reports whether it wrote.
func (a *Activities) RecordVATCheck(ctx context.Context, in workflows.RecordVATCheckInput) (bool, error) {
	to, err := a.recipient(ctx, in.AccountID)
	if err != nil {
		return false, err
	}
	key := dispatch.VATCheckedKey(in.AccountID, in.Version)
	req := kudos.MailRequest{Key: key, Purpose: kudos.MailVATIDChecked, To: to.email, Name: to.name, Language: to.language,
		VAT: &kudos.MailVAT{AccountID: in.AccountID, VATID: in.VATID, Status: in.Status, GaveUp: in.GaveUp}}
	ev := kudos.BillingEvent{AccountID: in.AccountID, Type: kudos.EventVATIDChecked, Key: key}
	// The status may change the VAT of an open checkout's quote: its
	// workflow is told, in the same transaction.
	wrote, err := a.Store.RecordVATCheck(ctx, in.AccountID, in.VATID, in.Version, in.Status, dispatch.Mail(req), ev,
		dispatch.QuoteChanged(in.AccountID, "vat:"+strconv.Itoa(in.Version)))
	if wrote && a.Kick != nil {
		a.Kick()
	}
	return wrote, err
}
