package api_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kudos"
	"kudos/workflows"
)

// invitationOutcome waits for the invitation's workflow to end and returns
// how it ended.
func (h *harness) invitationOutcome(id string) workflows.InvitationResult {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var res workflows.InvitationResult
	if err := h.tc.GetWorkflow(ctx, "invitation:"+id, "").Get(ctx, &res); err != nil {
		h.t.Fatalf("invitation workflow %s: %v", id, err)
	}
	return res
}

// TestInvitedSignupJoinsTheAccount: an invitation is mailed by its
// workflow; the link shows the account, the inviter and the role; signing
// up from it makes an activated member of the inviting account at once
// (no trial account of their own), tells the inviter, records both events
// and ends the invitation, whose link then is gone.
func TestInvitedSignupJoinsTheAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("team-owner@example.com")
	h.wantSeats(t, owner, account, 1, 10) // a trial allows the Team plan's seats
	inv := h.expect(h.invite(owner, account, "New.Member@Example.com", "member"), 201)
	if inv.str("email") != "new.member@example.com" || inv.str("role") != "member" || inv.str("id") == "" {
		t.Fatalf("invitation answer: %s", inv.Raw)
	}
	expires, err := time.Parse(time.RFC3339, inv.str("expires_at"))
	if err != nil || expires.Sub(time.Now()) < 167*time.Hour || expires.Sub(time.Now()) > 169*time.Hour {
		t.Fatalf("expires_at %q: want 7 days from now", inv.str("expires_at"))
	}
	h.wantSeats(t, owner, account, 2, 10) // the pending invitation takes a seat

	mail := h.waitMail("new.member@example.com", kudos.MailTeamInvitation)
	if !strings.HasPrefix(mail.Link, "http://127.0.0.1:8080/invitation?token=") {
		t.Fatalf("invitation link %q", mail.Link)
	}
	token := tokenFrom(mail.Link)
	var stored int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE payload::text LIKE '%' || $1 || '%'`, token).Scan(&stored)
	if stored != 0 {
		t.Fatal("the invitation token is stored in clear in the outbox")
	}
	preview := h.expect(h.do("GET", "/v1/invitations/"+token, nil, ""), 200)
	if preview.str("account_name") != "Ada Lovelace" || preview.str("inviter") != "Ada Lovelace" ||
		preview.str("email") != "new.member@example.com" || preview.str("role") != "member" {
		t.Fatalf("preview: %s", preview.Raw)
	}

	joined := h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("new.member@example.com", token), ""), 201)
	if joined.str("account_id") != account || joined.str("token") == "" {
		t.Fatalf("invited sign-up: %s", joined.Raw)
	}
	member := joined.str("token")
	read := h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200)
	if r := read.Body["account"].(map[string]any)["role"]; r != "member" {
		t.Fatalf("the member's role in the account read: %v", r)
	}
	if a := read.Body["user"].(map[string]any)["activated"]; a != true {
		t.Fatal("the invited user is not activated: the link proved the address")
	}
	accounts := h.expect(h.do("GET", "/v1/accounts", nil, member), 200).Body["accounts"].([]any)
	if len(accounts) != 1 || accounts[0].(map[string]any)["id"] != account {
		t.Fatalf("the invited user belongs to %v, want only the inviting account (no trial of their own)", accounts)
	}
	h.wantSeats(t, owner, account, 2, 10)
	if h.mailsOf("new.member@example.com", kudos.MailActivation) != 0 {
		t.Fatal("an activation mail was sent to an invited user")
	}
	h.waitMail("team-owner@example.com", kudos.MailTeamInvitationAccepted)
	if got := h.teamEvents(account); !slices.Equal(got, []string{"member_invited", "member_joined"}) {
		t.Fatalf("timeline %v", got)
	}
	if res := h.invitationOutcome(inv.str("id")); res.Outcome != workflows.InvitationOutcomeAccepted || res.Mails != 1 {
		t.Fatalf("workflow %+v", res)
	}
	h.expect(h.do("GET", "/v1/invitations/"+token, nil, ""), 404)
	h.expect(h.do("POST", "/v1/invitations/"+token+"/accept", nil, member), 404)
	h.recordHistory("invitation:"+inv.str("id"), "", "invitation_accepted.json")
}

// TestInvitingAnyAddressAnswersTheSame: inviting an address that has an
// account answers exactly as inviting one that has none (no enumeration).
func TestInvitingAnyAddressAnswersTheSame(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("enum-owner@example.com")
	h.signedUpUser("enum-known@example.com")
	known := h.expect(h.invite(owner, account, "enum-known@example.com", "admin"), 201)
	unknown := h.expect(h.invite(owner, account, "enum-unknown@example.com", "admin"), 201)
	keys := func(r response) []string {
		var k []string
		for key := range r.Body {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	if !slices.Equal(keys(known), keys(unknown)) {
		t.Fatalf("answers differ: %s vs %s", known.Raw, unknown.Raw)
	}
	// A second pending invitation to one address is refused; the first
	// is resent instead.
	again := h.expect(h.invite(owner, account, "ENUM-UNKNOWN@example.com", "member"), 409)
	if again.field("email") != "already_invited" {
		t.Fatalf("second invitation: %s", again.Raw)
	}
	h.expect(h.invite(owner, account, "enum-owner@example.com", "member"), 409)
	for _, bad := range []map[string]any{{"email": "not-an-address", "role": "member"}, {"email": "x@example.com", "role": "owner"},
		{"email": "x@example.com", "role": "boss"}, {"email": "x@example.com"}} {
		h.expect(h.do("POST", "/v1/accounts/"+account+"/invitations", bad, owner), 422)
	}
	h.wantSeats(t, owner, account, 3, 10)
}

// TestAcceptingAsAnotherAddressIsRefused: signed in as another address the
// acceptance is 403 invitation_email_mismatch and changes nothing; a
// sign-up from the link with another address is refused the same way;
// one with an address that has an account is told to sign in instead.
func TestAcceptingAsAnotherAddressIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("mismatch-owner@example.com")
	other, _ := h.signedUpUser("mismatch-other@example.com")
	h.expect(h.invite(owner, account, "mismatch-invited@example.com", "member"), 201)
	token := h.invitationToken("mismatch-invited@example.com")

	r := h.expect(h.do("POST", "/v1/invitations/"+token+"/accept", nil, other), 403)
	if r.errorCode() != "invitation_email_mismatch" {
		t.Fatalf("accept as another: %s", r.Raw)
	}
	r = h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("someone-else@example.com", token), ""), 403)
	if r.errorCode() != "invitation_email_mismatch" {
		t.Fatalf("sign-up as another: %s", r.Raw)
	}
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("mismatch-invited@example.com", "x"), ""), 422)
	h.expect(h.do("POST", "/v1/accounts/"+account+"/invitations/x", nil, owner), 404)
	if h.invitationStatus(account, "mismatch-invited@example.com") != "pending" || h.memberID(owner, account, "mismatch-other@example.com") != "" {
		t.Fatal("a refused acceptance changed the team")
	}
	var users int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE email = 'someone-else@example.com'`).Scan(&users)
	if users != 0 {
		t.Fatal("a refused invited sign-up created its user")
	}
	h.expect(h.do("GET", "/v1/invitations/not-a-token", nil, ""), 404)
	h.expect(h.do("POST", "/v1/invitations/"+token+"/accept", nil, ""), 401)
}

