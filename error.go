package kudos

import (
	"errors"
	"fmt"
)

// Error codes: the small, closed set of failure kinds that every layer speaks.
// api/ maps each one to an HTTP status and the SPEC §8 message.
const (
	EBadRequest       = "bad_request"
	EUnauthorized     = "unauthorized"
	EForbidden        = "forbidden"
	ENotActivated     = "user_not_activated"
	ENotFound         = "not_found"
	EConflict         = "conflict"
	ETooLarge         = "payload_too_large"
	EInvalid          = "unprocessable_entity"
	ERateLimited      = "too_many_requests"
	EPasswordMismatch = "passwords_do_not_match"
	EInternal         = "internal"
	EUnavailable      = "unavailable"
	// ESeatLimit (409): the change needs more seats than the plan allows
	// (an invitation, its acceptance, a plan too small for the team).
	ESeatLimit = "seat_limit"
	// EInvitationEmailMismatch (403): the invitation was sent to another
	// address than the signed-in user's.
	EInvitationEmailMismatch = "invitation_email_mismatch"
	// EEmailNotVerified (403): the identity provider has not verified the
	// e-mail address of the identity, which therefore proves nothing.
	EEmailNotVerified = "email_not_verified"
	// EReauthRequired (403): a sensitive change of a user without a
	// password needs a fresh sign-in with Google first (a step-up).
	EReauthRequired = "reauthentication_required"
	// ESecondFactorRequired (403): the user has a second factor and this
	// session has not met it recently enough for a sensitive change (or at
	// all, in an account that requires it): POST /v1/users/me/mfa/verify
	// first (issue 29).
	ESecondFactorRequired = "second_factor_required"
	// EMFAEnrolmentRequired (403): the account requires two-factor sign-in
	// and the user has no second factor yet: enrol first (issue 29).
	EMFAEnrolmentRequired = "mfa_enrolment_required"
	// EAccountBeingDeleted (409): the account's deletion is scheduled, and
	// what was asked would take or commit money (a plan, a renewal, a
	// payment method): the owner cancels the deletion first (issue 37: the
	// UI says so, not that someone else changed something).
	EAccountBeingDeleted = "account_being_deleted"
	// EPriceChanged (409): a checkout's price changed while it was being
	// opened (the billing address, or its VAT id's check, changed it
	// between two tries at the payment provider); nothing was opened, and
	// asked again it opens at the new price (the UI says so, not that
	// someone else changed something).
	EPriceChanged = "price_changed"
)

// Field error codes: the values of Error.Fields. They are codes, not prose, so
// that the UI can translate them.
const (
	FRequired         = "required"
	FInvalidEmail     = "invalid_email"
	FInvalidPassword  = "invalid_password"
	FTooShort         = "too_short"
	FTooLong          = "too_long"
	FMustAcceptTerms  = "must_accept_terms"
	FInvalidValue     = "invalid_value"
	FInvalidVATID     = "invalid_vat_id"
	FInvalidCountry   = "invalid_country"
	FPasswordMismatch = "passwords_do_not_match"
	// FWrongPassword: the current password given to confirm a change is wrong.
	FWrongPassword = "wrong_password"
	// FTooLarge: a size beyond the limit (a logo of more than 10 MB).
	FTooLarge   = "too_large"
	FNotAnImage = "not_an_image"
)

// Error is a failure the client may be told about. Code is one of the E*
// constants; Message is safe to show; Fields maps payload field names to F*
// codes for validation failures.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
	// RetryAfter, in seconds, accompanies ERateLimited.
	RetryAfter int
}

// Error implements the error interface.
func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("kudos error: code=%s message=%s fields=%v", e.Code, e.Message, e.Fields)
	}
	return fmt.Sprintf("kudos error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrors is a builder for validation errors: add a code per field, then
// Err returns nil when nothing was added.
type FieldErrors map[string]string

// Add records code for field unless the field already has an error, so the
// first (most basic) rule that fails is the one reported.
func (f FieldErrors) Add(field, code string) {
	if _, ok := f[field]; !ok {
		f[field] = code
	}
}

// Err returns an EInvalid *Error carrying the fields, or nil if there are none.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "Unprocessable entity", Fields: map[string]string(f)}
}

// ErrorCode returns the code of err: the Code of a wrapped *Error, "" for nil,
// and EInternal for anything else.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err; internal errors get a
// generic text so that nothing leaks.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal server error"
}

// NotFound is the error of anything that does not exist or that the caller
// may not know exists (another account's data is not found, never forbidden).
func NotFound() *Error { return Errorf(ENotFound, "Not found") }
