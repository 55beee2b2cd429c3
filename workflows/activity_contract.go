package workflows

// The contract between the workflows and package activities, which
// implements it: each activity's name, input and result, and the error
// types of its business failures. Workflows call activities by these names
// (the names of the methods of activities.Activities), so that this package,
// and the api that starts its workflows, never import the implementations;
// worker's TestActivityContract checks every name against the registered
// methods and their types.

import (
	"time"

	"github.com/google/uuid"

	"kudos"
)

// Activity names: the methods of activities.Activities.
const (
	ActivitySendMail               = "SendMail"
	ActivityProcessLogo            = "ProcessLogo"
	ActivityRefuseLogo             = "RefuseLogo"
	ActivityPublishLogo            = "PublishLogo"
	ActivityDeleteObject           = "DeleteObject"
	ActivityOpenCheckout           = "OpenCheckout"
	ActivityCloseCheckout          = "CloseCheckout"
	ActivityCreateDueInvoice       = "CreateDueInvoice"
	ActivityChargeRenewal          = "ChargeRenewal"
	ActivityRenderInvoicePDF       = "RenderInvoicePDF"
	ActivityWriteSubscription      = "WriteSubscription"
	ActivityExpireCheckout         = "ExpireCheckout"
	ActivityLoadCheckout           = "LoadCheckout"
	ActivityRefundCheckout         = "RefundCheckout"
	ActivityReconcileSubscriptions = "ReconcileSubscriptions"
	ActivityReconcileHousekeeping  = "ReconcileHousekeeping"
	ActivityReconcileAccounts      = "ReconcileAccounts"
	ActivityVerifyPaymentMethod    = "VerifyPaymentMethod"
	ActivitySettlePaidCheckout     = "SettlePaidCheckout"
	ActivitySettlePayment          = "SettlePayment"
	ActivityQueueBillingMail       = "QueueBillingMail"
	ActivityLoadLifecycle          = "LoadLifecycle"
	ActivityCancelRenewalCharge    = "CancelRenewalCharge"
	ActivityMarkEventsApplied      = "MarkEventsApplied"
	ActivityQueueInvitationMail    = "QueueInvitationMail"
	ActivityExpireInvitation       = "ExpireInvitation"
	ActivityBuildExport            = "BuildExport"
	ActivityPublishExport          = "PublishExport"
	ActivityExpireExport           = "ExpireExport"
	ActivityAccountDeletionAt      = "AccountDeletionAt"
	ActivityEraseAccount           = "EraseAccount"
	ActivityEndSubscription        = "EndSubscription"
	ActivityDeleteCustomer         = "DeleteCustomer"
	ActivityUserDeletionAt         = "UserDeletionAt"
	ActivityEraseUser              = "EraseUser"
	ActivityCheckVATID             = "CheckVATID"
	ActivityRecordVATCheck         = "RecordVATCheck"
	ActivityQuoteHolds             = "QuoteHolds"
	// ActivityBookRefund books a refund made at the provider (issue 36).
	ActivityBookRefund = "BookRefund"
	// ActivityRecordDispute and ActivityReturnPayment book a dispute's
	// event and a returned debit (issue 36 item 3).
	ActivityRecordDispute     = "RecordDispute"
	ActivityReturnPayment     = "ReturnPayment"
	ActivityReconcileProvider = "ReconcileProvider"
	// ActivityRefundErasedCharge gives back an off-session charge that
	// settled after its account was erased; ActivityRecordRefundFailure
	// records a refund that failed at the provider; and
	// ActivityCancelOpenCharges cancels, at an account's erasure, the
	// charges its customer could still complete (issue 36 × 34).
	ActivityRefundErasedCharge  = "RefundErasedCharge"
	ActivityRecordRefundFailure = "RecordRefundFailure"
	ActivityCancelOpenCharges   = "CancelOpenCharges"
	// ActivityRefundStrayCharge gives back an off-session renewal charge
	// the customer completed after the renewal stopped waiting on it,
	// unless the charge paid an invoice.
	ActivityRefundStrayCharge = "RefundStrayCharge"
)

