package api_test

import (
	"fmt"
	"testing"

	"kudos"
)

// TestAResetDoesNotLiftTheSecondFactorsLimit: a password reset proves the
// mailbox, not the second factor. It gave its browser a device cookie,
// and a device cookie lifts the per-user limit on second-factor guesses:
// whoever held the victim's mailbox reset the password and then guessed
// authenticator codes at the per-client rate from as many networks as
// they had (minutes from a /48), not 10 per 10 minutes. The limit holds
// for a browser that reset the password of a user with a second factor.
func TestAResetDoesNotLiftTheSecondFactorsLimit(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	h.freezeClock()
	const email = "reset-then-guess@example.com"
	token, _ := h.signedUpUser(email)
	secret, _ := h.enrolTOTP(token)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
	reset := tokenFrom(h.lastMailOf(email, kudos.MailPasswordReset).Link)
	r := h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Newpass1!"}, ""), 200)
	cookie := ""
	if c := deviceCookie(t, r); c != nil {
		cookie = "kudos_device=" + c.Value
	}
	signin := func(net int) string {
		ch := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Newpass1!"}, "",
			"X-Forwarded-For", fmt.Sprintf("2001:db8:%x::1", net+80), "Cookie", cookie), 202)
		return ch.str("challenge")
	}
	guess := func(net int, challenge string, code string) response {
		return h.do("POST", "/v1/auth/signin/mfa", map[string]any{"challenge": challenge, "code": code}, "",
			"X-Forwarded-For", fmt.Sprintf("2001:db8:%x::1", net+80), "Cookie", cookie)
	}
	for net := range 5 { // ten wrong codes, two per challenge, each challenge from a network of its own
		ch := signin(net)
		for range 2 {
			h.expect(guess(net, ch, h.totpCode(secret, 7)), 401)
		}
	}
	h.expect(guess(5, signin(5), h.totpCode(secret, 0)), 429)
}
