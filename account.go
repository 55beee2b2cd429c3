package kudos

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// DeletedAccountName replaces the name of a deleted account (issue 28):
// its invoices keep the buyer as issued, nothing else names it.
const DeletedAccountName = "Deleted account"

// AccountNameMinLength is the shortest account or organization name (SPEC §5).
const AccountNameMinLength = 3

// Account is the business that owns testimonials and pays for a plan.
type Account struct {
	ID     uuid.UUID `json:"id"`
	Name   string    `json:"name"`
	ImgURL string    `json:"img_url"`
	// LogoURL is where a public logo is served from (ImgURL is a reference);
	// "" unless the logo is public. Filled in by the api.
	LogoURL string `json:"logo_url"`
	// LogoError is why the last upload was refused (a kudos.Logo* reason).
	LogoError string `json:"logo_error"`
	// Role is the caller's role in the account (issue 26): the UI hides
	// what the role may not do.
	Role                 Role         `json:"role"`
	TestimonialCount     int          `json:"testimonial_count"`
	RecordingSpacesCount int          `json:"recording_spaces_count"`
	Subscription         Subscription `json:"subscription"`
	// DeletionAt is when the account is to be deleted (issue 28), nil
	// unless its owner scheduled it; the owner can cancel until then.
	DeletionAt *time.Time `json:"deletion_at"`
	// DeletionStoppedRenewal: scheduling the deletion turned the
	// auto-renewal off (issue 35); the cancel may turn it back on.
	DeletionStoppedRenewal bool `json:"deletion_stopped_renewal"`
	// RequireMFA is the owner's policy (issue 29): every member signs in
	// with a second factor to open the account.
	RequireMFA bool `json:"require_mfa"`
}

// ValidateAccountName reports the field code for an account or organization
// name, or "".
func ValidateAccountName(name string) string {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return FRequired
	case !lineText(name):
		return FInvalidValue
	case n < AccountNameMinLength:
		return FTooShort
	case n > NameMaxLength:
		return FTooLong
	}
	return ""
}
