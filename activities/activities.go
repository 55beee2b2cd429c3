// Package activities holds the Temporal activities of Kudos: one Activities
// struct carries the dependencies (store, mail sender, clock), and each
// activity is a method on it. Activities do the I/O the workflows decide on
// and write the resulting state into Postgres, the read model.
package activities

import (
	"context"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/auth"
	"kudos/store"
	"kudos/workflows"
)

// Store is the part of the store the activities use (*store.DB).
type Store interface {
	MailSent(ctx context.Context, key string) (bool, error)
	MarkMailSent(ctx context.Context, key string) error
	BillingMailCurrent(ctx context.Context, req kudos.MailRequest) (bool, error)

	WriteSubscription(ctx context.Context, accountID uuid.UUID, r kudos.Subscription, applied ...string) error
	MarkPaymentEventsApplied(ctx context.Context, accountID uuid.UUID, ids []string) error
	OwnerEmail(ctx context.Context, accountID uuid.UUID) (string, error)
	CreateInvoice(ctx context.Context, inv kudos.Invoice) error
	Invoice(ctx context.Context, accountID, id uuid.UUID) (*kudos.Invoice, error)
	SetInvoiceStatus(ctx context.Context, id uuid.UUID, status kudos.InvoiceStatus) error
	PayInvoice(ctx context.Context, id uuid.UUID, paidBy string) error
	InvoicePaidBy(ctx context.Context, accountID uuid.UUID, paidBy string) (bool, error)
	PaymentTakenBack(ctx context.Context, accountID uuid.UUID, paidBy string) (bool, error)
	DeleteDraftInvoice(ctx context.Context, id uuid.UUID) error
	Promotion(ctx context.Context, code string) (*kudos.Promotion, error)
	ReleasePromotion(ctx context.Context, checkoutID string) error
	RecordCheckout(ctx context.Context, c kudos.CheckoutRecord) error
	Checkout(ctx context.Context, accountID uuid.UUID, id string) (*kudos.CheckoutRecord, error)
	SettlePaidCheckout(ctx context.Context, accountID uuid.UUID, checkoutID string, invoiceID uuid.UUID, how store.Settlement, sub kudos.Subscription,
		applied ...string) (*kudos.Invoice, error)
	RecordRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, providerID, reason string, amount kudos.Money) error
	CreditNoteOfRefund(ctx context.Context, accountID uuid.UUID, refundID string) (*kudos.Invoice, error)
	RecordRefusedRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, reason string, amount kudos.Money) error
	RecordDeferredRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, reason string, amount kudos.Money, retryAt time.Time) error
	RefundStatus(ctx context.Context, id string) (string, error)
	BookRefund(ctx context.Context, accountID uuid.UUID, ev kudos.PaymentEvent) (store.BookedRefund, error)
	RecordRefundFailure(ctx context.Context, accountID uuid.UUID, ev kudos.PaymentEvent) (bool, error)
	SetCheckoutStatus(ctx context.Context, id, status string) error
	BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error)
	VATAnswer(ctx context.Context, country, vatID string) (valid, found bool, err error)
	SaveVATAnswer(ctx context.Context, country, vatID string, valid bool) error
	MailRecipient(ctx context.Context, accountID uuid.UUID) (email, name, language string, err error)
	SetInvoicePDF(ctx context.Context, id uuid.UUID, key string) error
	InvoicePDF(ctx context.Context, accountID, id uuid.UUID) (string, error)
	VerifiedBillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, *time.Time, error)
	RecordVATCheck(ctx context.Context, accountID uuid.UUID, vatID string, version int, status kudos.VATIDStatus,
		mail store.OutboxEntry, ev kudos.BillingEvent, also ...store.OutboxEntry) (bool, error)
	RecordVATRecheck(ctx context.Context, accountID uuid.UUID, vatID string, version int, status kudos.VATIDStatus,
		mail store.OutboxEntry, ev kudos.BillingEvent, also ...store.OutboxEntry) (bool, error)
	ReverifyVATID(ctx context.Context, accountID uuid.UUID, vatID string, version int) (bool, error)
	RecordDispute(ctx context.Context, accountID uuid.UUID, d kudos.DisputeEvent, at time.Time, b store.Booking) (kudos.DisputeApplied, error)
	MemberCount(ctx context.Context, accountID uuid.UUID) (int, error)
	ReturnPayment(ctx context.Context, accountID uuid.UUID, r kudos.ReturnEvent, at time.Time, b store.Booking) (*kudos.Invoice, error)

	PublishLogo(ctx context.Context, accountID uuid.UUID, tempKey, publicKey string) (bool, error)
	RefuseLogo(ctx context.Context, accountID uuid.UUID, tempKey, reason string) (bool, error)

	InvitationMail(ctx context.Context, id uuid.UUID) (*store.InvitationMailFacts, error)
	ExpireInvitation(ctx context.Context, id uuid.UUID) (kudos.InvitationStatus, time.Time, error)

	Export(ctx context.Context, id uuid.UUID) (*kudos.DataExport, error)
	ExportFiles(ctx context.Context, e kudos.DataExport) ([]kudos.ExportFile, error)
	VoidUnownedExport(ctx context.Context, id uuid.UUID) (bool, error)
	MarkExportReady(ctx context.Context, id uuid.UUID, key string, size int64, expiresAt time.Time) (kudos.ExportStatus, error)
	MarkExportExpired(ctx context.Context, id uuid.UUID) error
	ExportMailFacts(ctx context.Context, e kudos.DataExport) (to, name, language, accountName string, err error)

	AccountDeletionAt(ctx context.Context, accountID uuid.UUID) (*time.Time, error)
	EraseAccount(ctx context.Context, accountID uuid.UUID) (store.ErasedAccount, error)
	UserDeletionAt(ctx context.Context, userID uuid.UUID) (*time.Time, error)
	EraseUser(ctx context.Context, userID uuid.UUID, out store.TeamOutbox) (store.ErasedUser, error)
}

