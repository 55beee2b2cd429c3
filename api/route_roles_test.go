package api_test

import (
	"slices"
	"strings"
	"testing"

	"kudos"
	"kudos/api"
)

// TestRouteRoles is the role matrix (issue 26): every account route has a
// role in api/routeRoles, and for each, an admin and a member of the
// account are refused (403 forbidden, nothing changed) exactly when their
// role is below it, and pass the role check otherwise. The owner passes
// every check (TestRouteGuards covers non-members and signed-out callers).
func TestRouteRoles(t *testing.T) {
	t.Parallel()
	h := guardedHarness(t)
	owner, account := h.signedUpUser("matrix-owner@example.com")
	admin, _ := h.join(owner, account, "matrix-admin@example.com", "admin")
	member, memberID := h.join(owner, account, "matrix-member@example.com", "member")
	tokens := map[kudos.Role]string{kudos.RoleOwner: owner, kudos.RoleAdmin: admin, kudos.RoleMember: member}
	values := map[string]string{"accountId": account, "invoiceId": "00000000-0000-4000-8000-000000000000", "userId": memberID,
		"invitationId": "00000000-0000-4000-8000-000000000000", "sessionId": "00000000-0000-4000-8000-000000000000"}

	type call struct {
		r    route
		role kudos.Role
		need kudos.Role
	}
	var refused, allowed []call
	for _, r := range servedRoutes(h.app) {
		if !isAccountRoute(r) || isPublic(r) {
			continue
		}
		need, ok := api.RouteRole(r.Method, r.Path)
		if !ok {
			if r.String() != "GET /v1/accounts/:accountId" { // the account read: every member, checked in its one query
				t.Errorf("%s has no role in routeRoles: it is refused to everyone", r)
			}
			continue
		}
		for _, role := range []kudos.Role{kudos.RoleOwner, kudos.RoleAdmin, kudos.RoleMember} {
			if role.AtLeast(need) {
				allowed = append(allowed, call{r, role, need})
			} else {
				refused = append(refused, call{r, role, need})
			}
		}
	}
	if len(refused) < 20 {
		t.Fatalf("only %d refusals in the matrix: is the route enumeration broken?", len(refused))
	}
	query := h.snapshotSQL()
	before := h.settle(t, query)
	for _, c := range refused {
		got := h.do(c.r.Method, fillPath(c.r.Path, values), validBody(c.r), tokens[c.role])
		if got.Status != 403 || got.errorCode() != "forbidden" {
			t.Errorf("%s as %s (needs %s): %d %s, want 403 forbidden", c.r, c.role, c.need, got.Status, got.Raw)
		}
	}
	if changed := changedTables(before, h.snapshot(t, query)); len(changed) > 0 {
		t.Errorf("refused requests changed tables %v", changed)
	}
	// Allowed calls may succeed or be refused for their body or state, but
	// never for the role. The calls that end sessions or memberships go
	// last, so that the ones before run with live sessions.
	last := func(c call) bool {
		return c.r.Method == "DELETE" && (strings.HasSuffix(c.r.Path, "/sessions") || strings.HasSuffix(c.r.Path, "/members/:userId"))
	}
	slices.SortStableFunc(allowed, func(a, b call) int {
		switch {
		case last(a) == last(b):
			return 0
		case last(a):
			return 1
		}
		return -1
	})
	for _, c := range allowed {
		got := h.do(c.r.Method, fillPath(c.r.Path, values), validBody(c.r), tokens[c.role])
		if got.Status == 401 || got.Status == 403 && got.errorCode() == "forbidden" {
			t.Errorf("%s as %s (needs %s): refused: %d %s", c.r, c.role, c.need, got.Status, got.Raw)
		}
	}
}
