package api_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"kudos"
)

// TestRemovedMemberLosesAccessAtOnce: a member's live session stops
// opening the account the moment they are removed (the membership is read
// on every request); they keep their own session otherwise, and an account
// of their own is made at their next sign-in.
func TestRemovedMemberLosesAccessAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("remove-owner@example.com")
	admin, adminID := h.join(owner, account, "remove-admin@example.com", "admin")
	member, memberID := h.join(owner, account, "remove-member@example.com", "member")
	base := "/v1/accounts/" + account
	h.expect(h.do("GET", base, nil, member), 200)
	h.expect(h.do("GET", base+"/members", nil, member), 200)

	// A member removes nobody; an admin removes a member, never the owner.
	ownerID := h.memberID(owner, account, "remove-owner@example.com")
	h.expect(h.do("DELETE", base+"/members/"+adminID, nil, member), 403)
	h.expect(h.do("DELETE", base+"/members/"+ownerID, nil, admin), 403)
	h.expect(h.do("DELETE", base+"/members/"+memberID, nil, admin), 204)

	for _, r := range []struct{ method, path string }{{"GET", base}, {"GET", base + "/members"}, {"PATCH", base + "/user"},
		{"GET", "/v1/pricing/" + account}} {
		if got := h.do(r.method, r.path, map[string]any{"firstname": "Eve"}, member); got.Status != 404 {
			t.Fatalf("%s %s after removal: %d %s", r.method, r.path, got.Status, got.Raw)
		}
	}
	h.expect(h.do("DELETE", base+"/members/"+memberID, nil, admin), 404)
	h.expect(h.do("GET", "/v1/accounts", nil, member), 200) // their session itself lives on
	h.wantSeats(t, owner, account, 2, 10)
	in := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "remove-member@example.com", "password": "Secret1!"}, ""), 201)
	if in.str("account_id") == account || in.str("account_id") == "" {
		t.Fatalf("the removed member's sign-in opens %q", in.str("account_id"))
	}
	if r := h.roleOf(in.str("account_id"), "remove-member@example.com"); r != "owner" {
		t.Fatalf("the removed member's own account: role %q", r)
	}

	// Leaving: an admin may, the owner may not.
	h.expect(h.do("DELETE", base+"/members/"+ownerID, nil, owner), 409)
	h.expect(h.do("DELETE", base+"/members/"+adminID, nil, admin), 204)
	h.expect(h.do("GET", base, nil, admin), 404)
	if got := h.teamEvents(account); !slices.Equal(got, []string{"member_invited", "member_joined", "member_invited", "member_joined",
		"member_removed", "member_left"}) {
		t.Fatalf("timeline %v", got)
	}
}

// TestRolesChangeByTheRules: owners and admins make others admins or
// members; nobody changes the owner's role or their own, and the owner's
// role is never given this way.
func TestRolesChangeByTheRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("roles-owner@example.com")
	admin, adminID := h.join(owner, account, "roles-admin@example.com", "admin")
	member, memberID := h.join(owner, account, "roles-member@example.com", "member")
	ownerID := h.memberID(owner, account, "roles-owner@example.com")
	path := func(id string) string { return "/v1/accounts/" + account + "/members/" + id }

	h.expect(h.do("PATCH", path(adminID), map[string]any{"role": "member"}, member), 403)
	h.expect(h.do("PATCH", path(ownerID), map[string]any{"role": "member"}, admin), 403)
	h.expect(h.do("PATCH", path(adminID), map[string]any{"role": "member"}, admin), 403) // not oneself
	h.expect(h.do("PATCH", path(memberID), map[string]any{"role": "owner"}, owner), 422)
	h.expect(h.do("PATCH", path(memberID), map[string]any{"role": "boss"}, owner), 422)
	h.expect(h.do("PATCH", path("00000000-0000-4000-8000-000000000000"), map[string]any{"role": "admin"}, owner), 404)
	h.expect(h.do("PATCH", path(memberID), map[string]any{"role": "admin"}, admin), 200)
	if h.roleOf(account, "roles-member@example.com") != "admin" {
		t.Fatal("the role did not change")
	}
	// The promoted member may now invite; demoted, they may not.
	h.expect(h.invite(member, account, "roles-new@example.com", "member"), 201)
	h.expect(h.do("PATCH", path(memberID), map[string]any{"role": "member"}, owner), 200)
	h.expect(h.invite(member, account, "roles-other@example.com", "member"), 403)
	// The invitation they sent as an admin ends with the right (issue 35).
	if got := h.teamEvents(account); len(got) != 8 || got[6] != "member_role_changed" || got[7] != "invitation_revoked" {
		t.Fatalf("timeline %v", got)
	}
	if s := h.invitationStatus(account, "roles-new@example.com"); s != "revoked" {
		t.Fatalf("the demoted admin's invitation is %q, want revoked", s)
	}
}

