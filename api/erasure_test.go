package api_test

import (
	"context"
	"testing"
	"time"

	"kudos/workflows"
)

// userCount counts the users with id (0 once erased).
func (h *harness) userCount(id string) int {
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE id = $1`, id).Scan(&n)
	return n
}

// ownedAccounts counts the accounts the user owns.
func (h *harness) ownedAccounts(id string) int {
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM memberships WHERE user_id = $1 AND role = 'owner'`, id).Scan(&n)
	return n
}

// leavingAlone signs up email, deletes the account it got (grace 2s) and
// waits for its erasure, then schedules the user's own deletion with the
// given grace: the user belongs to no account and is being deleted.
func (h *harness) leavingAlone(email string, grace time.Duration) (token, userID string) {
	h.t.Helper()
	token, account := h.signedUpUser(email)
	userID = h.userID(email).String()
	h.srv.Config.DeletionGrace = 2 * time.Second
	at := h.scheduleDeletion(token, account)
	h.srv.Config.DeletionGrace = grace
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, token), 202)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		h.t.Fatalf("account deletion %+v", res)
	}
	return token, userID
}

// TestSigningInDuringTheGraceCreatesNoAccount (issue 35 item 8): a user who
// deleted their account, then themself, signs in during their grace: the
// sign-in (password or Google) works but opens no account (account_id ""; no "My account" is
// created that would block the erasure), GET /v1/users/me/deletion says when
// they go, and the erasure happens on time. A user who cancels instead
// (re-authenticated) gets an account of their own, as before.
func TestSigningInDuringTheGraceCreatesNoAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const leaving = "alone-leaving@example.com"
	_, userID := h.leavingAlone(leaving, 8*time.Second)
	in := h.expect(h.passwordSignin(leaving), 201)
	if got := in.Body["account_id"]; got != "" {
		t.Fatalf("a sign-in during the grace opened account %v", got)
	}
	if got := h.expect(h.googleCallback("signin", "google-alone-leaving", leaving), 201).Body["account_id"]; got != "" {
		t.Fatalf("a Google sign-in during the grace opened account %v", got)
	}
	if n := h.ownedAccounts(userID); n != 0 {
		t.Fatalf("a sign-in during the grace created %d accounts", n)
	}
	d := h.expect(h.do("GET", "/v1/users/me/deletion", nil, in.str("token")), 200)
	if d.Body["deletion_at"] == nil || d.Body["blocked_by"] != nil {
		t.Fatalf("the user's deletion: %s", d.Raw)
	}
	eventuallyWithin(t, time.Minute, "the user to be erased", func() bool { return h.userCount(userID) == 0 })

	const staying = "alone-staying@example.com"
	_, stayingID := h.leavingAlone(staying, time.Hour)
	session := h.expect(h.passwordSignin(staying), 201).str("token")
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{}, session), 422)
	cancelled := h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, session), 200)
	account := cancelled.str("account_id")
	if account == "" || h.ownedAccounts(stayingID) != 1 {
		t.Fatalf("after the cancel: %s", cancelled.Raw)
	}
	if role := h.expect(h.do("GET", "/v1/accounts/"+account, nil, session), 200).Body["account"].(map[string]any)["role"]; role != "owner" {
		t.Fatalf("role %v in the new account", role)
	}
	if got := h.expect(h.passwordSignin(staying), 201).Body["account_id"]; got != account {
		t.Fatalf("sign-in after the cancel opened %v, want %s", got, account)
	}
}

// TestNothingButACancelBlocksTheErasure (issue 35 item 8): an owner who
// scheduled the deletion of their account and of themself cannot cancel the
// account's deletion while their own stands (409: the account would block
// their erasure); once they cancel their own, they can.
func TestNothingButACancelBlocksTheErasure(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.srv.Config.DeletionGrace = time.Hour
	token, account := h.signedUpUser("both-leaving@example.com")
	h.scheduleDeletion(token, account)
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, token), 202)
	pw := map[string]any{"current_password": "Secret1!"}
	h.expect(h.do("POST", "/v1/accounts/"+account+"/deletion/cancel", pw, token), 409)
	if d := h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200).Body["account"].(map[string]any)["deletion_at"]; d == nil {
		t.Fatal("a refused cancel cancelled the account's deletion")
	}
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", pw, token), 200)
	h.expect(h.do("POST", "/v1/accounts/"+account+"/deletion/cancel", pw, token), 200)
}

// TestABlockedErasureSaysSo (issue 35 item 8): a user whose deletion waits
// because they own an account (one made theirs before these rules) is told
// which, by the account read and GET /v1/users/me/deletion.
func TestABlockedErasureSaysSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.srv.Config.DeletionGrace = time.Hour
	owner, account := h.signedUpUser("blocked-owner@example.com")
	member, memberID := h.join(owner, account, "blocked-heir@example.com", "member")
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202)
	// As an ownership taken before TestNoOwnershipToAMemberBeingDeleted's rule.
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE memberships SET role = CASE WHEN user_id = $2 THEN 'owner' ELSE 'admin' END
		WHERE account_id = $1`, account, memberID); err != nil {
		t.Fatal(err)
	}
	name := h.expect(h.do("GET", "/v1/accounts/"+account, nil, owner), 200).Body["account"].(map[string]any)["name"]
	if got := h.expect(h.do("GET", "/v1/users/me/deletion", nil, member), 200).Body["blocked_by"]; got != name {
		t.Fatalf("blocked_by %v", got)
	}
	if got := h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200).Body["user"].(map[string]any)["deletion_blocked_by"]; got != name {
		t.Fatalf("account read deletion_blocked_by %v", got)
	}
}

// TestCancellingADeletionReauthenticates (issue 35 item 7): cancelling the
// account's deletion or one's own needs the password like scheduling it
// (422 without or with a wrong one). The account's cancel may turn back on
// the auto-renewal the schedule stopped (auto_renewal: true); the account
// read says it was on (deletion_stopped_renewal) so the dialog offers it.
func TestCancellingADeletionReauthenticates(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(time.Hour)
	token, account := h.paidWith("renewing-owner@example.com", "PRO", "4242424242424242")
	base := "/v1/accounts/" + account
	h.scheduleDeletion(token, account)
	eventually(t, "auto-renewal to stop", func() bool { return h.subscription(token, account)["start_next_period"] == false })
	if got := h.expect(h.do("GET", base, nil, token), 200).Body["account"].(map[string]any)["deletion_stopped_renewal"]; got != true {
		t.Fatalf("deletion_stopped_renewal %v", got)
	}
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{}, token), 422)
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Wrong1!x"}, token), 422)
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!", "auto_renewal": true}, token), 200)
	eventually(t, "auto-renewal back on", func() bool { return h.subscription(token, account)["start_next_period"] == true })

	member, _ := h.join(token, account, "renewing-member@example.com", "member")
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202)
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{}, member), 422)
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Wrong1!x"}, member), 422)
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, member), 200)
}
