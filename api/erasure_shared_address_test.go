package api_test

import (
	"context"
	"testing"
	"time"

	"kudos"
)

// memberWhoMoved is a harness whose user deletions are due 3 seconds on,
// with an account paid for plan by its owner (ownerEmail), which a member
// joined under the address before, then changed it to after.
func memberWhoMoved(t *testing.T, plan, ownerEmail, before, after string) (h *harness, owner, account, member, memberID string) {
	t.Helper()
	h = withDeletionGrace(t, 3*time.Second)
	owner, account = h.paidWith(ownerEmail, plan, "4242424242424242")
	member, memberID = h.join(owner, account, before, "member")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", changeEmailBody(after), member), 200)
	h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMail(after).Link)), ""), 200)
	return h, owner, account, member, memberID
}

// TestErasingAUserKeepsTheNextHolderOfTheirFormerAddress: a member changed
// their address; another user then signed up with the address they left
// and joined the same team. Erasing the first blanked the address wherever
// it appeared, in every account: the second's "invited" and "joined"
// events and accepted invitation lost it too. Only the rows written while
// the address was the erased user's are theirs to erase.
func TestErasingAUserKeepsTheNextHolderOfTheirFormerAddress(t *testing.T) {
	t.Parallel()
	const shared, moved = "shared-address@example.com", "shared-address-moved@example.com"
	h, owner, account, first, firstID := memberWhoMoved(t, "TEAM", "shared-address-owner@example.com", shared, moved)
	var boundary int64
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT max(seq) FROM billing_events WHERE account_id = $1`, account).Scan(&boundary); err != nil {
		t.Fatal(err)
	}
	// The next holder is invited to the same team under the address.
	sent := h.mailsOf(shared, kudos.MailTeamInvitation)
	h.expect(h.invite(owner, account, shared, "member"), 201)
	eventually(t, "the second invitation mail", func() bool { return h.mailsOf(shared, kudos.MailTeamInvitation) > sent })
	h.expect(h.do("POST", "/v1/auth/signup", invitedSignupBody(shared, h.invitationToken(shared)), ""), 201)
	named := func(cmp string) (n int) {
		t.Helper()
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM billing_events WHERE account_id = $1 AND seq `+cmp+` $2
			AND (member_email = $3 OR actor_email = $3)`, account, boundary, shared).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	theirs, next := named("<="), named(">")
	if theirs == 0 || next == 0 {
		t.Fatalf("%d events name the address before the change, %d after", theirs, next)
	}
	accepted := func() (n int) {
		t.Helper()
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM invitations WHERE account_id = $1 AND email = $2`,
			account, shared).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := accepted(); n != 2 {
		t.Fatalf("%d invitations to the address, want 2", n)
	}
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, first), 202)
	h.userErased(firstID)
	if n := named("<="); n != 0 {
		t.Errorf("%d events of the erased user still name their former address", n)
	}
	if n := named(">"); n != next {
		t.Errorf("%d events of the address's next holder name it after the erasure, want %d", n, next)
	}
	if n := accepted(); n != 1 {
		t.Errorf("%d invitations to the address after the erasure, want 1 (the next holder's)", n)
	}
}
