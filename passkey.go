package kudos

import (
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// PasskeyNameMaxLength bounds the name a user gives a passkey.
const PasskeyNameMaxLength = 60

// Passkey is a WebAuthn credential of a user (issue 29): it signs in
// without a password, or as a second factor.
type Passkey struct {
	ID     uuid.UUID
	UserID uuid.UUID
	// CredentialID is the credential's id at the authenticator.
	CredentialID []byte
	Name         string
	// Credential is the WebAuthn library's record of it (public key, sign
	// count, flags), as JSON.
	Credential json.RawMessage
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// ValidatePasskeyName reports the field code for a bad passkey name, or
// "": required, one line of text, at most PasskeyNameMaxLength characters.
func ValidatePasskeyName(name string) string {
	if code := ValidateName(name); code != "" {
		return code
	}
	if utf8.RuneCountInString(name) > PasskeyNameMaxLength {
		return FTooLong
	}
	return ""
}

// CeremonyPurpose is what a WebAuthn ceremony is for.
type CeremonyPurpose string

// Ceremony purposes: a registration, a passwordless sign-in, a passkey as
// the second factor of a sign-in, a passkey as the step-up of a sensitive
// change.
const (
	CeremonyRegister     CeremonyPurpose = "register"
	CeremonySignIn       CeremonyPurpose = "signin"
	CeremonySecondFactor CeremonyPurpose = "second_factor"
	CeremonyStepUp       CeremonyPurpose = "step_up"
)

// ValidAssertionPurpose reports whether p is the purpose of an assertion
// (every purpose but a registration).
func ValidAssertionPurpose(p CeremonyPurpose) bool {
	return p == CeremonySignIn || p == CeremonySecondFactor || p == CeremonyStepUp
}
