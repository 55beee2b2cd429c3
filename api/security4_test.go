package api_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"kudos"
	"kudos/api"
)

// Security, round 4 (issue 35): each test failed on the code before it.

// logBuffer is a log sink that tests read while the server writes to it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p (slog handlers write whole records).
func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything logged so far.
func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// captureLog makes the harness log everything (debug and up) to the
// returned buffer: the api's request log and errors, and, when called
// before withTemporal, the worker's and the relay's logs.
func (h *harness) captureLog() *logBuffer {
	buf := &logBuffer{}
	h.srv.Log = slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := *h.srv
	srv.Registry = nil
	h.app = api.New(&srv)
	return buf
}

// TestNoSecretInTheLogs: the invitation token is a path segment
// (/v1/invitations/{token}); the request log printed raw paths, so whoever
// read the logs could join as the invitee. A run through invitation
// (preview, accept by a signed-in user and by a sign-up), activation and
// password reset leaves no token of any kind in any log line, and the
// request log names the route of those requests by its pattern.
func TestNoSecretInTheLogs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	logs := h.captureLog()
	h.withTemporal(time.Hour)
	owner, account := h.signedUpUser("log-owner@example.com")

	// An invitation previewed and accepted by a sign-up from its link.
	h.expect(h.invite(owner, account, "log-invitee@example.com", "admin"), 201)
	invitation := h.invitationToken("log-invitee@example.com")
	h.expect(h.do("GET", "/v1/invitations/"+invitation, nil, ""), 200)
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("log-invitee@example.com", invitation), ""), 201)

	// An invitation accepted by a user who is already signed in.
	other, _ := h.signedUpUser("log-other@example.com")
	h.expect(h.invite(owner, account, "log-other@example.com", "member"), 201)
	second := h.invitationToken("log-other@example.com")
	h.expect(h.do("GET", "/v1/invitations/"+second, nil, other), 200)
	h.expect(h.do("POST", "/v1/invitations/"+second+"/accept", nil, other), 200)
	// A used token asked for again: the 404 is logged too.
	h.expect(h.do("GET", "/v1/invitations/"+second, nil, ""), 404)

	// Activation and password reset tokens travel in bodies; they must not
	// reach a log line either.
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("log-reset@example.com"), ""), 201)
	signup := h.lastMail("log-reset@example.com")
	activation := h.srv.Tokens.Token(kudos.TokenActivation, signup.Key)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation), ""), 201)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "log-reset@example.com"}, ""), 202)
	h.deliverQueued()
	reset := h.srv.Tokens.Token(kudos.TokenPasswordReset, h.lastMail("log-reset@example.com").Key)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "N3wPassw0rd!"}, ""), 200)

	out := logs.String()
	for name, secret := range map[string]string{"invitation token": invitation, "second invitation token": second,
		"activation token": activation, "reset token": reset} {
		if strings.Contains(out, secret) {
			t.Errorf("the %s reaches the log:\n%s", name, linesHolding(out, secret))
		}
	}
	if !strings.Contains(out, `"path":"/v1/invitations/:token"`) {
		t.Errorf("the request log does not name the invitation routes by their pattern:\n%s", linesHolding(out, "/v1/invitations"))
	}
}

// linesHolding are the lines of out that contain s.
func linesHolding(out, s string) string {
	var hits []string
	for line := range strings.SplitSeq(out, "\n") {
		if strings.Contains(line, s) {
			hits = append(hits, line)
		}
	}
	return strings.Join(hits, "\n")
}

