package api_test

import (
	"testing"

	"kudos"
)

// TestGoogleDuringAnAddressChangeKeepsTheOwnersAccess: a user who proved
// their address and is changing it (unactivated until the new one is
// confirmed) signs in with Google as the old address. That owner was
// treated as a stranger who had signed up with someone else's address:
// the password, the pending change and every session went.
func TestGoogleDuringAnAddressChangeKeepsTheOwnersAccess(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const old, moved = "google-while-moving@example.com", "google-moved@example.com"
	token, account := h.signedUpUser(old)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", changeEmailBody(moved), token), 200)
	h.expect(h.googleCallback("signin", "g-moving", old), 201)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 403) // still awaiting the new address, not signed out
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": old, "password": "Secret1!"}, ""), 201)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMailOf(moved, kudos.MailActivation).Link)), ""), 200)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": moved, "password": "Secret1!"}, ""), 201)
}
