package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kudos"
)

func TestSignupActivateSignin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.expect(h.do("POST", "/v1/auth/signup", signupBody("  Ada@Example.COM "), ""), 201)
	if r.str("email") != "ada@example.com" {
		t.Fatalf("email = %q, want trimmed and lowercased", r.str("email"))
	}
	var activated bool
	var plan, status string
	var trialLeft int
	var expires time.Time
	err := h.db.Pool.QueryRow(context.Background(), `SELECT u.activated, s.plan, s.show_status, s.trials_left, s.trial_expires_at
		FROM users u JOIN memberships m ON m.user_id = u.id JOIN subscriptions s ON s.account_id = m.account_id
		WHERE u.email = 'ada@example.com' AND m.role = 'owner'`).Scan(&activated, &plan, &status, &trialLeft, &expires)
	if err != nil || activated || plan != "TRIAL" || status != "active" || trialLeft != 10 {
		t.Fatalf("after sign-up: activated=%v plan=%s status=%s trials_left=%d err=%v", activated, plan, status, trialLeft, err)
	}
	if d := time.Until(expires); d < 335*time.Hour || d > 337*time.Hour {
		t.Fatalf("trial expires in %v, want 336h", d)
	}
	mail := h.lastMail("ada@example.com")
	if mail.Purpose != kudos.MailActivation || !strings.HasPrefix(mail.Link, "http://127.0.0.1:8080/auth/confirm-email?token=") {
		t.Fatalf("activation mail = %+v", mail)
	}
	// The token is stored only as a hash.
	var stored int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM user_tokens WHERE hash = $1::bytea`, []byte(tokenFrom(mail.Link))).Scan(&stored)
	if stored != 0 {
		t.Fatal("the raw token is stored")
	}

	// Unactivated users can sign in; the account answers 403 until activation.
	s := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "ADA@example.com", "password": "Secret1!"}, ""), 201)
	acc := h.expect(h.do("GET", "/v1/accounts/"+s.str("account_id"), nil, s.str("token")), 403)
	if acc.errorCode() != kudos.ENotActivated {
		t.Fatalf("code = %s", acc.errorCode())
	}

	a := h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(mail.Link)), ""), 201)
	if a.str("account_id") != s.str("account_id") || a.str("token") == "" {
		t.Fatalf("activation answer %s", a.Raw)
	}
	if _, err := time.Parse(time.RFC3339, a.str("token_expiry")); err != nil {
		t.Fatalf("token_expiry %q: %v", a.str("token_expiry"), err)
	}
	// Single use.
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": tokenFrom(mail.Link)}, ""), 404)

	got := h.expect(h.do("GET", "/v1/accounts/"+a.str("account_id"), nil, a.str("token")), 200)
	user := got.Body["user"].(map[string]any)
	account := got.Body["account"].(map[string]any)
	if user["activated"] != true || user["email"] != "ada@example.com" || user["password"] != nil || user["social_login"] != false {
		t.Fatalf("user = %v", user)
	}
	if account["subscription"].(map[string]any)["plan"] != "TRIAL" {
		t.Fatalf("account = %v", account)
	}
}

func TestSignupValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for name, tc := range map[string]struct {
		mutate      func(b map[string]any)
		field, code string
	}{
		"no email":       {func(b map[string]any) { b["email"] = "" }, "email", kudos.FRequired},
		"bad email":      {func(b map[string]any) { b["email"] = "nope" }, "email", kudos.FInvalidEmail},
		"short pw":       {func(b map[string]any) { b["password"] = "Ab1!" }, "password", kudos.FTooShort},
		"weak pw":        {func(b map[string]any) { b["password"] = "abcdefgh" }, "password", kudos.FInvalidPassword},
		"long pw":        {func(b map[string]any) { b["password"] = "Ab1!" + strings.Repeat("x", 130) }, "password", kudos.FTooLong},
		"no first":       {func(b map[string]any) { b["firstname"] = " " }, "firstname", kudos.FRequired},
		"no last":        {func(b map[string]any) { b["lastname"] = "" }, "lastname", kudos.FRequired},
		"long name":      {func(b map[string]any) { b["lastname"] = strings.Repeat("x", 101) }, "lastname", kudos.FTooLong},
		"no terms":       {func(b map[string]any) { b["opt_in_terms_of_use"] = false }, "opt_in_terms_of_use", kudos.FMustAcceptTerms},
		"bad language":   {func(b map[string]any) { b["preferred_language"] = "de" }, "preferred_language", kudos.FInvalidValue},
		"foreign root":   {func(b map[string]any) { b["root_domain"] = "https://evil.example" }, "root_domain", kudos.FInvalidValue},
		"root with path": {func(b map[string]any) { b["root_domain"] = "http://127.0.0.1:8080/x" }, "root_domain", kudos.FInvalidValue},
	} {
		t.Run(name, func(t *testing.T) {
			b := signupBody("v-" + strings.ReplaceAll(name, " ", "") + "@example.com")
			tc.mutate(b)
			r := h.expect(h.do("POST", "/v1/auth/signup", b, ""), 422)
			if r.field(tc.field) != tc.code {
				t.Fatalf("fields = %s, want %s=%s", r.Raw, tc.field, tc.code)
			}
		})
	}
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d users created by invalid sign-ups", n)
	}
}

func TestDuplicateSignupTellsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.expect(h.do("POST", "/v1/auth/signup", signupBody("dup@example.com"), ""), 201)
	b := signupBody("DUP@example.com")
	b["password"] = "Other1!x"
	second := h.expect(h.do("POST", "/v1/auth/signup", b, ""), 201)
	if first.Raw != second.Raw {
		t.Fatalf("answers differ: %s vs %s", first.Raw, second.Raw)
	}
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users`).Scan(&n)
	if n != 1 {
		t.Fatalf("%d users", n)
	}
	if m := h.lastMail("dup@example.com"); m.Purpose != kudos.MailSignupExisting {
		t.Fatalf("the owner got %s, want the existing-account notice", m.Purpose)
	}
	// The original password still works, the second one does not.
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "dup@example.com", "password": "Secret1!"}, ""), 201)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "dup@example.com", "password": "Other1!x"}, ""), 401)
}