// TestExistingUserAcceptsAndSwitchesAccounts: a user with an account of
// their own accepts while signed in; GET /v1/accounts lists both, and
// sign-in opens the account they used last.
func TestExistingUserAcceptsAndSwitchesAccounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, teamAccount := h.signedUpUser("switch-owner@example.com")
	user, own := h.signedUpUser("switch-user@example.com")
	h.expect(h.invite(owner, teamAccount, "switch-user@example.com", "admin"), 201)
	token := h.invitationToken("switch-user@example.com")
	r := h.expect(h.do("POST", "/v1/invitations/"+token+"/accept", nil, user), 200)
	if r.str("account_id") != teamAccount {
		t.Fatalf("accept: %s", r.Raw)
	}
	if h.roleOf(teamAccount, "switch-user@example.com") != "admin" || h.roleOf(own, "switch-user@example.com") != "owner" {
		t.Fatal("roles after accepting")
	}
	lastUsed := func() string {
		var last string
		for _, a := range h.expect(h.do("GET", "/v1/accounts", nil, user), 200).Body["accounts"].([]any) {
			if a := a.(map[string]any); a["last_used"] == true {
				last = a["id"].(string)
			}
		}
		return last
	}
	if n := len(h.expect(h.do("GET", "/v1/accounts", nil, user), 200).Body["accounts"].([]any)); n != 2 {
		t.Fatalf("%d accounts listed, want 2", n)
	}
	signin := func() string {
		return h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "switch-user@example.com", "password": "Secret1!"}, ""), 201).str("account_id")
	}
	if got := signin(); got != teamAccount || lastUsed() != teamAccount {
		t.Fatalf("after accepting, sign-in opens %s, want the joined account", got)
	}
	h.expect(h.do("GET", "/v1/accounts/"+own, nil, user), 200) // switching opens the other
	if got := signin(); got != own || lastUsed() != own {
		t.Fatalf("after switching, sign-in opens %s, want %s", got, own)
	}
}

