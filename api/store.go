package api

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/store"
)

// Store is the part of Postgres the api uses (*store.DB), declared here in
// small interfaces by route group, as package activities does: a handler
// test can fake the group it exercises where Postgres adds nothing.
type Store interface {
	AccountStore
	AuthStore
	BillingStore
	LogoStore
	TeamStore
	PrivacyStore
	PasskeyStore
	MFAStore
	// Now is the store's clock (tests move it).
	Now() time.Time
	// Ping checks that Postgres answers (readiness).
	Ping(ctx context.Context) error
}

// AccountStore is what the account routes need of the store: the account
// and its user, the billing address, feature requests.
type AccountStore interface {
	SessionAccountView(ctx context.Context, accountID, sessionID, userID uuid.UUID) (*kudos.Account, *kudos.User, error)
	MemberAccess(ctx context.Context, accountID, userID uuid.UUID) (store.MemberAccess, error)
	SetRequireMFA(ctx context.Context, accountID, actorID uuid.UUID, on bool) error
	RenameAccount(ctx context.Context, accountID uuid.UUID, name string) error
	SaveBillingAddress(ctx context.Context, accountID uuid.UUID, a kudos.BillingAddress, expectVersion int,
		effects ...func(saved kudos.BillingAddress) store.SaveEffects) (*kudos.BillingAddress, error)
	BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error)
	VATBasis(ctx context.Context, accountID uuid.UUID) (kudos.VATBasis, error)
	VATAnswer(ctx context.Context, country, vatID string) (valid, found bool, err error)
	SaveVATAnswer(ctx context.Context, country, vatID string, valid bool) error
	AddFeatureRequest(ctx context.Context, accountID, userID uuid.UUID, r kudos.FeatureRequest) error
	ChangeUser(ctx context.Context, ch store.UserChange) error
	UserByID(ctx context.Context, id uuid.UUID) (*kudos.User, error)
	DevicesValidFrom(ctx context.Context, userID uuid.UUID) (time.Time, error)
	LatestUnpaidInvoice(ctx context.Context, accountID uuid.UUID) (*kudos.Invoice, error)
}

// AuthStore is what sign-up, sign-in, mailed tokens, Google sign-in and
// sessions need of the store.
type AuthStore interface {
	CreateUser(ctx context.Context, in store.NewUser) (userID, accountID uuid.UUID, err error)
	Enqueue(ctx context.Context, entries ...store.OutboxEntry) error
	SignIn(ctx context.Context, userID uuid.UUID, ttl time.Duration, via store.SignInVia) (*store.SignedIn, error)
	RevokeSession(ctx context.Context, id uuid.UUID) error
	UserByEmail(ctx context.Context, email string) (*kudos.User, error)
	Activate(ctx context.Context, hash, browserHash []byte, sessionTTL time.Duration) (*store.SignedIn, error)
	SignupBrowserHash(ctx context.Context, userID uuid.UUID) ([]byte, error)
	CheckToken(ctx context.Context, purpose kudos.TokenPurpose, hash []byte) error
	CreateToken(ctx context.Context, userID uuid.UUID, t store.NewToken) error
	PendingEmail(ctx context.Context, userID uuid.UUID) (string, error)
	PendingEmailTaken(ctx context.Context, userID uuid.UUID, email string) (bool, error)
	ResetPassword(ctx context.Context, hash []byte, passwordHash string) (uuid.UUID, error)
	UserByPendingEmail(ctx context.Context, email string) (*kudos.User, error)
	CreateOIDCFlow(ctx context.Context, f store.OIDCFlow) error
	TakeOIDCFlow(ctx context.Context, stateHash []byte) (*store.OIDCFlow, error)
	StepUp(ctx context.Context, sessionID uuid.UUID, issuer, subject, email string) error
	ReauthenticatedAt(ctx context.Context, sessionID uuid.UUID) (time.Time, error)
	LinkOIDC(ctx context.Context, userID uuid.UUID, issuer, subject string, ttl time.Duration) (*store.SignedIn, error)
	UserByOIDC(ctx context.Context, issuer, subject string) (*kudos.User, error)
	ActiveSession(ctx context.Context, id uuid.UUID) (*kudos.Session, error)
	UserSessions(ctx context.Context, userID uuid.UUID) ([]store.SessionInfo, error)
	RevokeUserSession(ctx context.Context, userID, sessionID uuid.UUID) error
	RevokeOtherSessions(ctx context.Context, userID, keep uuid.UUID) error
	NewLimiter(name string, burst int, per time.Duration) *store.Limiter
}

