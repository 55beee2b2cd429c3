// Package dispatch hands work to Temporal. Work is first written to the
// outbox table in the transaction of the change that causes it, as an entry
// built here (this package owns the kinds and payloads); the Relay then
// delivers each entry through the Dispatcher, which starts or signals the
// workflow the entry names. The Dispatcher also sends the api's updates to
// subscription workflows. Workflow ids derive from the entry or the account,
// so a second delivery starts nothing new.
package dispatch

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// Outbox kinds: what delivering an entry does.
const (
	// KindMail starts the e-mail workflow for a kudos.MailRequest.
	KindMail = "mail"
	// KindSubscriptionStart starts an account's subscription workflow
	// from its read model.
	KindSubscriptionStart = "subscription_start"
	// KindPaymentEvent signals a kudos.PaymentEvent to the subscription
	// workflow (starting it from the read model if it does not run).
	KindPaymentEvent = "payment_event"
	// KindLogoStart starts the logo workflow for one upload.
	KindLogoStart = "logo_start"
	// KindPasswordResetRequest is a reset link asked for an address: the
	// api does it itself, off the request (api.Server.Deliver), so that the
	// request does the same work for a registered and an unknown address.
	KindPasswordResetRequest = "password_reset_request"
	// KindActivationRequest is a new activation link asked for an
	// address, done by the api off the request like a reset link.
	KindActivationRequest = "activation_request"
	// KindExportStart starts a data export's workflow.
	KindExportStart = "export_start"
	// KindVATCheckStart starts the check of a saved VAT id that VIES could
	// not answer at once, replacing the account's running check.
	KindVATCheckStart = "vat_check_start"
	// KindQuoteChanged tells the account's subscription workflow that its
	// billing address or VAT id's status changed (an open checkout whose
	// quote no longer holds is closed).
	KindQuoteChanged = "quote_changed"
)

// QuoteChanged is the entry that tells the account's subscription
// workflow of a change of what its quotes are taken from, written in the
// change's transaction; key names the change (one update per change).
func QuoteChanged(accountID uuid.UUID, key string) store.OutboxEntry {
	return store.OutboxEntry{Key: "quote_changed:" + accountID.String() + ":" + key, Kind: KindQuoteChanged,
		WorkflowID: workflows.SubscriptionWorkflowID(accountID), Payload: accountPayload{AccountID: accountID}}
}

// VATCheckStart is the entry that starts the check of the VAT id of the
// account's billing address as saved at version (migration 00062 writes
// the same entries for ids saved before checks existed).
func VATCheckStart(in workflows.VATCheckInput) store.OutboxEntry {
	return store.OutboxEntry{Key: "vat_check:" + in.AccountID.String() + ":" + strconv.Itoa(in.Version), Kind: KindVATCheckStart,
		WorkflowID: workflows.VATCheckWorkflowID(in.AccountID), Payload: in}
}

// VATCheckedKey is the request key of a VAT-id check's answer for the
// address saved at version: its vat_id_checked event (and mail), written
// at the save when VIES answered then, else by the check's workflow.
func VATCheckedKey(accountID uuid.UUID, version int) string {
	return "vat_id_checked:" + accountID.String() + ":" + strconv.Itoa(version)
}

// VATRecheckedKey is the request key of the answer that found the verified
// VAT id of the address saved at version no longer valid when VIES was
// asked again before an invoice (kudos.VATRecheckAfter): its vat_id_checked
// event and mail. Once invalid the id is not asked about again until the
// address is saved anew: one such answer per version.
func VATRecheckedKey(accountID uuid.UUID, version int) string {
	return VATCheckedKey(accountID, version) + ":recheck"
}

// ResetRequest is the payload of a KindPasswordResetRequest or
// KindActivationRequest entry: the address typed and the request key of
// the mail that answers it.
type ResetRequest struct {
	Email string `json:"email"`
	Key   string `json:"key"`
}

// PasswordResetRequest is the entry of a reset link asked for email, whose
// mail (if the address is registered) gets request key key.
func PasswordResetRequest(email, key string) store.OutboxEntry {
	return store.OutboxEntry{Key: "password_reset_request:" + key, Kind: KindPasswordResetRequest,
		WorkflowID: "password_reset:" + email, Payload: ResetRequest{Email: email, Key: key}}
}

