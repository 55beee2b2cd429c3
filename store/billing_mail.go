package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"kudos"
)

// BillingMailCurrent reports whether the billing mail req still tells the
// truth about its account (req.Billing.AccountID), just before it goes out:
//   - trial_reminder: still on the trial, not expired, ending at Billing.Date;
//   - renewal_reminder: on a paid plan, not expired, renewing (or ending) at
//     Billing.Date, with auto-renewal as Billing.AutoRenew says;
//   - payment_failed, payment_action_required: the payment of invoice
//     Billing.InvoiceID is still the one being retried; a payment_failed
//     of a returned debit that nothing retries (Returned, no Date): the
//     invoice is still due (it is owed, and no retry is what it says);
//   - plan_expired: the plan is still expired;
//   - payment_receipt: always (a payment made stays made).
//
// An account that is gone has no current mail. Dates compare at the
// microsecond Postgres keeps, whatever their zone.
func (db *DB) BillingMailCurrent(ctx context.Context, req kudos.MailRequest) (bool, error) {
	b := req.Billing
	if !req.Purpose.IsBilling() || b == nil {
		return false, kudos.Errorf(kudos.EInvalid, "mail: %q is not a billing mail with its facts", req.Purpose)
	}
	if req.Purpose == kudos.MailPaymentReceipt {
		return true, nil
	}
	if req.Purpose == kudos.MailPaymentFailed && b.Returned && b.Date == nil && b.InvoiceID != nil {
		var due bool
		err := db.Pool.QueryRow(ctx, `SELECT i.status = 'DUE_PAYMENT' FROM invoices i JOIN accounts a ON a.id = i.account_id
			WHERE i.id = $1 AND i.account_id = $2 AND a.deleted_at IS NULL`, *b.InvoiceID, b.AccountID).Scan(&due)
		if errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
		return due, wrapErr(err)
	}
	sub, err := db.Subscription(ctx, b.AccountID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return billingMailCurrent(req.Purpose, b, sub), nil
}

// billingMailCurrent is BillingMailCurrent on the account's stored
// subscription row.
func billingMailCurrent(p kudos.MailPurpose, b *kudos.MailBilling, s *kudos.Subscription) bool {
	switch p {
	case kudos.MailTrialReminder:
		return s.Plan == kudos.PlanTrial && s.ShowStatus != kudos.StatusTrialExpired && sameInstant(s.TrialExpiresAt, b.Date)
	case kudos.MailRenewalReminder:
		return s.Plan.IsPaid() && s.ShowStatus != kudos.StatusPlanExpired && sameInstant(s.PlanRenewalAt, b.Date) &&
			s.StartNextPeriod == b.AutoRenew
	case kudos.MailPaymentFailed, kudos.MailPaymentActionRequired:
		return s.FailedPayment != nil && b.InvoiceID != nil && s.FailedPayment.InvoiceID == *b.InvoiceID
	case kudos.MailPlanExpired:
		return s.ShowStatus == kudos.StatusPlanExpired
	}
	return true
}

// sameInstant reports whether stored (from Postgres, microseconds) is the
// instant t (from a workflow, up to nanoseconds, any zone). pgx truncates to
// the microsecond and Postgres itself rounds, so anything less than a
// microsecond apart is the same instant.
func sameInstant(stored, t *time.Time) bool {
	if stored == nil || t == nil {
		return false
	}
	d := stored.Sub(*t)
	return d > -time.Microsecond && d < time.Microsecond
}