// BillingStore is what the billing routes need of the store: invoices,
// checkouts, payment events and the billing timeline.
type BillingStore interface {
	Invoices(ctx context.Context, accountID uuid.UUID) ([]kudos.Invoice, error)
	PaymentMethodsStamp(ctx context.Context, accountID uuid.UUID) (string, error)
	Invoice(ctx context.Context, accountID, id uuid.UUID) (*kudos.Invoice, error)
	InvoicePDF(ctx context.Context, accountID, id uuid.UUID) (string, error)
	SetInvoicePDF(ctx context.Context, id uuid.UUID, key string) error
	RecordInvoiceDraft(ctx context.Context, accountID uuid.UUID, key string) error
	OwnerEmail(ctx context.Context, accountID uuid.UUID) (string, error)
	MailRecipient(ctx context.Context, accountID uuid.UUID) (email, name, language string, err error)
	RecordCheckout(ctx context.Context, c kudos.CheckoutRecord) error
	OutboxStats(ctx context.Context) (store.OutboxStats, error)
	RefusedRefunds(ctx context.Context) (int, error)
	DeferredRefunds(ctx context.Context, now time.Time) (deferred, overdue int, err error)
	FailedRefunds(ctx context.Context) (int, error)
	UncreditedRefunds(ctx context.Context) (int, error)
	OpenDisputes(ctx context.Context) (int, error)
	LedgerDrift(ctx context.Context) (int, error)
	LedgerReconciledAt(ctx context.Context) (*time.Time, error)
	SweepFinishedAt(ctx context.Context, name string) (*time.Time, error)
	RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) store.OutboxEntry) (bool, error)
	BillingTimeline(ctx context.Context, accountID uuid.UUID, limit int, before *kudos.TimelineCursor, types ...kudos.BillingEventType) ([]kudos.BillingEvent, error)
	RecordBillingEvent(ctx context.Context, ev kudos.BillingEvent) error
	UsablePromotion(ctx context.Context, accountID uuid.UUID, code string, plan kudos.Plan, currency string) (*kudos.Promotion, error)
}

// LogoStore is what the logo routes need of the store.
type LogoStore interface {
	ReserveLogoUpload(ctx context.Context, accountID uuid.UUID, key string) (string, error)
	PendingLogoUpload(ctx context.Context, accountID uuid.UUID) (key, imgURL string, err error)
	StartLogoProcessing(ctx context.Context, accountID uuid.UUID, key string, start func(accountID uuid.UUID, key string) store.OutboxEntry) (string, error)
	ClearLogo(ctx context.Context, accountID uuid.UUID) (old, reserved string, err error)
}

// TeamStore is what the team routes need of the store: members and their
// roles, invitations, the accounts of a user.
type TeamStore interface {
	Members(ctx context.Context, accountID uuid.UUID) ([]kudos.Member, kudos.Seats, error)
	Seats(ctx context.Context, accountID uuid.UUID) (kudos.Seats, error)
	Memberships(ctx context.Context, userID uuid.UUID) ([]kudos.Membership, error)
	ChangeRole(ctx context.Context, accountID, actorID, targetID uuid.UUID, role kudos.Role, out store.TeamOutbox) error
	RemoveMember(ctx context.Context, accountID, actorID, targetID uuid.UUID, out store.TeamOutbox) error
	TransferOwnership(ctx context.Context, t store.OwnershipTransfer) error
	CreateInvitation(ctx context.Context, in store.NewInvitation) (*kudos.Invitation, error)
	PendingInvitations(ctx context.Context, accountID uuid.UUID) ([]kudos.Invitation, error)
	ResendInvitation(ctx context.Context, accountID, id uuid.UUID, tokenHash []byte, key string, expiresAt time.Time, out store.TeamOutbox) (*kudos.Invitation, error)
	RevokeInvitation(ctx context.Context, accountID, id, actorID uuid.UUID, out store.TeamOutbox) error
	InvitationByToken(ctx context.Context, tokenHash []byte) (*kudos.InvitationPreview, error)
	AcceptInvitation(ctx context.Context, tokenHash []byte, userID uuid.UUID, out store.TeamOutbox) (uuid.UUID, error)
	CreateInvitedUser(ctx context.Context, in store.InvitedUser) (*store.SignedIn, error)
	EnsureAccount(ctx context.Context, userID uuid.UUID, a store.NewAccount) (uuid.UUID, error)
}

