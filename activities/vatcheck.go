package activities

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/dispatch"
	"kudos/store"
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
	return a.recordVATStatus(ctx, in, dispatch.VATCheckedKey(in.AccountID, in.Version), "vat:"+strconv.Itoa(in.Version), a.Store.RecordVATCheck)
}

// vatStatusWriter writes a VAT id's status with its effects
// (store.RecordVATCheck, store.RecordVATRecheck).
type vatStatusWriter func(ctx context.Context, accountID uuid.UUID, vatID string, version int, status kudos.VATIDStatus,
	mail store.OutboxEntry, ev kudos.BillingEvent, also ...store.OutboxEntry) (bool, error)

// recordVATStatus writes in.Status with write, with the owner's
// vat_id_checked mail and the timeline's vat_id_checked event (both keyed
// key) and the news to the subscription workflow (keyed news) in write's
// transaction, and reports whether it wrote.
func (a *Activities) recordVATStatus(ctx context.Context, in workflows.RecordVATCheckInput, key, news string, write vatStatusWriter) (bool, error) {
	to, err := a.recipient(ctx, in.AccountID)
	if err != nil {
		return false, err
	}
	req := kudos.MailRequest{Key: key, Purpose: kudos.MailVATIDChecked, To: to.email, Name: to.name, Language: to.language,
		VAT: &kudos.MailVAT{AccountID: in.AccountID, VATID: in.VATID, Status: in.Status, GaveUp: in.GaveUp}}
	ev := kudos.BillingEvent{AccountID: in.AccountID, Type: kudos.EventVATIDChecked, Key: key}
	// The status may change the VAT of an open checkout's quote: its
	// workflow is told, in the same transaction.
	wrote, err := write(ctx, in.AccountID, in.VATID, in.Version, in.Status, dispatch.Mail(req), ev, dispatch.QuoteChanged(in.AccountID, news))
	if wrote && a.Kick != nil {
		a.Kick()
	}
	return wrote, err
}

// vatRecheckTimeout bounds the question to VIES an invoice priced
// off-session may wait for: past it the last verification stands.
const vatRecheckTimeout = 8 * time.Second

// recheckVATID asks VIES again about the verified VAT id of the account's
// billing address when that verification is older than
// kudos.VATRecheckAfter (or of unknown age), before an invoice is priced
// off-session: a reverse charge relies on the id being valid at the supply.
// Valid: the verification is fresh from now. Invalid: the id is recorded
// invalid as a check's result is (the owner's vat_id_checked mail, the
// timeline's event, the news to the subscription workflow), so that the
// invoice, priced next, charges VAT. VIES unavailable (also past
// vatRecheckTimeout): the last verification stands, logged; the next
// invoice asks again. A kept answer of VIES (vat_answers, within
// kudos.VATAnswerTTL) serves as one. Retried, it asks nothing once the id
// is fresh or invalid; an address saved meanwhile is not written over.
func (a *Activities) recheckVATID(ctx context.Context, accountID uuid.UUID) error {
	if a.VATChecker == nil {
		return nil
	}
	addr, verifiedAt, err := a.Store.VerifiedBillingAddress(ctx, accountID)
	if err != nil || addr == nil || addr.VATIDStatus != kudos.VATIDVerified {
		return err
	}
	if verifiedAt != nil && a.now().Sub(*verifiedAt) < kudos.VATRecheckAfter {
		return nil
	}
	qctx, cancel := context.WithTimeout(ctx, vatRecheckTimeout)
	defer cancel()
	valid, err := vatcheck.Ask(qctx, a.Store, a.VATChecker, addr.Country, addr.VATID, nil)
	switch {
	case errors.Is(err, kudos.ErrVATCheckUnavailable) || (err != nil && qctx.Err() != nil && ctx.Err() == nil):
		activity.GetLogger(ctx).Warn("VAT id could not be rechecked before the invoice: its last verification stands",
			"account", accountID, "vat_id", addr.VATID, "verified_at", verifiedAt, "error", err)
		return nil
	case err != nil:
		return err
	case valid:
		_, err = a.Store.ReverifyVATID(ctx, accountID, addr.VATID, addr.Version)
		return err
	}
	in := workflows.RecordVATCheckInput{VATCheckInput: workflows.VATCheckInput{AccountID: accountID, Country: addr.Country,
		VATID: addr.VATID, Version: addr.Version}, Status: kudos.VATIDInvalid}
	wrote, err := a.recordVATStatus(ctx, in, dispatch.VATRecheckedKey(accountID, addr.Version),
		"vat:"+strconv.Itoa(addr.Version)+":recheck", a.Store.RecordVATRecheck)
	if wrote {
		activity.GetLogger(ctx).Info("VAT id no longer valid at the recheck before the invoice: VAT charged", "account", accountID,
			"vat_id", addr.VATID, "verified_at", verifiedAt)
	}
	return err
}