func TestSigninFailuresLookAlike(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("known@example.com"), ""), 201)
	wrong := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "known@example.com", "password": "Wrong1!x"}, ""), 401)
	unknown := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "nobody@example.com", "password": "Wrong1!x"}, ""), 401)
	if wrong.Raw != unknown.Raw {
		t.Fatalf("wrong password %s vs unknown user %s", wrong.Raw, unknown.Raw)
	}
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "", "password": ""}, ""), 422)
}

func TestSigninRateLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var last response
	for i := 0; i < 11; i++ {
		last = h.do("POST", "/v1/auth/signin", map[string]any{"email": "victim@example.com", "password": "Wrong1!x"}, "")
	}
	h.expect(last, 429)
	if last.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// Another address is not locked by the victim's limit.
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "other@example.com", "password": "Wrong1!x"}, ""), 401)
}

func TestSessionsAndSignout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("s@example.com")
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200)
	for name, tok := range map[string]string{
		"none":     "",
		"garbage":  "abc",
		"alg none": "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + strings.Split(token, ".")[1] + ".",
		"tampered": token[:len(token)-2] + "xx",
	} {
		t.Run(name, func(t *testing.T) {
			h.expect(h.do("GET", "/v1/accounts/"+account, nil, tok), 401)
		})
	}
	h.expect(h.do("POST", "/v1/auth/signout", nil, token), 204)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 401)
	h.expect(h.do("POST", "/v1/auth/signout", nil, token), 401)
}

func TestSessionExpires(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("exp@example.com")
	h.db.SetClock(func() time.Time { return time.Now().Add(8 * 24 * time.Hour) })
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 401)
}

func TestAccountOfAnotherUserIs404(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tokenA, _ := h.signedUpUser("a@example.com")
	_, accountB := h.signedUpUser("b@example.com")
	h.expect(h.do("GET", "/v1/accounts/"+accountB, nil, tokenA), 404)
	h.expect(h.do("GET", "/v1/accounts/not-a-uuid", nil, tokenA), 404)
	h.expect(h.do("GET", "/v1/accounts/00000000-0000-0000-0000-000000000000", nil, tokenA), 404)
}

func TestResendActivation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("r@example.com"), ""), 201)
	first := h.lastMail("r@example.com")
	known := h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "r@example.com"}, ""), 202)
	unknown := h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "x@example.com"}, ""), 202)
	if known.Raw != unknown.Raw {
		t.Fatal("resend answers tell which addresses exist")
	}
	second := h.lastMail("r@example.com")
	if second.Key == first.Key {
		t.Fatal("no new activation mail")
	}
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(second.Link)), ""), 201)
	// Activation retires the user's other activation links.
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": tokenFrom(first.Link)}, ""), 404)
	// An activated user gets no more activation mails.
	n := h.mailCount("r@example.com")
	h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "r@example.com"}, ""), 202)
	if h.mailCount("r@example.com") != n {
		t.Fatal("activation mail sent to an activated user")
	}
}

func TestTokensRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("t@example.com"), ""), 201)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "t@example.com"}, ""), 202)
	h.deliverQueued()
	reset := tokenFrom(h.lastMail("t@example.com").Link)
	// A reset token is not an activation token, and vice versa.
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": reset}, ""), 404)
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": "junk"}, ""), 404)
	h.expect(h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": ""}, ""), 422)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": strings.Repeat("A", 43), "password": "Secret1!"}, ""), 404)
	// Expired: an hour and a bit later the reset link is dead.
	h.db.SetClock(func() time.Time { return time.Now().Add(61 * time.Minute) })
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Newpass1!"}, ""), 404)
}

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("p@example.com")
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "p@example.com"}, ""), 202)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "ghost@example.com"}, ""), 202)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "bad"}, ""), 422)
	h.deliverQueued()
	mail := h.lastMail("p@example.com")
	if mail.Purpose != kudos.MailPasswordReset || !strings.Contains(mail.Link, "/auth/reset-password?token=") {
		t.Fatalf("reset mail %+v", mail)
	}
	r := h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": tokenFrom(mail.Link), "password": "weak"}, ""), 422)
	if r.field("password") != kudos.FTooShort {
		t.Fatal(r.Raw)
	}
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": tokenFrom(mail.Link), "password": "Newpass1!"}, ""), 200)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": tokenFrom(mail.Link), "password": "Newpass2!"}, ""), 404)
	// Every session ended; the new password works, the old one does not.
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 401)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "p@example.com", "password": "Secret1!"}, ""), 401)
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "p@example.com", "password": "Newpass1!"}, ""), 201)
}
