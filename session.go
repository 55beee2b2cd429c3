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
}

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