// TestTurningThePolicyOffReauthenticates: turning the owner's two-factor
// policy off lowers every member's protection, so it takes what removing a
// factor takes: the current password (422 without it or with a wrong one)
// and the second factor met within the step-up window (403
// second_factor_required), so that a stolen session cannot.
func TestTurningThePolicyOffReauthenticates(t *testing.T) {
	t.Parallel()
	h := newHarness(t) // no relay: the test moves the clock (advance), which a running relay reads
	token, account := h.signedUpUser("policy-off@example.com")
	secret, _ := h.enrolTOTP(token)
	h.expect(h.do("PATCH", "/v1/accounts/"+account, map[string]any{"require_mfa": true}, token), 200)
	path := "/v1/accounts/" + account
	if r := h.expect(h.do("PATCH", path, map[string]any{"require_mfa": false}, token), 422); r.field("current_password") == "" {
		t.Fatalf("without the password: %s", r.Raw)
	}
	h.expect(h.do("PATCH", path, map[string]any{"require_mfa": false, "current_password": "Wrong1!x"}, token), 422)
	// The second factor met long ago: asked again, even with the password.
	h.advance(kudos.StepUpWindow + time.Minute)
	off := map[string]any{"require_mfa": false, "current_password": "Secret1!"}
	if r := h.expect(h.do("PATCH", path, off, token), 403); r.errorCode() != kudos.ESecondFactorRequired {
		t.Fatalf("a stale second factor: %s", r.Raw)
	}
	if r := h.expect(h.do("GET", path, nil, token), 200); r.Body["account"].(map[string]any)["require_mfa"] != true {
		t.Fatalf("a refused change turned the policy off: %s", r.Raw)
	}
	h.expect(h.do("POST", "/v1/users/me/mfa/verify", map[string]any{"code": h.totpCode(secret, 0)}, token), 204)
	h.expect(h.do("PATCH", path, off, token), 200)
	if r := h.expect(h.do("GET", path, nil, token), 200); r.Body["account"].(map[string]any)["require_mfa"] != false {
		t.Fatalf("the policy stays on: %s", r.Raw)
	}
}

// TestInvitationsEndWithTheInvitersRights: an invitation carries the
// rights of the admin who sent it. Removing that admin, demoting them to
// member, or their leaving revokes the invitations they sent (the link
// stops working, the seat is free again, the timeline says so), and an
// invitation whose inviter lost the right meanwhile by another way is not
// accepted either. Invitations sent by someone who keeps the right stay.
func TestInvitationsEndWithTheInvitersRights(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("rights-owner@example.com")
	removed, removedID := h.join(owner, account, "rights-removed@example.com", "admin")
	demoted, demotedID := h.join(owner, account, "rights-demoted@example.com", "admin")
	leaving, _ := h.join(owner, account, "rights-leaving@example.com", "admin")
	h.expect(h.invite(removed, account, "by-removed@example.com", "admin"), 201)
	h.expect(h.invite(demoted, account, "by-demoted@example.com", "member"), 201)
	h.expect(h.invite(leaving, account, "by-leaving@example.com", "member"), 201)
	h.expect(h.invite(owner, account, "by-owner@example.com", "member"), 201)
	byRemoved := h.invitationToken("by-removed@example.com")
	byDemoted := h.invitationToken("by-demoted@example.com")
	byLeaving := h.invitationToken("by-leaving@example.com")
	h.wantSeats(t, owner, account, 8, 10)

	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/members/"+removedID, nil, owner), 204)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/members/"+demotedID, map[string]any{"role": "member"}, owner), 200)
	h.expect(h.do("DELETE", "/v1/accounts/"+account+"/members/"+h.memberID(owner, account, "rights-leaving@example.com"), nil, leaving), 204)

	for email, token := range map[string]string{"by-removed@example.com": byRemoved, "by-demoted@example.com": byDemoted,
		"by-leaving@example.com": byLeaving} {
		if s := h.invitationStatus(account, email); s != "revoked" {
			t.Errorf("the invitation to %s is %q once its inviter lost the right, want revoked", email, s)
		}
		h.expect(h.do("GET", "/v1/invitations/"+token, nil, ""), 404)
		h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody(email, token), ""), 404)
	}
	if s := h.invitationStatus(account, "by-owner@example.com"); s != "pending" {
		t.Fatalf("the owner's invitation is %q, want pending", s)
	}
	h.wantSeats(t, owner, account, 3, 10) // the owner, the demoted member, the owner's invitation
	if n := h.count("billing_events", account, "type = 'invitation_revoked'"); n != 3 {
		t.Fatalf("%d invitation_revoked events, want 3", n)
	}

	// An inviter whose right ended by a way that revoked nothing (a change
	// made straight in Postgres stands for any other path): the accept
	// checks the inviter again.
	other, otherID := h.join(owner, account, "rights-other@example.com", "admin")
	h.expect(h.invite(other, account, "by-other@example.com", "member"), 201)
	byOther := h.invitationToken("by-other@example.com")
	if _, err := h.db.Pool.Exec(t.Context(), `UPDATE memberships SET role = 'member' WHERE account_id = $1 AND user_id = $2`,
		account, otherID); err != nil {
		t.Fatal(err)
	}
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("by-other@example.com", byOther), ""), 404)
	if id := h.memberID(owner, account, "by-other@example.com"); id != "" {
		t.Fatal("an invitation whose inviter is no longer an admin was accepted")
	}
}