// ActivityNames lists every activity the workflows call.
var ActivityNames = []string{
	ActivitySendMail, ActivityProcessLogo, ActivityRefuseLogo, ActivityPublishLogo, ActivityDeleteObject, ActivityOpenCheckout, ActivityCloseCheckout, ActivityCreateDueInvoice, ActivityChargeRenewal, ActivityRenderInvoicePDF, ActivityWriteSubscription,
	ActivityExpireCheckout, ActivityLoadCheckout, ActivityRefundCheckout, ActivityReconcileSubscriptions,
	ActivityReconcileHousekeeping, ActivityReconcileAccounts,
	ActivityVerifyPaymentMethod, ActivitySettlePaidCheckout, ActivitySettlePayment, ActivityQueueBillingMail, ActivityLoadLifecycle,
	ActivityCancelRenewalCharge, ActivityMarkEventsApplied,
	ActivityQueueInvitationMail, ActivityExpireInvitation,
	ActivityBuildExport, ActivityPublishExport, ActivityExpireExport,
	ActivityAccountDeletionAt, ActivityEraseAccount, ActivityEndSubscription, ActivityDeleteCustomer,
	ActivityUserDeletionAt, ActivityEraseUser,
	ActivityCheckVATID, ActivityRecordVATCheck, ActivityQuoteHolds,
	ActivityBookRefund,
	ActivityRecordDispute, ActivityReturnPayment,
	ActivityReconcileProvider,
	ActivityRefundErasedCharge, ActivityRecordRefundFailure, ActivityCancelOpenCharges,
	ActivityRefundStrayCharge,
}

// ErrTypeBadMail marks a mail request that can never be sent (no template,
// bad address): retrying it is pointless.
const ErrTypeBadMail = "BadMail"

// SendMailResult tells whether the mail had already been sent, or was
// skipped: a billing mail whose situation changed before it went out (it is
// recorded as done all the same, so that nothing retries it).
type SendMailResult struct {
	AlreadySent bool
	Skipped     bool `json:",omitempty"`
}

// ErrTypeInvoiceNotFinal marks a PDF asked for an invoice without a number.
const ErrTypeInvoiceNotFinal = "InvoiceNotFinal"

// InvoicePDFInput names a finalised invoice.
type InvoicePDFInput struct {
	AccountID uuid.UUID
	InvoiceID uuid.UUID
}

// ErrTypeBadLogoKey marks a logo workflow started for an object outside the
// account's temporary logo keys: a bug, never retried.
const ErrTypeBadLogoKey = "BadLogoKey"

// LogoInput names an uploaded logo: the account and its temporary object.
type LogoInput struct {
	AccountID uuid.UUID
	TempKey   string
}

// LogoProcessed is the outcome of ProcessLogo: the published object, or why
// the upload was refused (a kudos.Logo* reason).
type LogoProcessed struct {
	PublicKey     string
	Refused       string
	Width, Height int
}

// LogoPublication moves an account's img_url from TempKey to PublicKey, or
// (with Reason) to the placeholder.
type LogoPublication struct {
	AccountID uuid.UUID
	TempKey   string
	PublicKey string
	Reason    string
}

// ErrTypeNoPrice marks a checkout for something that has no price.
const ErrTypeNoPrice = "NoPrice"

// OpenCheckoutInput asks for a hosted checkout. The ids are chosen by the
// workflow, so a retried activity opens the same checkout and invoice.
type OpenCheckoutInput struct {
	AccountID  uuid.UUID
	CheckoutID string
	Purpose    kudos.CheckoutPurpose
	Plan       kudos.Plan
	// FromPlan and Remaining/Period prorate an upgrade.
	FromPlan  kudos.Plan
	Remaining time.Duration
	Period    time.Duration
	// InvoiceID is the invoice to create (or, to pay a due one, to pay).
	InvoiceID uuid.UUID
	ExpiresAt time.Time
	// PromotionCode discounts the price ("" none): refused with
	// ErrTypeInvalidPromotion when it cannot be used.
	PromotionCode string `json:",omitempty"`
	// ExtraSeats, on a seats checkout, are the extra seats bought up to
	// from FromExtraSeats: the difference is prorated like an upgrade
	// (issue 38).
	ExtraSeats     int `json:",omitempty"`
	FromExtraSeats int `json:",omitempty"`
	// Owed is set when the checkout pays an invoice owed since its debit
	// came back: the provider sends the customer back to the invoices, not
	// to the plan (nothing of the plan changes).
	Owed bool `json:",omitempty"`
}

