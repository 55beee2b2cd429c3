package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"kudos"
)

// routeRoles is the role each account route needs (issue 26), by method
// and pattern: the one place that says who may do what. requireMember
// checks it on every request, after membership; a route missing here is
// refused to everyone (404, as an unknown route), so that a new route
// cannot go out unguarded. The owner may do everything; admins run the
// team and the account's settings; members read the account and its plan
// status, and keep their own details. Money (billing, subscription,
// invoices, payment methods, billing address) is the owner's.
var routeRoles = map[string]kudos.Role{
	"GET /v1/pricing/:accountId":                         kudos.RoleMember,
	"PATCH /v1/accounts/:accountId":                      kudos.RoleAdmin,
	"PATCH /v1/accounts/:accountId/user":                 kudos.RoleMember,
	"POST /v1/accounts/:accountId/feature-request":       kudos.RoleMember,
	"GET /v1/accounts/:accountId/sessions":               kudos.RoleMember,
	"DELETE /v1/accounts/:accountId/sessions":            kudos.RoleMember,
	"DELETE /v1/accounts/:accountId/sessions/:sessionId": kudos.RoleMember,

	"POST /v1/accounts/:accountId/upload-logo":   kudos.RoleAdmin,
	"PUT /v1/accounts/:accountId/upload-logo":    kudos.RoleAdmin,
	"DELETE /v1/accounts/:accountId/upload-logo": kudos.RoleAdmin,

	"GET /v1/accounts/:accountId/members": kudos.RoleMember,
	// Anyone may leave; removing someone else needs an admin (the handler
	// tells the two apart).
	"DELETE /v1/accounts/:accountId/members/:userId":                kudos.RoleMember,
	"PATCH /v1/accounts/:accountId/members/:userId":                 kudos.RoleAdmin,
	"GET /v1/accounts/:accountId/invitations":                       kudos.RoleAdmin,
	"POST /v1/accounts/:accountId/invitations":                      kudos.RoleAdmin,
	"POST /v1/accounts/:accountId/invitations/:invitationId/resend": kudos.RoleAdmin,
	"DELETE /v1/accounts/:accountId/invitations/:invitationId":      kudos.RoleAdmin,
	"POST /v1/accounts/:accountId/transfer-ownership":               kudos.RoleOwner,
	// Admins see the membership events of the timeline only.
	"GET /v1/accounts/:accountId/billing/timeline": kudos.RoleAdmin,

	"PATCH /v1/accounts/:accountId/billing-address":                kudos.RoleOwner,
	"POST /v1/accounts/:accountId/subscription":                    kudos.RoleOwner,
	"PATCH /v1/accounts/:accountId/subscription":                   kudos.RoleOwner,
	"DELETE /v1/accounts/:accountId/subscription":                  kudos.RoleOwner,
	"POST /v1/accounts/:accountId/subscription/restart":            kudos.RoleOwner,
	"DELETE /v1/accounts/:accountId/subscription/checkout":         kudos.RoleOwner,
	"DELETE /v1/accounts/:accountId/subscription/scheduled-change": kudos.RoleOwner,
	"PATCH /v1/accounts/:accountId/subscription/seats":             kudos.RoleOwner,
	"GET /v1/accounts/:accountId/invoices/latest-unpaid":           kudos.RoleOwner,
	"POST /v1/accounts/:accountId/invoices/:invoiceId/payment":     kudos.RoleOwner,
	"POST /v1/accounts/:accountId/invoices/:invoiceId/download":    kudos.RoleOwner,
	"GET /v1/accounts/:accountId/billing":                          kudos.RoleOwner,
	"POST /v1/accounts/:accountId/billing/payment-methods":         kudos.RoleOwner,
	"DELETE /v1/accounts/:accountId/billing/payment-methods":       kudos.RoleOwner,
	// An account's data export holds its billing and every member's
	// address: the owner's.
	"POST /v1/accounts/:accountId/export": kudos.RoleOwner,
	// Deleting the account, and changing one's mind, are the owner's.
	"DELETE /v1/accounts/:accountId":               kudos.RoleOwner,
	"POST /v1/accounts/:accountId/deletion/cancel": kudos.RoleOwner,
}

// RouteRole returns the role a request to an account route needs, by
// method and pattern ("GET /v1/accounts/:accountId/members"); false when
// the route is not in the table (refused to everyone). Tests enumerate
// the served routes through it.
func RouteRole(method, pattern string) (kudos.Role, bool) {
	r, ok := routeRoles[method+" "+pattern]
	return r, ok
}

// rolePattern is one entry of routeRoles, split for matching paths.
type rolePattern struct {
	method string
	segs   []string
	role   kudos.Role
}

// rolePatterns are the entries of routeRoles, split once.
var rolePatterns = func() []rolePattern {
	out := make([]rolePattern, 0, len(routeRoles))
	for k, role := range routeRoles {
		method, pattern, _ := strings.Cut(k, " ")
		out = append(out, rolePattern{method: method, segs: strings.Split(pattern, "/"), role: role})
	}
	return out
}()

// neededRole finds the role a request needs from its method and path (a
// HEAD asks what its GET does); false for a path no entry matches.
func neededRole(method, path string) (kudos.Role, bool) {
	if method == fiber.MethodHead {
		method = fiber.MethodGet
	}
	segs := strings.Split(strings.TrimRight(path, "/"), "/")
	for _, p := range rolePatterns {
		if p.method == method && matchSegments(p.segs, segs) {
			return p.role, true
		}
	}
	return "", false
}

// matchSegments reports whether a path's segments fit a pattern's, a
// ":name" segment standing for any one non-empty segment.
func matchSegments(pattern, path []string) bool {
	if len(pattern) != len(path) {
		return false
	}
	for i, p := range pattern {
		if strings.HasPrefix(p, ":") {
			if path[i] == "" {
				return false
			}
		} else if p != path[i] {
			return false
		}
	}
	return true
}

const localRole = "role"

// checkRole refuses (403) a member whose role is below what the request
// needs, and keeps the role for the handlers (callerRole).
func checkRole(c fiber.Ctx, role kudos.Role) error {
	need, ok := neededRole(c.Method(), c.Path())
	if !ok {
		return kudos.NotFound()
	}
	if !role.AtLeast(need) {
		return kudos.Errorf(kudos.EForbidden, "your role in this account does not allow this")
	}
	c.Locals(localRole, role)
	return nil
}

// callerRole is the caller's role in the path's account (requireMember).
func callerRole(c fiber.Ctx) kudos.Role {
	r, _ := c.Locals(localRole).(kudos.Role)
	return r
}