// TestInvitationExpiresByItsTimer: the workflow reminds once and expires
// the invitation at its expiry (KUDOS_INVITATION_TTL and
// KUDOS_INVITATION_REMINDER shortened): the link is gone and the seat free.
func TestInvitationExpiresByItsTimer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// The reminder goes out Reminder after the mail, only before the
	// expiry: 9 s of room for the workflow's start and first mail under
	// load (with 2 s, a busy clean run skipped the reminder).
	h.srv.Config.Invitation = kudos.InvitationTiming{TTL: 12 * time.Second, Reminder: 3 * time.Second}
	h = h.withTemporal(time.Hour)
	owner, account := h.signedUpUser("expiry-owner@example.com")
	inv := h.expect(h.invite(owner, account, "expiry-invited@example.com", "member"), 201)
	token := h.invitationToken("expiry-invited@example.com")
	h.wantSeats(t, owner, account, 2, 10)
	reminder := h.waitMail("expiry-invited@example.com", kudos.MailTeamInvitationReminder)
	if tokenFrom(reminder.Link) != token {
		t.Fatal("the reminder carries another link than the invitation")
	}
	if res := h.invitationOutcome(inv.str("id")); res.Outcome != workflows.InvitationOutcomeExpired || res.Mails != 2 {
		t.Fatalf("workflow %+v", res)
	}
	if s := h.invitationStatus(account, "expiry-invited@example.com"); s != "expired" {
		t.Fatalf("status %q", s)
	}
	h.expect(h.do("GET", "/v1/invitations/"+token, nil, ""), 404)
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("expiry-invited@example.com", token), ""), 404)
	h.wantSeats(t, owner, account, 1, 10)
	if n := len(h.expect(h.do("GET", "/v1/accounts/"+account+"/invitations", nil, owner), 200).Body["invitations"].([]any)); n != 0 {
		t.Fatalf("%d pending invitations listed after the expiry", n)
	}
	h.recordHistory("invitation:"+inv.str("id"), "", "invitation_expired.json")
}