var _ Store = (*store.DB)(nil)

// MFAStore is what two-factor sign-in needs of the store (issue 29): the
// TOTP app and recovery codes of a user, sign-in challenges, step-ups.
type MFAStore interface {
	MFAStatus(ctx context.Context, userID uuid.UUID) (kudos.MFAStatus, error)
	TOTP(ctx context.Context, userID uuid.UUID) (*store.TOTPState, error)
	StartTOTP(ctx context.Context, userID uuid.UUID, sealed []byte) error
	ConfirmTOTP(ctx context.Context, userID, sessionID uuid.UUID, step int64, codeHashes [][]byte) error
	DisableTOTP(ctx context.Context, userID uuid.UUID) error
	ReplaceRecoveryCodes(ctx context.Context, userID uuid.UUID, codeHashes [][]byte) error
	VerifySecondFactor(ctx context.Context, sessionID, userID uuid.UUID, p store.SecondFactorProof) error
	CreateMFAChallenge(ctx context.Context, tokenHash []byte, userID uuid.UUID, first kudos.SignInMethod) error
	TryMFAChallenge(ctx context.Context, tokenHash []byte) (*store.MFAChallenge, error)
	MFAChallengeUser(ctx context.Context, tokenHash []byte) (uuid.UUID, error)
	CompleteMFAChallenge(ctx context.Context, ch *store.MFAChallenge, p store.SecondFactorProof, ttl time.Duration) (*store.SignedIn, error)
}

// PrivacyStore is what the privacy routes need of the store: data exports
// and account deletion (issue 28).
type PrivacyStore interface {
	CreateExport(ctx context.Context, userID uuid.UUID, accountID *uuid.UUID, start func(kudos.DataExport) store.OutboxEntry) (*kudos.DataExport, bool, error)
	UserExport(ctx context.Context, userID, id uuid.UUID) (*kudos.DataExport, error)
	ScheduleAccountDeletion(ctx context.Context, accountID, actorID uuid.UUID, at time.Time, stoppedRenewal bool, out store.DeletionOutbox) (time.Time, error)
	CancelAccountDeletion(ctx context.Context, accountID, actorID uuid.UUID, autoRenewal bool, out store.DeletionOutbox) (time.Time, bool, error)
	AccountDeletionAt(ctx context.Context, accountID uuid.UUID) (*time.Time, error)
	OpenMethodCheckouts(ctx context.Context, accountID uuid.UUID) ([]kudos.CheckoutRecord, error)
	SetCheckoutStatus(ctx context.Context, id, status string) error
	ScheduleUserDeletion(ctx context.Context, userID uuid.UUID, at time.Time, out store.UserDeletionOutbox) (time.Time, error)
	CancelUserDeletion(ctx context.Context, userID uuid.UUID, out store.UserDeletionOutbox) error
	UserDeletionOf(ctx context.Context, userID uuid.UUID) (store.UserDeletion, error)
	Subscription(ctx context.Context, accountID uuid.UUID) (*kudos.Subscription, error)
}

// PasskeyStore is what the passkey routes need of the store: passkeys,
// users' WebAuthn handles and the ceremonies in progress (issue 29).
type PasskeyStore interface {
	WebAuthnHandle(ctx context.Context, userID uuid.UUID) ([]byte, error)
	Passkeys(ctx context.Context, userID uuid.UUID) ([]kudos.Passkey, error)
	PasskeyByCredentialID(ctx context.Context, credentialID []byte) (*kudos.Passkey, error)
	AddPasskey(ctx context.Context, p *kudos.Passkey, sessionID uuid.UUID, codeHashes [][]byte) (issued bool, err error)
	RenamePasskey(ctx context.Context, userID, id uuid.UUID, name string) (*kudos.Passkey, error)
	DeletePasskey(ctx context.Context, userID, id uuid.UUID) error
	PasskeyUsed(ctx context.Context, id uuid.UUID, credential json.RawMessage, signCount uint32) error
	CreateCeremony(ctx context.Context, c *store.Ceremony) error
	TakeCeremony(ctx context.Context, id uuid.UUID, purpose kudos.CeremonyPurpose) (*store.Ceremony, error)
}
