package api_test

import (
	"encoding/base32"
	"fmt"
	"testing"
	"time"

	"kudos"
)

// TestADeviceCookieDiesWithAChangeOfCredentials: a device cookie exempts
// its browser from the shared sign-in ceiling of the address (and from the
// per-user limit of second factors). One taken before the owner changes
// the password (in settings or by a reset link), adds a second factor
// (app or passkey) or signs out the other devices, by someone who had the
// password, exempts nothing any more; the browser that made the change is
// given a fresh cookie, so the owner keeps getting in during a flood.
func TestADeviceCookieDiesWithAChangeOfCredentials(t *testing.T) {
	t.Parallel()
	for n, change := range []string{"password change", "password reset", "authenticator app", "passkey", "sign out other devices"} {
		t.Run(change, func(t *testing.T) {
			h := trustingHarness(t)
			now := time.Now()
			h.db.SetClock(func() time.Time { return now }) // no limit refills meanwhile
			email := fmt.Sprintf("device-%d@example.com", n)
			token, account := h.signedUpUser(email)
			in := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret1!"}, "",
				"X-Forwarded-For", "198.51.100.50"), 201)
			stale := deviceCookie(t, in)
			if stale == nil {
				t.Fatal("a sign-in set no device cookie")
			}

			now = now.Add(time.Minute)
			password := "Secret1!"
			var r response
			switch change {
			case "password change":
				password = "Newpass1!"
				r = h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"password": password, "current_password": "Secret1!"}, token), 200)
			case "password reset":
				password = "Newpass1!"
				h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
				reset := tokenFrom(h.lastMailOf(email, kudos.MailPasswordReset).Link)
				r = h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": password}, ""), 200)
			case "authenticator app":
				start := h.expect(h.do("POST", "/v1/users/me/mfa/totp", nil, token), 201)
				secret, _ := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(start.str("secret"))
				r = h.expect(h.do("POST", "/v1/users/me/mfa/totp/confirm", map[string]any{"code": h.totpCode(secret, 0)}, token), 200)
			case "passkey":
				r = h.expect(h.registerPasskey(token, newSoftAuthenticator(t), "Laptop"), 201)
			case "sign out other devices":
				r = h.expect(h.do("DELETE", "/v1/accounts/"+account+"/sessions", nil, token), 204)
			}
			fresh := deviceCookie(t, r)

			wrong := map[string]any{"email": email, "password": "Wrong1!x"}
			for net := range 6 {
				for i := range 10 {
					h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", fmt.Sprintf("2001:db8:%x::%x", net+60, i+1))
				}
			}
			right := map[string]any{"email": email, "password": password}
			h.expect(h.do("POST", "/v1/auth/signin", right, "", "X-Forwarded-For", "192.0.2.60", "Cookie", "kudos_device="+stale.Value), 429)
			if fresh == nil {
				t.Fatalf("the %s gave its browser no fresh device cookie", change)
			}
			if r := h.do("POST", "/v1/auth/signin", right, "", "X-Forwarded-For", "192.0.2.61", "Cookie", "kudos_device="+fresh.Value); r.Status != 201 && r.Status != 202 {
				t.Fatalf("the owner's fresh cookie after the %s: %d %s", change, r.Status, r.Raw)
			}
		})
	}
}