// TestRevokedAndResentInvitations: a revoked invitation's link stops
// working at once and its workflow ends; a resent one gets a new link (the
// old one stops working), a new expiry, and can be accepted.
func TestRevokedAndResentInvitations(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("revoke-owner@example.com")
	base := "/v1/accounts/" + account + "/invitations/"

	revoked := h.expect(h.invite(owner, account, "revoked@example.com", "member"), 201)
	token := h.invitationToken("revoked@example.com")
	h.expect(h.do("DELETE", base+revoked.str("id"), nil, owner), 204)
	h.expect(h.do("GET", "/v1/invitations/"+token, nil, ""), 404)
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("revoked@example.com", token), ""), 404)
	h.expect(h.do("DELETE", base+revoked.str("id"), nil, owner), 404)
	h.expect(h.do("POST", base+revoked.str("id")+"/resend", nil, owner), 404)
	if res := h.invitationOutcome(revoked.str("id")); res.Outcome != workflows.InvitationOutcomeRevoked {
		t.Fatalf("revoked workflow %+v", res)
	}
	h.recordHistory("invitation:"+revoked.str("id"), "", "invitation_revoked.json")

	resent := h.expect(h.invite(owner, account, "resent@example.com", "admin"), 201)
	old := h.invitationToken("resent@example.com")
	again := h.expect(h.do("POST", base+resent.str("id")+"/resend", nil, owner), 200)
	if again.str("expires_at") < resent.str("expires_at") {
		t.Fatalf("resend did not renew the expiry: %s then %s", resent.str("expires_at"), again.str("expires_at"))
	}
	eventually(t, "the resent mail", func() bool { return h.mailsOf("resent@example.com", kudos.MailTeamInvitation) == 2 })
	fresh := h.invitationToken("resent@example.com")
	if fresh == old {
		t.Fatal("the resent mail carries the old link")
	}
	h.expect(h.do("GET", "/v1/invitations/"+old, nil, ""), 404)
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody("resent@example.com", fresh), ""), 201)
	if h.roleOf(account, "resent@example.com") != "admin" {
		t.Fatal("the resent invitation did not make an admin")
	}
	if res := h.invitationOutcome(resent.str("id")); res.Outcome != workflows.InvitationOutcomeAccepted || res.Mails != 2 {
		t.Fatalf("resent workflow %+v", res)
	}
	h.recordHistory("invitation:"+resent.str("id"), "", "invitation_resent_accepted.json")
	if got := h.teamEvents(account); !slices.Equal(got, []string{"member_invited", "invitation_revoked", "member_invited", "member_joined"}) {
		t.Fatalf("timeline %v", got)
	}
}