// OpenCheckoutResult is the opened checkout.
type OpenCheckoutResult struct {
	ProviderID string
	URL        string
	Amount     kudos.Money
	// Waived is set when the amount was under the provider's minimum
	// charge (an upgrade in the last hours of a period): no checkout was
	// opened, the invoice is paid at zero, and the plan changes at once.
	Waived       bool
	WaivedAmount kudos.Money
	// Promotion is the promotion code's terms the price was discounted by
	// (nil: none), the account's once the checkout is paid.
	Promotion *kudos.Discount `json:",omitempty"`
}

// CloseCheckoutInput settles a checkout.
type CloseCheckoutInput struct {
	AccountID  uuid.UUID
	CheckoutID string
	ProviderID string
	Purpose    kudos.CheckoutPurpose
	InvoiceID  uuid.UUID
	Outcome    kudos.PaymentOutcome
	// ExpireAtProvider closes the checkout at the provider too (it timed
	// out on our side, or was replaced).
	ExpireAtProvider bool
}

// RenewalInput asks for the renewal charge of one period.
type RenewalInput struct {
	AccountID uuid.UUID
	Plan      kudos.Plan
	InvoiceID uuid.UUID
	// ChargeID is the provider's idempotency key: one charge per period.
	ChargeID string
	// Service is the period the renewal pays for (its renewal date to the
	// next), printed on its invoice (issue 34); nil in runs from before,
	// and on retries (the invoice has it).
	Service *kudos.ServicePeriod `json:",omitempty"`
	// Discount is the account's promotion that discounts this renewal (nil:
	// none), taken off the invoice's price before VAT.
	Discount *kudos.Discount `json:",omitempty"`
	// ExtraSeats are the Team plan's seats bought beyond its own, billed
	// on their own line (issue 38).
	ExtraSeats int `json:",omitempty"`
}

// RenewalResult tells whether the renewal was paid.
type RenewalResult struct {
	Paid bool
	// Pending: the provider accepted the charge and has not settled it (a
	// SEPA debit processing): neither paid nor failed yet; ask again
	// later under the same ChargeID.
	Pending bool `json:",omitempty"`
	// FailureReason is the provider's: card_declined, no_payment_method,
	// authentication_required (the customer must complete it), …
	FailureReason string
	// Amount is the invoice's total with VAT.
	Amount kudos.Money
}

// FailureAuthenticationRequired is the FailureReason of an off-session
// charge that needs the customer's authentication (3-D Secure).
const FailureAuthenticationRequired = "authentication_required"

// FailureChargeMismatch is the FailureReason of a renewal charge whose key
// the provider already holds a payment under, of another amount or
// currency than the invoice charged (the provider's EConflict): that
// payment is not the invoice's, which stays unpaid as after a refusal.
const FailureChargeMismatch = "charge_mismatch"

// LifecycleInput names the account whose workflow asks for the worker's
// lifecycle timings.
type LifecycleInput struct {
	AccountID uuid.UUID
}

// BillingMailInput asks for a billing mail to the account's owner: the
// activity fills in the recipient and the facts only Postgres knows (an
// invoice's number and amount, the renewal price) and queues the request in
// the outbox, from which the e-mail workflow delivers it (once per Key).
type BillingMailInput struct {
	AccountID uuid.UUID
	Purpose   kudos.MailPurpose
	// Key makes the mail once per occasion (account, period, occasion).
	Key     string
	Billing kudos.MailBilling
}

// DueInvoiceInput asks for a DUE_PAYMENT invoice (the plan stopped).
type DueInvoiceInput struct {
	AccountID uuid.UUID
	Plan      kudos.Plan
	InvoiceID uuid.UUID
	// Discount is the account's promotion for the period the invoice bills
	// (nil: none).
	Discount *kudos.Discount `json:",omitempty"`
	// ExtraSeats are billed on their own line (issue 38).
	ExtraSeats int `json:",omitempty"`
}

// WriteSubscriptionInput is the read model to store.
type WriteSubscriptionInput struct {
	AccountID uuid.UUID
	Record    kudos.Subscription
	// AppliedEvent, when set, is the payment event this write ends the
	// application of: marked applied in the same transaction.
	AppliedEvent string `json:",omitempty"`
}