// TestNoOwnershipToAMemberBeingDeleted: a member who scheduled the
// deletion of their own user cannot take the account's ownership (409): the
// account would be left without an owner when their deletion is done. Once
// they cancel it, they can.
func TestNoOwnershipToAMemberBeingDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("heir-owner@example.com")
	member, memberID := h.join(owner, account, "heir@example.com", "admin")
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202)
	transfer := map[string]any{"user_id": memberID, "current_password": "Secret1!"}
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", transfer, owner), 409)
	if role := h.roleOf(account, "heir@example.com"); role != "admin" {
		t.Fatalf("a refused transfer made the member %q", role)
	}
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, member), 200)
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", transfer, owner), 200)
	if role := h.roleOf(account, "heir@example.com"); role != "owner" {
		t.Fatalf("after the cancel the member is %q, want owner", role)
	}
}

// TestAnUnactivatedUserProvesTheAddressBeforeAccepting: a user who never
// proved the address can sign in, and their session may be a stranger's
// who signed up with it; accepting an invitation with it is 403
// user_not_activated, and changes nothing, until the address is proved.
func TestAnUnactivatedUserProvesTheAddressBeforeAccepting(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("unproved-owner@example.com")
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("unproved@example.com"), ""), 201)
	signup := h.lastMail("unproved@example.com")
	session := h.expect(h.passwordSignin("unproved@example.com"), 201).str("token")
	h.expect(h.invite(owner, account, "unproved@example.com", "member"), 201)
	invitation := h.invitationToken("unproved@example.com")
	if r := h.expect(h.do("POST", "/v1/invitations/"+invitation+"/accept", nil, session), 403); r.errorCode() != kudos.ENotActivated {
		t.Fatalf("an unactivated user accepting: %s", r.Raw)
	}
	if id := h.memberID(owner, account, "unproved@example.com"); id != "" || h.invitationStatus(account, "unproved@example.com") != "pending" {
		t.Fatal("a refused acceptance changed the team")
	}
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(h.srv.Tokens.Token(kudos.TokenActivation, signup.Key)), ""), 201)
	h.expect(h.do("POST", "/v1/invitations/"+invitation+"/accept", nil, session), 200)
	if h.memberID(owner, account, "unproved@example.com") == "" {
		t.Fatal("the activated user did not join")
	}
}