// TestSeatsHoldUnderRaces: with one seat free, invitations sent at once
// take it once; and when the limit has dropped under the team (a plan
// that allows 2 with the owner and two pending invitations), two
// acceptances at once add one member, never two.
func TestSeatsHoldUnderRaces(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("race-owner@example.com")
	for i := range 8 {
		h.expect(h.invite(owner, account, "race-"+string(rune('a'+i))+"@example.com", "member"), 201)
	}
	h.wantSeats(t, owner, account, 9, 10)
	var wg sync.WaitGroup
	statuses := make([]int, 6)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.invite(owner, account, "race-last-"+string(rune('a'+i))+"@example.com", "member").Status
		}()
	}
	wg.Wait()
	slices.Sort(statuses)
	if !slices.Equal(statuses, []int{201, 409, 409, 409, 409, 409}) {
		t.Fatalf("concurrent invitations for the last seat: %v", statuses)
	}
	full := h.expect(h.invite(owner, account, "race-over@example.com", "member"), 409)
	if full.errorCode() != "seat_limit" {
		t.Fatalf("full team: %s", full.Raw)
	}
	h.wantSeats(t, owner, account, 10, 10)

	// The account now allows two users (as a plan that changed under the
	// team would leave it): one acceptance fits, a second does not.
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE subscriptions SET plan = 'PRO', show_status = 'active' WHERE account_id = $1`, account); err != nil {
		t.Fatal(err)
	}
	tokens := []string{h.invitationToken("race-a@example.com"), h.invitationToken("race-b@example.com")}
	emails := []string{"race-a@example.com", "race-b@example.com"}
	results := make([]response, 2)
	for i := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = h.do("POST", "/v1/auth/signup", invitedSignupBody(emails[i], tokens[i]), "")
		}()
	}
	wg.Wait()
	got := []int{results[0].Status, results[1].Status}
	slices.Sort(got)
	if !slices.Equal(got, []int{201, 409}) {
		t.Fatalf("concurrent acceptances over the limit: %v (%s / %s)", got, results[0].Raw, results[1].Raw)
	}
	for _, r := range results {
		if r.Status == 409 && r.errorCode() != "seat_limit" {
			t.Fatalf("refused acceptance: %s", r.Raw)
		}
	}
	var members int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM memberships WHERE account_id = $1`, account).Scan(&members)
	if members != 2 {
		t.Fatalf("%d members on a plan that allows 2", members)
	}
	// Over the limit, a resend is refused too; nobody was removed.
	pending := h.expect(h.do("GET", "/v1/accounts/"+account+"/invitations", nil, owner), 200).Body["invitations"].([]any)
	id := pending[0].(map[string]any)["id"].(string)
	if r := h.expect(h.do("POST", "/v1/accounts/"+account+"/invitations/"+id+"/resend", nil, owner), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("resend over the limit: %s", r.Raw)
	}
}

// googleInvited runs a Google sign-up started on an invitation's accept
// page (invitation_token), for a Google identity of email, verified or not.
func (h *harness) googleInvited(token, subject, email string, verified bool) response {
	h.t.Helper()
	h.oidc.QueueIdentity(subject, email, verified)
	start := h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true,
		"root_domain": "http://127.0.0.1:8080", "invitation_token": token}, ""), 201)
	return h.do("PUT", callbackPath(authorize(h.t, start.str("auth_url"))), nil, "")
}

// TestGoogleSignupFromAnInvitation: a Google sign-up started from the
// accept page joins the inviting account when Google vouches for the
// invited address; an unverified address or another one joins nothing and
// creates no user.
func TestGoogleSignupFromAnInvitation(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("google-team-owner@example.com")
	h.expect(h.invite(owner, account, "google-invited@example.com", "admin"), 201)
	token := h.invitationToken("google-invited@example.com")

	if r := h.expect(h.googleInvited(token, "g-unverified", "google-invited@example.com", false), 403); r.errorCode() != "email_not_verified" {
		t.Fatalf("unverified: %s", r.Raw)
	}
	if r := h.expect(h.googleInvited(token, "g-other", "google-other@example.com", true), 403); r.errorCode() != "invitation_email_mismatch" {
		t.Fatalf("another address: %s", r.Raw)
	}
	var users int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE email IN ('google-invited@example.com', 'google-other@example.com')`).Scan(&users)
	if users != 0 || h.invitationStatus(account, "google-invited@example.com") != "pending" {
		t.Fatal("a refused Google sign-up created a user or used the invitation")
	}
	h.expect(h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true, "invitation_token": "short"}, ""), 422)

	cb := h.expect(h.googleInvited(token, "g-invited", "Google-Invited@example.com", true), 201)
	if cb.str("account_id") != account || cb.str("scope") != "signup" {
		t.Fatalf("callback: %s", cb.Raw)
	}
	read := h.expect(h.do("GET", "/v1/accounts/"+account, nil, cb.str("token")), 200)
	if u := read.Body["user"].(map[string]any); u["activated"] != true || u["social_login"] != true {
		t.Fatalf("the Google member: %v", u)
	}
	if h.roleOf(account, "google-invited@example.com") != "admin" || h.mailsOf("google-invited@example.com", kudos.MailActivation) != 0 {
		t.Fatal("the Google sign-up did not join as invited")
	}
}