// MarkEventsAppliedInput names payment events the workflow has applied.
type MarkEventsAppliedInput struct {
	AccountID uuid.UUID
	EventIDs  []string
}

// RefundInput asks for the refund of a checkout's payment.
type RefundInput struct {
	CheckoutRef
	// Deferrable: a refusal the provider says is temporary (its balance is
	// short) is returned as ErrTypeRefundDeferred, for the workflow to try
	// again later; without it (the last try, and runs from before) it is
	// recorded as refused.
	Deferrable bool `json:",omitempty"`
	// RetryAt, with Deferrable, is the next try: a refusal for now is
	// recorded as a deferred refund (refunds.status deferred, retry_at) that
	// outlives the run (a terminate, a rebuild, the account's deletion).
	// Zero (runs from before): not recorded.
	RetryAt time.Time `json:",omitempty"`
	// Reason is recorded with the refund ("": paid when nothing was owed).
	Reason string `json:",omitempty"`
}

// ChargeRefundInput asks for the full refund of an off-session charge (by
// our charge key, and the provider's payment id the event named) that
// settled after its account was erased; its Deferrable and Reason are
// RefundInput's.
type ChargeRefundInput struct {
	AccountID  uuid.UUID
	ChargeID   string
	PaymentID  string
	Amount     kudos.Money
	Deferrable bool   `json:",omitempty"`
	Reason     string `json:",omitempty"`
}

// StrayChargeInput asks for the refund of an off-session renewal charge
// that the provider says was paid after the renewal stopped waiting on it
// (ActivityRefundStrayCharge): Plan is the plan it was charged for, named
// in the customer's receipt.
type StrayChargeInput struct {
	ChargeRefundInput
	Plan kudos.Plan
}

// StrayChargeResult says whether the charge was given back (false: it
// paid an invoice, the renewal it was made for).
type StrayChargeResult struct {
	Refunded bool `json:",omitempty"`
}

// RefundFailureInput asks for the recording of a refund's failure the
// provider reports (kudos.MovementRefundFailed).
type RefundFailureInput struct {
	AccountID uuid.UUID
	Event     kudos.PaymentEvent
}

// ErrTypeRefundDeferred marks a refund the provider refused for now.
const ErrTypeRefundDeferred = "RefundDeferred"

// ExpireCheckoutInput asks the provider to close a checkout.
type ExpireCheckoutInput struct {
	AccountID  uuid.UUID
	ProviderID string
}

// CheckoutRef names one checkout of an account.
type CheckoutRef struct {
	AccountID  uuid.UUID
	CheckoutID string
}

// ErrTypeNoCheckout marks a payment event for a checkout the read model
// does not know.
const ErrTypeNoCheckout = "NoCheckout"

// ErrTypeProviderRefused marks a request the payment provider refused for
// good (an invalid request, an amount under its minimum): a business
// outcome, never retried.
const ErrTypeProviderRefused = "ProviderRefused"

// ErrTypeSeatLimit marks a plan checkout refused because the team has
// outgrown the plan (someone joined after the api's check): the api's
// 409 seat_limit.
const ErrTypeSeatLimit = "SeatLimit"

// SettlePaidInput settles a paid checkout in one go: the checkout, its
// invoice, and the subscription row Record.
type SettlePaidInput struct {
	AccountID  uuid.UUID
	CheckoutID string
	Purpose    kudos.CheckoutPurpose
	InvoiceID  uuid.UUID
	Record     kudos.Subscription
	// AppliedEvent, when set, is the payment event the settlement applies:
	// marked applied in the same transaction.
	AppliedEvent string `json:",omitempty"`
	// NewPeriod: the payment starts Record's period (an expired plan's due
	// invoice, reactivating it): the invoice is for that period, not for
	// the renewal it was billed for.
	NewPeriod bool `json:",omitempty"`
}

// SettlePaymentInput is all a payment leads to, for one local activity:
// the settlement of SettlePaidInput, then the invoice's PDF, then the
// receipt (when Receipt is set) queued for the e-mail workflow.
type SettlePaymentInput struct {
	SettlePaidInput
	Receipt *BillingMailInput `json:",omitempty"`
}