// TestOwnershipTransfer: the owner hands the account to a member after
// giving their password; the old owner becomes an admin (no billing any
// more), the new one owns billing; both are mailed; the timeline says so.
func TestOwnershipTransfer(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("transfer-owner@example.com")
	heir, heirID := h.join(owner, account, "transfer-heir@example.com", "member")
	base := "/v1/accounts/" + account
	body := func(user, password string) map[string]any {
		return map[string]any{"user_id": user, "current_password": password}
	}
	h.expect(h.do("GET", base+"/billing", nil, heir), 403)
	if r := h.expect(h.do("POST", base+"/transfer-ownership", body(heirID, "Wrong1!x"), owner), 422); r.field("current_password") == "" {
		t.Fatalf("wrong password: %s", r.Raw)
	}
	h.expect(h.do("POST", base+"/transfer-ownership", map[string]any{"user_id": heirID}, owner), 422)
	h.expect(h.do("POST", base+"/transfer-ownership", body("00000000-0000-4000-8000-000000000000", "Secret1!"), owner), 422)
	h.expect(h.do("POST", base+"/transfer-ownership", body("nope", "Secret1!"), owner), 422)
	h.expect(h.do("POST", base+"/transfer-ownership", body(heirID, "Secret1!"), heir), 403)
	if h.roleOf(account, "transfer-heir@example.com") != "member" {
		t.Fatal("a refused transfer changed a role")
	}

	h.expect(h.do("POST", base+"/transfer-ownership", body(heirID, "Secret1!"), owner), 200)
	if h.roleOf(account, "transfer-owner@example.com") != "admin" || h.roleOf(account, "transfer-heir@example.com") != "owner" {
		t.Fatal("roles after the transfer")
	}
	h.expect(h.do("GET", base+"/billing", nil, owner), 403)
	h.expect(h.do("GET", base+"/billing", nil, heir), 200)
	h.expect(h.do("POST", base+"/transfer-ownership", body(heirID, "Secret1!"), owner), 403)
	h.waitMail("transfer-owner@example.com", kudos.MailOwnershipTransferred)
	received := h.waitMail("transfer-heir@example.com", kudos.MailOwnershipReceived)
	if !strings.HasSuffix(received.Link, "/dashboard/"+account+"/account-settings/plan") {
		t.Fatalf("ownership_received link %q", received.Link)
	}
	if got := h.teamEvents(account); got[len(got)-1] != "ownership_transferred" {
		t.Fatalf("timeline %v", got)
	}
	// The old owner, now an admin, may leave; the new one may not.
	oldID := h.memberID(heir, account, "transfer-owner@example.com")
	h.expect(h.do("DELETE", base+"/members/"+heirID, nil, heir), 409)
	h.expect(h.do("DELETE", base+"/members/"+oldID, nil, owner), 204)
}

// TestPlanTooSmallForTheTeamIsRefused: buying a plan that allows fewer
// users than the seats used (members and pending invitations) is 409
// seat_limit "remove N members first", before any checkout opens; a plan
// that fits opens its checkout.
func TestPlanTooSmallForTheTeamIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("fit-owner@example.com")
	h.join(owner, account, "fit-member@example.com", "member")
	h.expect(h.invite(owner, account, "fit-pending@example.com", "member"), 201)
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), owner), 200)
	for plan, want := range map[string]string{"STARTER": "remove 2 members first", "PRO": "remove 1 member first"} {
		r := h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": plan}, owner), 409)
		if r.errorCode() != "seat_limit" || !strings.HasPrefix(r.Body["error"].(map[string]any)["message"].(string), want) {
			t.Fatalf("%s for 3 seats: %s", plan, r.Raw)
		}
	}
	if h.invoiceCount(account, "true") != 0 {
		t.Fatal("a refused plan opened a checkout")
	}
	h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM"}, owner), 201)
}

// TestExpiredTrialKeepsTheTeamButTakesNoOne: when the trial expires nobody
// is removed, but new invitations are refused until a plan fits.
func TestExpiredTrialKeepsTheTeamButTakesNoOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.srv.Config.TrialDuration = 4 * time.Second
	owner, account := h.signedUpUser("expired-team@example.com")
	member, _ := h.join(owner, account, "expired-member@example.com", "member")
	eventually(t, "the trial to expire", func() bool { return h.subscription(owner, account)["show_status"] == "trial_expired" })
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200)
	h.wantSeats(t, owner, account, 2, 1)
	if r := h.expect(h.invite(owner, account, "expired-late@example.com", "member"), 409); r.errorCode() != "seat_limit" {
		t.Fatalf("invitation on an expired trial: %s", r.Raw)
	}
}

// TestTimelineShowsTeamEventsByRole: admins see the membership events
// only; members see no timeline; the owner sees everything, or the team's
// part with scope=team.
func TestTimelineShowsTeamEventsByRole(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	owner, account := h.signedUpUser("timeline-owner@example.com")
	admin, _ := h.join(owner, account, "timeline-admin@example.com", "admin")
	member, _ := h.join(owner, account, "timeline-member@example.com", "member")
	path := "/v1/accounts/" + account + "/billing/timeline"
	types := func(r response) []string {
		var out []string
		for _, e := range r.Body["events"].([]any) {
			out = append(out, e.(map[string]any)["type"].(string))
		}
		return out
	}
	team := []string{"member_joined", "member_invited", "member_joined", "member_invited"}
	if got := types(h.expect(h.do("GET", path, nil, admin), 200)); !slices.Equal(got, team) {
		t.Fatalf("admin's timeline %v", got)
	}
	if got := types(h.expect(h.do("GET", path+"?scope=team", nil, owner), 200)); !slices.Equal(got, team) {
		t.Fatalf("owner's team timeline %v", got)
	}
	if got := types(h.expect(h.do("GET", path, nil, owner), 200)); !slices.Contains(got, "trial_started") || len(got) != 5 {
		t.Fatalf("owner's timeline %v", got)
	}
	h.expect(h.do("GET", path, nil, member), 403)
	h.expect(h.do("GET", path+"?scope=money", nil, owner), 422)
	e := h.expect(h.do("GET", path+"?scope=team&limit=1", nil, owner), 200).Body["events"].([]any)[0].(map[string]any)
	if e["member_email"] != "timeline-member@example.com" || e["role"] != "member" {
		t.Fatalf("membership event %v", e)
	}
}