// ActivationRequest is the entry of a new activation link asked for email,
// whose mail (if an unactivated user has that address, or awaits it as a
// new one) gets request key key.
func ActivationRequest(email, key string) store.OutboxEntry {
	return store.OutboxEntry{Key: "activation_request:" + key, Kind: KindActivationRequest,
		WorkflowID: "activation:" + email, Payload: ResetRequest{Email: email, Key: key}}
}

// accountPayload is the payload of the entries that only name an account.
type accountPayload struct {
	AccountID uuid.UUID `json:"account_id"`
}

// Mail is the entry that delivers one mail.
func Mail(req kudos.MailRequest) store.OutboxEntry {
	return store.OutboxEntry{Key: "mail:" + req.Key, Kind: KindMail, WorkflowID: workflows.EmailWorkflowID(req), Payload: req}
}

// SubscriptionStart is the entry that starts a new account's subscription
// workflow.
func SubscriptionStart(accountID uuid.UUID) store.OutboxEntry {
	return store.OutboxEntry{Key: "subscription_start:" + accountID.String(), Kind: KindSubscriptionStart,
		WorkflowID: workflows.SubscriptionWorkflowID(accountID), Payload: accountPayload{AccountID: accountID}}
}

// PaymentEvent is the entry that delivers a stored payment event.
func PaymentEvent(ev kudos.PaymentEvent) store.OutboxEntry {
	return store.OutboxEntry{Key: "payment_event:" + ev.EventID, Kind: KindPaymentEvent,
		WorkflowID: workflows.SubscriptionWorkflowID(ev.AccountID), Payload: ev}
}

// LogoStart is the entry that has the upload tempKey of an account
// processed.
func LogoStart(accountID uuid.UUID, tempKey string) store.OutboxEntry {
	return store.OutboxEntry{Key: "logo:" + tempKey, Kind: KindLogoStart, WorkflowID: workflows.LogoWorkflowID(accountID),
		Payload: logoPayload{AccountID: accountID, TempKey: tempKey}}
}

// logoPayload is the payload of a KindLogoStart entry.
type logoPayload struct {
	AccountID uuid.UUID `json:"account_id"`
	// TempKey is the uploaded object, also the account's img_url while the
	// workflow runs.
	TempKey string `json:"temp_key"`
}

// RowOf is the row an entry becomes once stored: what the relay hands to
// Deliver. Tools and tests that deliver an entry directly use it.
func RowOf(e store.OutboxEntry) (store.OutboxRow, error) {
	payload, err := json.Marshal(e.Payload)
	return store.OutboxRow{Key: e.Key, Kind: e.Kind, WorkflowID: e.WorkflowID, Payload: payload}, err
}

// PaymentEventAgain is the entry that delivers a stored payment event once
// more, as a new update (its key differs from the first delivery's), to a
// workflow that never applied it (the reconciliation of at).
func PaymentEventAgain(ev kudos.PaymentEvent, at time.Time) store.OutboxEntry {
	e := PaymentEvent(ev)
	e.Key = "payment_event:" + ev.EventID + ":again:" + at.UTC().Format(time.RFC3339)
	return e
}

// ReconcileStart is the entry that starts an account's subscription
// workflow again from its read model, found missing by the reconciliation
// run of at (one entry per account and run).
func ReconcileStart(accountID uuid.UUID, at time.Time) store.OutboxEntry {
	e := SubscriptionStart(accountID)
	e.Key = "reconcile:" + accountID.String() + ":" + at.UTC().Format(time.RFC3339)
	return e
}

// ExportStart is the entry that starts a data export's workflow, whose file
// can be downloaded for ttl once built.
func ExportStart(ttl time.Duration) func(kudos.DataExport) store.OutboxEntry {
	return func(e kudos.DataExport) store.OutboxEntry {
		return store.OutboxEntry{Key: "export_start:" + e.ID.String(), Kind: KindExportStart,
			WorkflowID: workflows.ExportWorkflowID(e.ID), Payload: workflows.ExportInput{ExportID: e.ID, TTL: ttl}}
	}
}