// InvitationMailInput asks for an invitation's mail (or, Reminder, its
// reminder), with the link's token derived from Key, queued under MailKey
// (one mail per key).
type InvitationMailInput struct {
	InvitationID uuid.UUID
	Key          string
	MailKey      string
	Reminder     bool
}

// InvitationMailResult tells whether the mail was queued: not when the
// invitation is no longer pending, or a resend replaced Key meanwhile.
type InvitationMailResult struct {
	Queued bool
}

// InvitationRef names an invitation.
type InvitationRef struct {
	InvitationID uuid.UUID
}

// InvitationExpiry is an invitation as ExpireInvitation left it: expired,
// or, when Postgres renewed it meanwhile, still pending until ExpiresAt
// (or ended otherwise: accepted, revoked).
type InvitationExpiry struct {
	Status    kudos.InvitationStatus
	ExpiresAt time.Time
}

// ExportRef names a data export.
type ExportRef struct {
	ExportID uuid.UUID
}

// ExportBuilt is where BuildExport stored an export's ZIP (Gone: the export
// no longer exists, its user or account was deleted meanwhile, or it is
// void: an account's export whose requester no longer owns the account).
type ExportBuilt struct {
	Key   string
	Size  int64
	Files int
	Gone  bool `json:",omitempty"`
}

// ExportPublish marks a built export ready until ExpiresAt and mails its
// user.
type ExportPublish struct {
	ExportID  uuid.UUID
	Key       string
	Size      int64
	ExpiresAt time.Time
}

// ExportExpiry deletes an export's file and marks it expired.
type ExportExpiry struct {
	ExportID uuid.UUID
	Key      string
}

// AccountRef names an account.
type AccountRef struct {
	AccountID uuid.UUID
}

// DeletionDue is when an account's deletion is scheduled (nil: cancelled
// meanwhile); Deleted when it has been erased already.
type DeletionDue struct {
	At      *time.Time
	Deleted bool `json:",omitempty"`
}

// AccountErased is what EraseAccount left to remove outside Postgres.
type AccountErased struct {
	Already bool `json:",omitempty"`
	// NotDue: the deletion was cancelled, or moved later, after the
	// workflow found it due; nothing was erased (the workflow asks again).
	NotDue     bool `json:",omitempty"`
	CustomerID string
	Objects    []string
}

// CustomerRef names a deleted account's customer at the payment provider.
type CustomerRef struct {
	AccountID  uuid.UUID
	CustomerID string
}

// UserRef names a user.
type UserRef struct {
	UserID uuid.UUID
}

// UserErased is what EraseUser did: Blocked names an account the user owns
// again (the erasure waits), Objects the stored files left to remove.
type UserErased struct {
	Already bool `json:",omitempty"`
	// NotDue: cancelled or moved later after its due check (nothing erased).
	NotDue  bool   `json:",omitempty"`
	Blocked string `json:",omitempty"`
	Objects []string
}

// DisputeInput is the input of ActivityRecordDispute: the dispute event of
// the account's payment, when it happened, and the payment event that says
// so: AppliedEvent is marked applied in the same transaction (runs from
// before the change "ledger-applied-last", and the erased accounts'
// workflow); Event is left for the workflow to mark with the last write of
// what it does, and a booking of it again until then reports the first
// ("" : none).
type DisputeInput struct {
	AccountID    uuid.UUID
	Dispute      kudos.DisputeEvent
	At           time.Time
	AppliedEvent string
	Event        string `json:",omitempty"`
}

// ReturnInput is the input of ActivityReturnPayment, as DisputeInput.
type ReturnInput struct {
	AccountID    uuid.UUID
	Return       kudos.ReturnEvent
	At           time.Time
	AppliedEvent string
	Event        string `json:",omitempty"`
}

// ReturnResult is what ActivityReturnPayment booked: the invoice due again
// (nil: the payment settled no paid invoice), its amount, service period,
// kind, plan and number.
type ReturnResult struct {
	InvoiceID *uuid.UUID
	Amount    kudos.Money
	Service   *kudos.ServicePeriod
	Kind      kudos.InvoiceKind `json:",omitempty"`
	Plan      kudos.Plan        `json:",omitempty"`
	Number    string            `json:",omitempty"`
	// Deleting: the account's deletion is scheduled (its grace runs), so
	// the invoice is owed, not collected again.
	Deleting bool `json:",omitempty"`
}
