package api_test

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"kudos"
)

// invitationMailTried waits until the workflow of invitation id has run its
// first mail activity (queued the mail, or found it was not to be sent).
func (h *harness) invitationMailTried(id string) {
	h.t.Helper()
	eventually(h.t, "the mail of invitation "+id, func() bool {
		it := h.tc.GetWorkflowHistory(context.Background(), "invitation:"+id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return false
			}
			if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED {
				return true
			}
		}
		return false
	})
}

// TestInvitationMailsAreLimitedByRecipient: inviting one address and
// revoking the invitation in a loop, from one account or several, mails
// that address no more than its limit of invitation mails (5 an hour); the
// invitations beyond are answered and listed exactly as the others (the
// inviter learns nothing of the address), their mail is dropped. A revoke
// counts against the account's invitation budget (20 an hour, invites and
// resends) but is never refused. Another address is mailed as before.
func TestInvitationMailsAreLimitedByRecipient(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("bomber@example.com")
	other, otherAccount := h.signedUpUser("bomber-2@example.com")
	victim := "inbox@example.com"
	base := "/v1/accounts/" + account + "/invitations/"
	for i := range 10 {
		inv := h.expect(h.invite(owner, account, victim, "member"), 201)
		if inv.str("email") != victim || inv.str("id") == "" || inv.str("expires_at") == "" {
			t.Fatalf("invitation %d answered %s", i, inv.Raw)
		}
		h.invitationMailTried(inv.str("id"))
		h.expect(h.do("DELETE", base+inv.str("id"), nil, owner), 204)
	}
	if n := h.mailsOf(victim, kudos.MailTeamInvitation); n != 5 {
		t.Errorf("ten invitations to one address in an hour mailed it %d times, want its limit of 5", n)
	}
	// Ten invites and ten revokes spent the account's budget of 20.
	if r := h.expect(h.invite(owner, account, "someone@example.com", "member"), 429); r.errorCode() != kudos.ERateLimited {
		t.Fatalf("the 11th invite after 10 revokes: %s", r.Raw)
	}
	// Another account inviting the same address: answered the same,
	// not mailed; resent, not mailed either.
	inv := h.expect(h.invite(other, otherAccount, victim, "member"), 201)
	h.invitationMailTried(inv.str("id"))
	h.expect(h.do("POST", "/v1/accounts/"+otherAccount+"/invitations/"+inv.str("id")+"/resend", nil, other), 200)
	fresh := h.expect(h.invite(other, otherAccount, "fresh@example.com", "member"), 201)
	h.invitationMailTried(fresh.str("id"))
	h.waitMail("fresh@example.com", kudos.MailTeamInvitation)
	time.Sleep(2 * time.Second) // the resend's mail, were it sent
	if n := h.mailsOf(victim, kudos.MailTeamInvitation); n != 5 {
		t.Fatalf("%d invitation mails to one address in an hour, want its limit of 5", n)
	}
	list := h.expect(h.do("GET", "/v1/accounts/"+otherAccount+"/invitations", nil, other), 200).Body["invitations"].([]any)
	if len(list) != 2 {
		t.Fatalf("invitations listed %v", list)
	}
}
