package kudos

import "time"

// MFA timings (issue 29): a sign-in challenge lasts MFAChallengeTTL and
// allows MFAChallengeTries attempts; a session that met a second factor
// within StepUpWindow may make a sensitive change.
const (
	MFAChallengeTTL   = 5 * time.Minute
	MFAChallengeTries = 5
	StepUpWindow      = 5 * time.Minute
)

// MFAStatus is what second factors a user has: a confirmed TOTP app, how
// many unused recovery codes are left, how many passkeys.
type MFAStatus struct {
	TOTP              bool `json:"totp"`
	RecoveryCodesLeft int  `json:"recovery_codes_left"`
	Passkeys          int  `json:"passkeys"`
}

// Enrolled is the one rule that tells whether a user has a second factor:
// a confirmed TOTP app or any passkey. A sign-in then asks for it, and
// sensitive changes step up with it.
func (m MFAStatus) Enrolled() bool { return m.TOTP || m.Passkeys > 0 }

// Methods are the second factors a sign-in challenge may be met with, in
// the order the sign-in screen offers them: totp, recovery_code (while
// unused codes are left: they come with the first second factor, app or
// passkey), webauthn (with a passkey).
func (m MFAStatus) Methods() []string {
	out := []string{}
	if m.TOTP {
		out = append(out, "totp")
	}
	if m.RecoveryCodesLeft > 0 {
		out = append(out, "recovery_code")
	}
	if m.Passkeys > 0 {
		out = append(out, "webauthn")
	}
	return out
}