// Activities holds the dependencies of every activity.
type Activities struct {
	Store  Store
	Mailer kudos.MailSender
	// Render turns a mail request into a message (mailer.Render).
	Render   func(kudos.MailRequest) (kudos.Message, error)
	Payments kudos.PaymentProvider
	Storage  kudos.ObjectStorage
	Prices   kudos.PriceList
	// SellerCountry is where Kudos is established (KUDOS_SELLER_COUNTRY,
	// an ISO 3166 code): reverse charge applies to other member states.
	SellerCountry string
	// VATRegistrations are the seller's VAT registrations outside the EU
	// (KUDOS_VAT_REGISTRATIONS): a consumer there is charged its VAT.
	VATRegistrations map[string]string
	// Lifecycle are the configured reminder and dunning timings.
	Lifecycle kudos.Lifecycle
	// UIBase is the UI origin checkouts return to.
	UIBase string
	// Reconciler restarts missing subscription workflows (dispatch.Reconciler;
	// nil: the reconcile activity refuses).
	Reconciler interface {
		Reconcile(ctx context.Context) (workflows.ReconcileReport, error)
		Housekeep(ctx context.Context, since time.Time) (workflows.ReconcileReport, error)
		Walk(ctx context.Context, p workflows.ReconcileProgress, heartbeat func(workflows.ReconcileProgress)) (workflows.ReconcileProgress, error)
	}
	// ProviderReconciler compares Kudos's ledger with the payment
	// provider's (dispatch.ProviderReconciler; nil: the activity refuses).
	ProviderReconciler interface {
		Reconcile(ctx context.Context, progress func(what string, n int)) (workflows.ProviderReconcileReport, error)
	}
	// Subscriptions ends a deleted account's subscription workflow
	// (dispatch.Reconciler; nil: the activity refuses).
	Subscriptions interface {
		EndSubscription(ctx context.Context, accountID uuid.UUID) error
	}
	// QueueMail queues a mail request in the outbox (a dispatch.Mail
	// entry), from which the e-mail workflow delivers it, with the billing
	// event it is the occasion of, if any, in the same transaction.
	QueueMail func(ctx context.Context, req kudos.MailRequest, ev *kudos.BillingEvent) error
	// Tokens derives the tokens of mail links again from the request key;
	// PublicURL (KUDOS_PUBLIC_URL) is the root of every link in a mail.
	Tokens    *auth.MailTokens
	PublicURL string
	// VATChecker checks VAT ids (VIES, or the development stand-in).
	VATChecker kudos.VATChecker
	// Kick, when set, has the outbox relay deliver at once what an
	// activity queued in its own transaction.
	Kick func()
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// now is the time by the activities' clock.
func (a *Activities) now() time.Time {
	if a.Now == nil {
		return time.Now()
	}
	return a.Now()
}

// refused turns a business refusal (*kudos.Error invalid, conflict or not
// found: the payment provider refusing a request for good, a row that does
// not exist) into a non-retryable error of type ErrTypeProviderRefused, so
// that the workflow handles it instead of retrying it forever; anything else
// (the network, a provider's 5xx, the database away) stays retryable.
func refused(err error) error {
	switch kudos.ErrorCode(err) {
	case kudos.EInvalid, kudos.EConflict, kudos.ENotFound:
		return temporal.NewNonRetryableApplicationError(err.Error(), workflows.ErrTypeProviderRefused, err)
	}
	return err
}

// ReconcileSubscriptions starts again, from the read model, the
// subscription workflow of every account that should have one running and
// has none, and reports rows that disagree with their workflow: the whole
// sweep in one call, for Reconcile runs started before the paged sweep
// (ReconcileHousekeeping and ReconcileAccounts, issue 39).
func (a *Activities) ReconcileSubscriptions(ctx context.Context) (workflows.ReconcileReport, error) {
	if a.Reconciler == nil {
		return workflows.ReconcileReport{}, errNoReconciler()
	}
	return a.Reconciler.Reconcile(ctx)
}

// ReconcileProvider compares Kudos's ledger with the payment provider's
// lists since the last run, records the events never delivered, and
// reports the rest; it heartbeats after each page, so that a lost worker's
// run is retried (and resumes its window) within the heartbeat timeout.
func (a *Activities) ReconcileProvider(ctx context.Context) (workflows.ProviderReconcileReport, error) {
	if a.ProviderReconciler == nil {
		return workflows.ProviderReconcileReport{}, temporal.NewNonRetryableApplicationError("no provider ledger configured", "NoProviderLedger", nil)
	}
	return a.ProviderReconciler.Reconcile(ctx, func(what string, n int) { activity.RecordHeartbeat(ctx, what, n) })
}
