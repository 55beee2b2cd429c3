package kudos

import (
	"time"

	"github.com/google/uuid"
)

// Session is a signed-in browser. Its ID is the jti of the bearer token, so a
// token stops working the moment its row is revoked.
type Session struct {
	ID        uuid.UUID
	UserID    uuid.UUID
	ExpiresAt time.Time
	// Method is how the session signed in; SecondFactor, when not empty,
	// the second factor it met (issue 29). Both are shown in the sessions
	// list.
	Method       SignInMethod
	SecondFactor SecondFactor
	// SecondFactorAt is when the session last met a second factor (at its
	// sign-in, at enrolment or by POST /v1/users/me/mfa/verify); zero when
	// never. Sensitive changes need it within StepUpWindow.
	SecondFactorAt time.Time
	// CreatedAt is when the session signed in.
	CreatedAt time.Time
}

// SignInMethod is the first factor a session signed in with.
type SignInMethod string

// Sign-in methods.
const (
	SignInPassword SignInMethod = "password"
	SignInGoogle   SignInMethod = "google"
	SignInPasskey  SignInMethod = "passkey"
	// SignInLink is a mailed link: an activation in the browser that
	// signed up.
	SignInLink SignInMethod = "link"
)

// SecondFactor is the second factor a session met at its sign-in.
type SecondFactor string

// Second factors (issue 29).
const (
	SecondFactorTOTP         SecondFactor = "totp"
	SecondFactorRecoveryCode SecondFactor = "recovery_code"
	SecondFactorPasskey      SecondFactor = "passkey"
)

// TokenPurpose names what a single-use e-mailed token is for.
type TokenPurpose string

// Token purposes. Each has its own lifetime (see TokenTTL).
const (
	TokenActivation    TokenPurpose = "activation"
	TokenPasswordReset TokenPurpose = "password_reset"
	// TokenInvitation accepts an invitation to a team. Its lifetime is the
	// invitation's (KUDOS_INVITATION_TTL, renewed by a resend), and it is
	// kept with the invitation, not in user_tokens.
	TokenInvitation TokenPurpose = "invitation"
)

// TokenTTL is how long an e-mailed token of each purpose stays valid (but
// TokenInvitation's: see InvitationTiming).
var TokenTTL = map[TokenPurpose]time.Duration{
	TokenActivation:    48 * time.Hour,
	TokenPasswordReset: time.Hour,
}
