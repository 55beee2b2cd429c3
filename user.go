package kudos

import (
	"context"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Languages the product is offered in (SPEC §1); the first is the fallback.
var Languages = []string{"en", "nl", "fr"}

// PasswordMinLength and PasswordMaxLength bound a password (SPEC §5 and the
// authentication issue: long inputs would only feed the hash function).
const (
	PasswordMinLength = 8
	PasswordMaxLength = 128
	// NameMaxLength bounds first and last names and other short texts.
	NameMaxLength = 100
	// EmailMaxLength is the longest address SMTP can carry (RFC 5321).
	EmailMaxLength = 254
)

// User is a person who signs in. Password holds the argon2id hash, never the
// password itself.
type User struct {
	ID                 uuid.UUID `json:"-"`
	Firstname          string    `json:"firstname"`
	Lastname           string    `json:"lastname"`
	Email              string    `json:"email"`
	Activated          bool      `json:"activated"`
	PreferredLanguage  string    `json:"preferred_language"`
	OptInNotifications bool      `json:"opt_in_notifications"`
	OptInMarketing     bool      `json:"opt_in_marketing"`
	OptInTermsOfUse    bool      `json:"opt_in_terms_of_use"`
	SocialLogin        bool      `json:"social_login"`
	PasswordHash       string    `json:"-"`
	CreatedAt          time.Time `json:"-"`
	// DeletionAt is when the user's own deletion erases them (issue 28),
	// nil unless they scheduled it; they can cancel until then.
	DeletionAt *time.Time `json:"deletion_at"`
	// DeletionBlockedBy names the account the user owns that keeps their
	// scheduled erasure waiting (issue 35); nil when nothing does.
	DeletionBlockedBy *string `json:"deletion_blocked_by"`
}

// emailPattern is the basic address pattern of SPEC §5: something, an @,
// something, a dot, something, with no spaces and no control characters
// (a NUL cannot even be stored).
var emailPattern = regexp.MustCompile(`^[^\s@[:cntrl:]]+@[^\s@[:cntrl:]]+\.[^\s@[:cntrl:]]+$`)

// NormalizeEmail trims an address and lowercases it: addresses are compared
// case-insensitively.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// ValidateEmail reports the field code for a bad address, or "".
func ValidateEmail(email string) string {
	switch {
	case email == "":
		return FRequired
	case len(email) > EmailMaxLength || !utf8.ValidString(email) || !emailPattern.MatchString(email):
		return FInvalidEmail
	}
	return ""
}

// ValidatePassword reports the field code for a password that breaks the
// SPEC §5 rules (length, one uppercase letter, one digit, one of !@#$%^&*,
// nothing but letters, digits and those symbols), or "".
func ValidatePassword(pw string) string {
	if pw == "" {
		return FRequired
	}
	if len(pw) < PasswordMinLength {
		return FTooShort
	}
	if len(pw) > PasswordMaxLength {
		return FTooLong
	}
	var upper, digit, symbol bool
	for _, r := range pw {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune("!@#$%^&*", r):
			symbol = true
		default:
			return FInvalidPassword
		}
	}
	if !upper || !digit || !symbol {
		return FInvalidPassword
	}
	return ""
}

// ValidateName reports the field code for a first or last name, or "".
func ValidateName(name string) string {
	switch n := utf8.RuneCountInString(name); {
	case strings.TrimSpace(name) == "":
		return FRequired
	case !lineText(name):
		return FInvalidValue
	case n > NameMaxLength:
		return FTooLong
	}
	return ""
}

// validText reports whether s can be kept as text: valid UTF-8 and no NUL,
// which Postgres refuses in text columns (a client sends one as "\u0000").
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// lineText reports whether s can be kept as one line of text shown to
// others (names, the account name, billing-address fields): validText and no
// control, format or line-separator character.
func lineText(s string) bool { return validText(s) && !hasControl(s) }

// hasControl reports whether s holds a control, format or line-separator
// character: a name shows in mails sent to any address (sign-up takes
// anyone's), where a line break or a bidi override would let it pose as the
// mail's own text.
func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return true
		}
	}
	return false
}

// ValidLanguage reports whether lang is one of Languages.
func ValidLanguage(lang string) bool { return contains(Languages, lang) }

// UserUpdate is a change to one or more fields of a user; nil fields stay.
type UserUpdate struct {
	Firstname          *string
	Lastname           *string
	OptInNotifications *bool
	OptInMarketing     *bool
	PreferredLanguage  *string
}

// PasswordHasher turns passwords into stored hashes and checks them.
type PasswordHasher interface {
	Hash(ctx context.Context, password string) (string, error)
	// Verify reports whether password matches hash. An empty hash is checked
	// against a dummy so that unknown users cost the same time.
	Verify(ctx context.Context, password, hash string) (bool, error)
}
