package api_test

import (
	"fmt"
	"testing"

	"kudos"
)

// TestALinkMailedBeforeAChangeDiesWithIt: a password-reset link mailed to
// the address before the user changes their password (in settings, or by
// another reset link) or confirms a new address answers as a used link:
// whoever reads the old mailbox later cannot take the account over with
// it. A pending change of address dies with a password reset, so that
// the confirmation link of a change an intruder started is void once the
// owner has reset the password.
func TestALinkMailedBeforeAChangeDiesWithIt(t *testing.T) {
	t.Parallel()
	for n, change := range []string{"password change", "password reset", "e-mail change"} {
		t.Run(change, func(t *testing.T) {
			h := newHarness(t)
			email := fmt.Sprintf("stale-%d@example.com", n)
			token, account := h.signedUpUser(email)
			h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
			stale := tokenFrom(h.lastMailOf(email, kudos.MailPasswordReset).Link)
			confirm := ""
			if change == "password reset" {
				// An e-mail change an intruder who had the password started,
				// to their own address (the owner, unactivated meanwhile,
				// can change nothing in settings).
				intruder := fmt.Sprintf("intruder-%d@example.com", n)
				h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"email": intruder, "current_password": "Secret1!"}, token), 200)
				confirm = tokenFrom(h.lastMailOf(intruder, kudos.MailActivation).Link)
			}
			switch change {
			case "password change":
				h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"password": "Newpass1!", "current_password": "Secret1!"}, token), 200)
			case "password reset":
				h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
				fresh := tokenFrom(h.lastMailOf(email, kudos.MailPasswordReset).Link)
				if fresh == stale {
					t.Fatal("the second reset mail carries the first link")
				}
				h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": fresh, "password": "Newpass1!"}, ""), 200)
			case "e-mail change":
				moved := fmt.Sprintf("moved-%d@example.com", n)
				h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"email": moved, "current_password": "Secret1!"}, token), 200)
				h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMailOf(moved, kudos.MailActivation).Link)), ""), 200)
			}
			if r := h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": stale, "password": "Taken1!x"}, ""), 404); r.errorCode() != kudos.ENotFound {
				t.Fatalf("the stale reset link after a %s: %s", change, r.Raw)
			}
			if confirm != "" {
				h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(confirm), ""), 404)
				// The owner is activated at their own address again.
				in := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Newpass1!"}, ""), 201)
				me := h.expect(h.do("GET", "/v1/accounts/"+account, nil, in.str("token")), 200)
				if u := me.Body["user"].(map[string]any); u["email"] != email || u["activated"] != true {
					t.Fatalf("after the %s the owner is %v", change, u)
				}
			}
		})
	}
}
