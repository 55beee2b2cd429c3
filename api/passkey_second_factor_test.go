package api_test

import (
	"testing"
	"time"

	"kudos"
)

// meetChallenge answers a sign-in challenge with body (plus the challenge).
func (h *harness) meetChallenge(challenge string, body map[string]any) response {
	h.t.Helper()
	body["challenge"] = challenge
	return h.do("POST", "/v1/auth/signin/mfa", body, "")
}

// recoveryCodesOf reads the recovery codes of a 201 passkey registration.
func recoveryCodesOf(r response) []string {
	var out []string
	list, _ := r.Body["recovery_codes"].([]any)
	for _, c := range list {
		out = append(out, c.(string))
	}
	return out
}

// TestPasskeyMeetsTheSecondFactor (issue 29): a passkey is a second
// factor. The first one comes with ten recovery codes (a lost passkey must
// not lock its owner out: a password sign-in now asks for it), a second one
// with none. A password sign-in answers 202 with webauthn among the
// methods; POST /v1/auth/passkey/options {challenge} gives options for that
// user's passkeys only; the assertion at /v1/auth/signin/mfa starts the
// session (password + passkey). Another user's passkey, an assertion for a
// ceremony of another purpose and a used challenge are refused. A stale
// session steps up with the passkey (/v1/users/me/mfa/verify/options and
// /verify) before a sensitive change; removing the last passkey removes the
// codes and the second factor.
func TestPasskeyMeetsTheSecondFactor(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const email = "pk2fa@example.com"
	token, account := h.signedUpUser(email)
	mine := newSoftAuthenticator(t)
	first := h.expect(h.registerPasskey(token, mine, "Laptop"), 201)
	codes := recoveryCodesOf(first)
	if len(codes) != 10 {
		t.Fatalf("the first passkey came with %d recovery codes: %s", len(codes), first.Raw)
	}
	second := h.expect(h.registerPasskey(token, newSoftAuthenticator(t), "Phone"), 201)
	if len(recoveryCodesOf(second)) != 0 {
		t.Fatalf("a second passkey replaced the recovery codes: %s", second.Raw)
	}
	timeline := h.expect(h.do("GET", "/v1/accounts/"+account+"/billing/timeline?scope=team", nil, token), 200)
	added := 0
	for _, e := range timeline.Body["events"].([]any) {
		if e := e.(map[string]any); e["type"] == "second_factor_added" && e["factor"] == "passkey" && e["member_email"] == email {
			added++
		}
	}
	if added != 2 {
		t.Fatalf("%d second_factor_added events naming a passkey, want 2: %s", added, timeline.Raw)
	}
	other := newSoftAuthenticator(t)
	otherToken, _ := h.signedUpUser("pk2fa-other@example.com")
	h.expect(h.registerPasskey(otherToken, other, "Theirs"), 201)

	ch := h.expect(h.passwordSignin(email), 202)
	methods := ch.Body["methods"].([]any)
	if len(methods) != 2 || methods[0] != "recovery_code" || methods[1] != "webauthn" {
		t.Fatalf("methods: %v", methods)
	}
	challenge := ch.str("challenge")
	options := func() response {
		return h.expect(h.do("POST", "/v1/auth/passkey/options", map[string]any{"challenge": challenge}, ""), 200)
	}
	h.expect(h.do("POST", "/v1/auth/passkey/options", map[string]any{"challenge": "not-a-challenge"}, ""), 401)
	opts := options()
	if allow, _ := publicKey(opts)["allowCredentials"].([]any); len(allow) != 2 {
		t.Fatalf("the options allow %d credentials, want the user's 2: %s", len(allow), opts.Raw)
	}
	// Another user's passkey does not meet this user's challenge.
	h.expect(h.meetChallenge(challenge, map[string]any{"webauthn": map[string]any{
		"ceremony_id": opts.str("ceremony_id"), "credential": other.get(publicKey(opts))}}), 401)
	// A passwordless sign-in's ceremony is not a second factor's.
	signin := h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	h.expect(h.meetChallenge(challenge, map[string]any{"webauthn": map[string]any{
		"ceremony_id": signin.str("ceremony_id"), "credential": mine.get(publicKey(signin))}}), 401)
	h.expect(h.meetChallenge(challenge, map[string]any{"webauthn": map[string]any{"ceremony_id": "x"}}), 422)
	if n := h.liveSessions(email); n != 1 {
		t.Fatalf("%d sessions after refused passkeys, want the sign-up's 1", n)
	}
	opts = options()
	in := h.expect(h.meetChallenge(challenge, map[string]any{"webauthn": map[string]any{
		"ceremony_id": opts.str("ceremony_id"), "credential": mine.get(publicKey(opts))}}), 201)
	if in.str("account_id") != account {
		t.Fatalf("sign-in: %s", in.Raw)
	}
	fresh := in.str("token")
	list := h.expect(h.do("GET", "/v1/accounts/"+account+"/sessions", nil, fresh), 200)
	for _, s := range list.Body["sessions"].([]any) {
		if s := s.(map[string]any); s["current"] == true && (s["sign_in_method"] != "password" || s["second_factor"] != "passkey") {
			t.Fatalf("the session records %v", s)
		}
	}
	h.expect(h.do("POST", "/v1/auth/passkey/options", map[string]any{"challenge": challenge}, ""), 401)

	// A stale session steps up with the passkey.
	h.advance(kudos.StepUpWindow + time.Second)
	change := map[string]any{"password": "Newpass1!", "current_password": "Secret1!"}
	if r := h.do("PATCH", "/v1/accounts/"+account+"/user", change, fresh); r.Status != 403 || r.errorCode() != kudos.ESecondFactorRequired {
		t.Fatalf("stale session changed the password: %d %s", r.Status, r.Raw)
	}
	step := h.expect(h.do("POST", "/v1/users/me/mfa/verify/options", nil, fresh), 200)
	h.expect(h.do("POST", "/v1/users/me/mfa/verify", map[string]any{"webauthn": map[string]any{
		"ceremony_id": step.str("ceremony_id"), "credential": other.get(publicKey(step))}}, fresh), 422)
	step = h.expect(h.do("POST", "/v1/users/me/mfa/verify/options", nil, fresh), 200)
	h.expect(h.do("POST", "/v1/users/me/mfa/verify", map[string]any{"webauthn": map[string]any{
		"ceremony_id": step.str("ceremony_id"), "credential": mine.get(publicKey(step))}}, fresh), 204)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", change, fresh), 200)

	// Removing both passkeys removes the second factor and its codes.
	for _, p := range h.expect(h.do("GET", "/v1/users/me/passkeys", nil, fresh), 200).Body["items"].([]any) {
		id := p.(map[string]any)["id"].(string)
		h.expect(h.do("DELETE", "/v1/users/me/passkeys/"+id, map[string]any{"current_password": "Newpass1!"}, fresh), 204)
	}
	if totp, left := h.mfaStatusOf(fresh); totp || left != 0 {
		t.Fatalf("after the last passkey: totp %v, %d recovery codes left", totp, left)
	}
	r := h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Newpass1!"}, "")
	h.expect(r, 201)
}
