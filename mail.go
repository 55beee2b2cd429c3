package kudos

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// MailPurpose names the kind of an e-mail; each has a template per language.
type MailPurpose string

// The mails the product sends.
const (
	MailActivation     MailPurpose = "activation"
	MailSignupExisting MailPurpose = "signup_existing"
	MailPasswordReset  MailPurpose = "password_reset"
	MailEmailChanged   MailPurpose = "email_changed"
	// MailPasswordChanged tells the owner that the password was changed.
	MailPasswordChanged MailPurpose = "password_changed"

	// Billing mails (transactional: sent whatever the marketing opt-in),
	// sent by the subscription workflow with MailRequest.Billing set.

	// MailTrialReminder: KUDOS_TRIAL_REMINDER before the trial ends.
	MailTrialReminder MailPurpose = "trial_reminder"
	// MailRenewalReminder: KUDOS_RENEWAL_REMINDER before a yearly renewal
	// (with auto-renewal off it says when the plan ends instead).
	MailRenewalReminder MailPurpose = "renewal_reminder"
	// MailPaymentReceipt: after every successful payment.
	MailPaymentReceipt MailPurpose = "payment_receipt"
	// MailPaymentFailed: after a failed renewal attempt that will be retried.
	MailPaymentFailed MailPurpose = "payment_failed"
	// MailPaymentActionRequired: an off-session charge needs the customer's
	// authentication; the link completes it on the provider's page.
	MailPaymentActionRequired MailPurpose = "payment_action_required"
	// MailPlanExpired: the plan expired after the last renewal attempt (or
	// with auto-renewal off).
	MailPlanExpired MailPurpose = "plan_expired"

	// Team mails (issue 26), sent with MailRequest.Team set.

	// MailTeamInvitation invites an address to join an account; its link
	// carries the accept token (derived from Team.TokenKey when it is sent).
	MailTeamInvitation MailPurpose = "team_invitation"
	// MailTeamInvitationReminder reminds of an invitation not yet accepted
	// (KUDOS_INVITATION_REMINDER after it was sent), with the same link.
	MailTeamInvitationReminder MailPurpose = "team_invitation_reminder"
	// MailTeamInvitationAccepted tells the inviter that the invitation was
	// accepted.
	MailTeamInvitationAccepted MailPurpose = "team_invitation_accepted"
	// MailOwnershipTransferred tells the former owner that ownership moved
	// to Team.Member (they are an admin now).
	MailOwnershipTransferred MailPurpose = "ownership_transferred"
	// MailOwnershipReceived tells the new owner that the account, with its
	// billing, is theirs now.
	MailOwnershipReceived MailPurpose = "ownership_received"
	// MailAccountDeletionScheduled tells every member that the owner
	// scheduled the account's deletion on Team.ExpiresAt (the owner: that
	// it can be cancelled until then).
	MailAccountDeletionScheduled MailPurpose = "account_deletion_scheduled"
	// MailDataExportReady tells a user that their data export (or their
	// account's) can be downloaded until it expires; the link opens the
	// export's page, which needs the user signed in.
	MailDataExportReady MailPurpose = "data_export_ready"
	// MailVATIDChecked tells the owner how a VAT-id check that VIES could
	// not answer at once has ended (verified, or invalid: VAT is charged);
	// the link opens the billing address.
	MailVATIDChecked MailPurpose = "vat_id_checked"
	// MailRefundIssued is the receipt of a refund (a payment refunded
	// because nothing was owed for it): the amount and, when the payment
	// paid an invoice, the credit note that corrects it; the link opens the
	// invoices, where the credit note's PDF downloads.
	MailRefundIssued MailPurpose = "refund_issued"
	// MailMFARecoveryUsed tells a user that one of their recovery codes was
	// used to sign in or confirm a change (issue 29).
	MailMFARecoveryUsed MailPurpose = "mfa_recovery_used"
)

// IsTeam reports whether purpose is a team mail (MailRequest.Team set).
func (p MailPurpose) IsTeam() bool {
	switch p {
	case MailTeamInvitation, MailTeamInvitationReminder, MailTeamInvitationAccepted, MailOwnershipTransferred, MailOwnershipReceived,
		MailAccountDeletionScheduled:
		return true
	}
	return false
}

