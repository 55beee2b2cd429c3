package api_test

import (
	"testing"
	"time"

	"kudos"
)

// TestOwnerRequiresMFA: only the owner sets require_mfa, and only with a
// second factor of their own (409); while it is on, a member without one
// is 403 mfa_enrolment_required on the account (the signed-in devices and
// /v1/users/me stay open), may enrol, and is then let in; a session that
// did not meet the factor is 403 second_factor_required until it signs
// in with it. The account read shows the policy; the timeline records it.
// (The policy keeps a member's last second factor while it is on.)
func TestOwnerRequiresMFA(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const owner, memberEmail = "policy-owner@example.com", "policy-member@example.com"
	token, account := h.signedUpUser(owner)
	member, _ := h.join(token, account, memberEmail, "admin")
	on := map[string]any{"require_mfa": true}
	h.expect(h.do("PATCH", "/v1/accounts/"+account, on, token), 409)
	h.expect(h.do("PATCH", "/v1/accounts/"+account, on, member), 403)
	if r := h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200); r.Body["account"].(map[string]any)["require_mfa"] != false {
		t.Fatalf("refused changes turned the policy on: %s", r.Raw)
	}
	ownerSecret, _ := h.enrolTOTP(token)
	h.expect(h.do("PATCH", "/v1/accounts/"+account, on, token), 200)
	if r := h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200); r.Body["account"].(map[string]any)["require_mfa"] != true {
		t.Fatalf("account read: %s", r.Raw)
	}
	if n := h.count("billing_events", account, "type = 'mfa_policy_changed'"); n != 1 {
		t.Fatalf("%d mfa_policy_changed events", n)
	}

	// The member without a second factor: asked to enrol.
	for _, path := range []string{"", "/members", "/billing/timeline?scope=team"} {
		if r := h.expect(h.do("GET", "/v1/accounts/"+account+path, nil, member), 403); r.errorCode() != kudos.EMFAEnrolmentRequired {
			t.Fatalf("%q: %s", path, r.Raw)
		}
	}
	h.expect(h.do("GET", "/v1/accounts/"+account+"/sessions", nil, member), 200)
	h.expect(h.do("GET", "/v1/users/me/mfa", nil, member), 200)
	secret, _ := h.enrolTOTP(member)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200)
	h.expect(h.do("GET", "/v1/accounts/"+account+"/members", nil, member), 200)

	// A session that did not meet the factor: the sign-in asks for it, and
	// an older session (from before the enrolment) is asked to confirm.
	old := h.expect(h.passwordSignin(owner), 202)
	ownerIn := h.expect(h.do("POST", "/v1/auth/signin/mfa", map[string]any{"challenge": old.str("challenge"), "code": h.totpCode(ownerSecret, 0)}, ""), 201)
	h.expect(h.do("GET", "/v1/accounts/"+account+"/members", nil, ownerIn.str("token")), 200)
	if _, err := h.db.Pool.Exec(t.Context(), `UPDATE sessions SET second_factor_at = NULL, second_factor = NULL
		WHERE id = (SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 ORDER BY s.created_at LIMIT 1)`, memberEmail); err != nil {
		t.Fatal(err)
	}
	if r := h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 403); r.errorCode() != kudos.ESecondFactorRequired {
		t.Fatalf("a session without its second factor: %s", r.Raw)
	}
	h.expect(h.do("POST", "/v1/users/me/mfa/verify", map[string]any{"code": h.totpCode(secret, 0)}, member), 204)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200)

	// While the policy is on, a member keeps their last second factor:
	// without it they would be shut out of the account.
	off := map[string]any{"current_password": "Secret1!"}
	h.expect(h.do("DELETE", "/v1/users/me/mfa/totp", off, member), 409)
	if totp, left := h.mfaStatusOf(member); !totp || left != 10 {
		t.Fatalf("a refused removal changed the factors: totp %v, %d codes", totp, left)
	}

	// Off again: the owner only.
	h.expect(h.do("PATCH", "/v1/accounts/"+account, map[string]any{"require_mfa": false}, member), 403)
	h.expect(h.do("PATCH", "/v1/accounts/"+account, map[string]any{"require_mfa": false, "current_password": "Secret1!"}, ownerIn.str("token")), 200)
	if n := h.count("billing_events", account, "type = 'mfa_policy_changed'"); n != 2 {
		t.Fatalf("%d mfa_policy_changed events", n)
	}
	h.expect(h.do("DELETE", "/v1/users/me/mfa/totp", off, member), 204)
	// A session that met the factor the member no longer has does not
	// pass the policy when it is on again.
	h.expect(h.do("PATCH", "/v1/accounts/"+account, on, ownerIn.str("token")), 200)
	if r := h.expect(h.do("GET", "/v1/accounts/"+account+"/members", nil, member), 403); r.errorCode() != kudos.EMFAEnrolmentRequired {
		t.Fatalf("without a second factor: %s", r.Raw)
	}
}
