package api_test

import (
	"context"
	"slices"
	"testing"

	"kudos"
)

// invite has token's holder invite email to account with role.
func (h *harness) invite(token, account, email, role string) response {
	h.t.Helper()
	return h.do("POST", "/v1/accounts/"+account+"/invitations", map[string]any{"email": email, "role": role}, token)
}

// invitationToken waits for the newest invitation mail to email (queued by
// the invitation's workflow) and returns the token of its link.
func (h *harness) invitationToken(email string) string {
	h.t.Helper()
	return tokenFrom(h.waitMail(email, kudos.MailTeamInvitation).Link)
}

// waitMail waits until a mail of purpose to email is queued (and, a billing
// mail in a harness whose worker runs, delivered) and returns the newest.
func (h *harness) waitMail(email string, purpose kudos.MailPurpose) kudos.MailRequest {
	h.t.Helper()
	eventually(h.t, string(purpose)+" mail to "+email, func() bool { return h.mailsOf(email, purpose) > 0 })
	if h.tc != nil && purpose.IsBilling() {
		// Queued is not sent: a billing mail is dropped when it is no
		// longer true as it goes out (BillingMailCurrent), so the worker's
		// delivery is waited for too.
		eventually(h.t, string(purpose)+" mail to "+email+" delivered", func() bool { return slices.Contains(h.sent.purposes(email), purpose) })
	}
	return h.lastMailOf(email, purpose)
}

// mailsOf counts the mails of purpose queued to email.
func (h *harness) mailsOf(email string, purpose kudos.MailPurpose) int {
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'mail' AND payload->>'to' = $1
		AND payload->>'purpose' = $2`, email, string(purpose)).Scan(&n)
	return n
}

// invitedSignupBody is a sign-up from an invitation's link.
func invitedSignupBody(email, token string) map[string]any {
	b := signupBody(email)
	b["invitation_token"] = token
	return b
}

// join has token's holder invite email to account with role, and the
// invitee sign up from the mail's link; it returns the new member's
// session token and user id.
func (h *harness) join(token, account, email, role string) (memberToken, userID string) {
	h.t.Helper()
	h.expect(h.invite(token, account, email, role), 201)
	r := h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody(email, h.invitationToken(email)), ""), 201)
	if r.str("account_id") != account {
		h.t.Fatalf("the invited sign-up opens account %s, want %s", r.str("account_id"), account)
	}
	return r.str("token"), h.memberID(token, account, email)
}

// members reads the account's members list.
func (h *harness) members(token, account string) response {
	h.t.Helper()
	return h.expect(h.do("GET", "/v1/accounts/"+account+"/members", nil, token), 200)
}

// memberID is the user id of the member with email ("" when none).
func (h *harness) memberID(token, account, email string) string {
	h.t.Helper()
	for _, m := range h.members(token, account).Body["members"].([]any) {
		if m := m.(map[string]any); m["email"] == email {
			return m["user_id"].(string)
		}
	}
	return ""
}

// roleOf is the role of the member with email ("" when none), as Postgres
// has it.
func (h *harness) roleOf(account, email string) string {
	var role string
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.account_id = $1 AND u.email = $2`, account, email).Scan(&role)
	return role
}

// seats reads the account's seats from the members list.
func (h *harness) seats(token, account string) (used, limit int) {
	h.t.Helper()
	s := h.members(token, account).Body["seats"].(map[string]any)
	return int(s["used"].(float64)), int(s["limit"].(float64))
}

// wantSeats fails unless the account uses used of limit seats.
func (h *harness) wantSeats(t *testing.T, token, account string, used, limit int) {
	t.Helper()
	if u, l := h.seats(token, account); u != used || l != limit {
		t.Fatalf("seats %d of %d, want %d of %d", u, l, used, limit)
	}
}

// invitationStatus is the status Postgres has for the invitation to email.
func (h *harness) invitationStatus(account, email string) string {
	var s string
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT status FROM invitations WHERE account_id = $1 AND email = $2
		ORDER BY created_at DESC LIMIT 1`, account, email).Scan(&s)
	return s
}

// teamEvents are the types of the account's membership events, oldest
// first.
func (h *harness) teamEvents(account string) []string {
	rows, err := h.db.Pool.Query(context.Background(), `SELECT type FROM billing_events WHERE account_id = $1
		AND type IN ('member_invited', 'invitation_revoked', 'member_joined', 'member_role_changed', 'member_removed',
		'member_left', 'ownership_transferred') ORDER BY at, seq`, account)
	if err != nil {
		h.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		out = append(out, s)
	}
	return out
}