// MailTeam are the facts a team mail states. Which are set depends on the
// purpose: an invitation names the inviter, the role and the expiry, and
// carries TokenKey; the other mails name the member concerned.
type MailTeam struct {
	AccountID   uuid.UUID `json:"account_id"`
	AccountName string    `json:"account_name"`
	// Inviter is who invited (invitations and their reminder).
	Inviter string `json:"inviter,omitempty"`
	// Member is who accepted (team_invitation_accepted), or the new owner
	// (ownership_transferred), or the former owner (ownership_received).
	Member    string     `json:"member,omitempty"`
	Role      Role       `json:"role,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	// TokenKey is the key the invitation's accept token derives from (like
	// Key for an activation mail): the outbox and the workflow's history
	// carry it, never the token.
	TokenKey string `json:"token_key,omitempty"`
}

// MailBilling are the facts a billing mail states. Which are set depends
// on the purpose: Date is the trial's end (trial_reminder), the renewal or
// end date (renewal_reminder), the next attempt (payment_failed,
// payment_action_required) or the plan's end (plan_expired).
type MailBilling struct {
	AccountID uuid.UUID `json:"account_id"`
	Plan      Plan      `json:"plan"`
	// Amount is the total with VAT (receipts, failed payments, renewals).
	Amount *Money `json:"amount,omitempty"`
	// InvoiceID and InvoiceNumber name the invoice paid or due.
	InvoiceID     *uuid.UUID `json:"invoice_id,omitempty"`
	InvoiceNumber string     `json:"invoice_number,omitempty"`
	PeriodStart   *time.Time `json:"period_start,omitempty"`
	PeriodEnd     *time.Time `json:"period_end,omitempty"`
	Date          *time.Time `json:"date,omitempty"`
	// AutoRenew tells a renewal reminder whether the plan renews or ends.
	AutoRenew bool `json:"auto_renew,omitempty"`
	// NextPlan is, on a renewal reminder, the lower plan the renewal
	// starts and charges instead of Plan (issue 38; "" when none).
	NextPlan Plan `json:"next_plan,omitempty"`
	// ExtraSeats are, on a renewal reminder, the Team plan's extra seats
	// the renewal bills (issue 38).
	ExtraSeats int `json:"extra_seats,omitempty"`
	// Discount is, on a renewal reminder, the running promotion that
	// discounts the renewal (issue 38; nil when none): the amount named is
	// what the renewal will charge.
	Discount *Discount `json:"discount,omitempty"`
	// PayURL is the provider's page that completes a payment needing
	// authentication (payment_action_required).
	PayURL string `json:"pay_url,omitempty"`
	// CreditNoteNumber is, on a refund_issued mail, the number of the
	// credit note of the refund ("" when the payment paid no invoice), and
	// InvoiceNumber then the invoice it corrects.
	CreditNoteNumber string `json:"credit_note_number,omitempty"`
	// RefundRequested is, on a refund_issued mail, set for a refund an
	// operator made (`kudos ops refund`, or in the provider's dashboard:
	// issue 36), which the mail does not call a payment nothing was owed
	// for.
	RefundRequested bool `json:"refund_requested,omitempty"`
	// Returned is, on a payment_failed mail, set when the payment of
	// InvoiceID came back after it succeeded (a returned debit): with Date,
	// dunning retries it then; without, nothing retries it (its period has
	// ended) and the customer pays the invoice from the billing page.
	Returned bool `json:"returned,omitempty"`
}

// IsBilling reports whether purpose is a billing mail.
func (p MailPurpose) IsBilling() bool {
	switch p {
	case MailTrialReminder, MailRenewalReminder, MailPaymentReceipt, MailPaymentFailed, MailPaymentActionRequired, MailPlanExpired,
		MailRefundIssued:
		return true
	}
	return false
}

// HeaderMailPurpose carries a mail's purpose, so that the development
// mailbox (and a mail filter) can tell mails apart without reading them.
const HeaderMailPurpose = "X-Kudos-Purpose"

// MailRequest asks for one e-mail to be delivered. Key identifies the request:
// it is the e-mail workflow's ID suffix and the idempotency key of the send, so
// one request yields at most one mail however often delivery is retried.
type MailRequest struct {
	Key      string      `json:"key"`
	Purpose  MailPurpose `json:"purpose"`
	To       string      `json:"to"`
	Language string      `json:"language"`
	// Name greets the recipient.
	Name string `json:"name"`
	// Link is the call to action (activation, reset). It is never part of
	// the request as stored or sent to Temporal (it may carry a token): the
	// mail activity builds it from Key and Purpose just before rendering.
	Link string `json:"-"`
	// Billing carries the facts of a billing mail (nil for the others).
	Billing *MailBilling `json:"billing,omitempty"`
	// Team carries the facts of a team mail (nil for the others).
	Team *MailTeam `json:"team,omitempty"`
	// Export carries the facts of a data_export_ready mail.
	Export *MailExport `json:"export,omitempty"`
	// VAT carries the facts of a vat_id_checked mail.
	VAT *MailVAT `json:"vat,omitempty"`
	// WorkflowVersion is the version of the e-mail workflow that delivers
	// it, set by the dispatcher when it starts that workflow: a run that is
	// told records no version marker (issue 39). 0 in requests from
	// before: the run asks workflow.GetVersion.
	WorkflowVersion int `json:"workflow_version,omitempty"`
}

// MailVAT are the facts of a vat_id_checked mail: the account, the id
// checked, its status (verified or invalid) and whether the check gave up
// because VIES did not answer for 24 h.
type MailVAT struct {
	AccountID uuid.UUID   `json:"account_id"`
	VATID     string      `json:"vat_id"`
	Status    VATIDStatus `json:"status"`
	GaveUp    bool        `json:"gave_up,omitempty"`
}

// Message is a rendered e-mail ready for SMTP.
type Message struct {
	// ID becomes the Message-ID header, derived from the request key so that
	// a resent duplicate can be recognised by the receiver.
	ID      string
	Purpose MailPurpose
	To      string
	Subject string
	Text    string
	HTML    string
}

// MailSender delivers a rendered message (SMTP in every environment; the
// development capture inbox is an SMTP server too).
type MailSender interface {
	Send(ctx context.Context, msg Message) error
}