// TestAStrangersFactorsEndWhenTheOwnerProvesTheAddress (high): a user who
// never proved the address can sign in, and may be a stranger who signed
// up with someone else's address. Such a session adds no credential (an
// app, recovery codes, a passkey: 403 user_not_activated). Factors that
// an unproved user holds anyway (set before this rule) end when the owner
// proves the address, by the activation link, a password reset or Google:
// the owner signs in without a second factor they never had, and the
// stranger's sessions and device cookie are void.
func TestAStrangersFactorsEndWhenTheOwnerProvesTheAddress(t *testing.T) {
	t.Parallel()
	for n, proof := range []string{"activation", "password reset", "google"} {
		t.Run(proof, func(t *testing.T) {
			h := trustingHarness(t)
			now := time.Now()
			h.db.SetClock(func() time.Time { return now }) // no limit refills meanwhile
			victim := fmt.Sprintf("proved-%d@example.com", n)
			h.expect(h.do("POST", "/v1/auth/signup", signupBody(victim), ""), 201)
			activation := h.srv.Tokens.Token(kudos.TokenActivation, h.lastMail(victim).Key)
			in := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": victim, "password": "Secret1!"}, "",
				"X-Forwarded-For", "198.51.100.30"), 201)
			stranger, cookie := in.str("token"), deviceCookie(t, in)
			for _, path := range []string{"/v1/users/me/mfa/totp", "/v1/users/me/mfa/recovery-codes", "/v1/users/me/passkeys/options"} {
				if r := h.expect(h.do("POST", path, map[string]any{"current_password": "Secret1!"}, stranger), 403); r.errorCode() != kudos.ENotActivated {
					t.Fatalf("an unproved user adding a credential at %s: %s", path, r.Raw)
				}
			}
			// Factors from before the refusal: enrolled while the flag is
			// lifted for a moment.
			h.exec(`UPDATE users SET activated = true WHERE email = $1`, victim)
			h.enrolTOTP(stranger)
			h.exec(`UPDATE users SET activated = false, address_proved_at = NULL WHERE email = $1`, victim)

			now = now.Add(time.Minute)
			switch proof {
			case "activation":
				h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(activation), ""), 201)
			case "password reset":
				h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": victim}, ""), 202)
				h.deliverQueued()
				reset := h.srv.Tokens.Token(kudos.TokenPasswordReset, h.lastMail(victim).Key)
				h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Secret1!"}, ""), 200)
			case "google":
				if r := h.expect(h.googleCallback("signin", "google-"+victim, victim), 201); r.str("token") == "" {
					t.Fatalf("the owner's Google sign-in asks for a second factor they never had: %s", r.Raw)
				}
			}
			for _, table := range []string{"user_totp", "recovery_codes", "passkeys"} {
				if n := h.countWhere(table, "user_id = (SELECT id FROM users WHERE email = $1)", victim); n != 0 {
					t.Errorf("%d rows of %s of the stranger survive the owner's proof", n, table)
				}
			}
			if proof != "google" { // Google took the password with the rest
				if r := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": victim, "password": "Secret1!"}, "",
					"X-Forwarded-For", "198.51.100.31"), 201); r.str("token") == "" {
					t.Fatalf("the owner's sign-in asks for a second factor they never had: %s", r.Raw)
				}
			}
			h.expect(h.do("GET", "/v1/users/me/mfa", nil, stranger), 401)
			// The stranger's device cookie exempts nothing from the limit
			// of the address's sign-ins any more.
			wrong := map[string]any{"email": victim, "password": "Wrong1!x"}
			for net := range 6 {
				for i := range 10 {
					h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", fmt.Sprintf("2001:db8:%x::%x", net+40, i+1))
				}
			}
			h.expect(h.do("POST", "/v1/auth/signin", wrong, "", "X-Forwarded-For", "192.0.2.40", "Cookie", "kudos_device="+cookie.Value), 429)
		})
	}
}

// exec runs a statement on the harness's database (a state the api would
// not make, set up by the test).
func (h *harness) exec(sql string, args ...any) {
	h.t.Helper()
	if _, err := h.db.Pool.Exec(h.t.Context(), sql, args...); err != nil {
		h.t.Fatalf("%s: %v", sql, err)
	}
}

// countWhere is a count(*) of the rows of table matching where.
func (h *harness) countWhere(table, where string, args ...any) int {
	h.t.Helper()
	var n int
	if err := h.db.Pool.QueryRow(h.t.Context(), `SELECT count(*) FROM `+table+` WHERE `+where, args...).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestAProvedUserKeepsFactorsDuringAnAddressChange: a user who changes the
// e-mail address is unactivated until the new one is confirmed, yet proved
// the old one: a password reset meanwhile (which proves an address) keeps
// their app and recovery codes — only a user who never proved an address
// loses them.
func TestAProvedUserKeepsFactorsDuringAnAddressChange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const email = "moving-mfa@example.com"
	token, account := h.signedUpUser(email)
	h.enrolTOTP(token)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", changeEmailBody("moved-mfa@example.com"), token), 200)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""), 202)
	h.deliverQueued()
	reset := h.srv.Tokens.Token(kudos.TokenPasswordReset, h.lastMailOf(email, kudos.MailPasswordReset).Key)
	h.expect(h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Secret2!"}, ""), 200)
	if n := h.countWhere("user_totp", "user_id = (SELECT id FROM users WHERE email = $1)", email); n != 1 {
		t.Fatal("a password reset during an address change dropped the user's app")
	}
	if r := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret2!"}, ""), 202); r.str("challenge") == "" {
		t.Fatalf("the sign-in does not ask for the app: %s", r.Raw)
	}
}
