package api_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// passkeyOptions asks for registration options with the password.
func (h *harness) passkeyOptions(token string) response {
	h.t.Helper()
	return h.expect(h.do("POST", "/v1/users/me/passkeys/options", map[string]any{"current_password": "Secret1!"}, token), 200)
}

// registerPasskey registers a's passkey for the user of token.
func (h *harness) registerPasskey(token string, a *softAuthenticator, name string) response {
	h.t.Helper()
	opts := h.passkeyOptions(token)
	return h.do("POST", "/v1/users/me/passkeys", map[string]any{"ceremony_id": opts.str("ceremony_id"), "name": name,
		"credential": a.create(publicKey(opts))}, token)
}

// passkeySignin signs in with a's passkey, passwordless.
func (h *harness) passkeySignin(a *softAuthenticator) response {
	h.t.Helper()
	opts := h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	return h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": opts.str("ceremony_id"), "credential": a.get(publicKey(opts))}, "")
}

func publicKey(r response) map[string]any {
	pk, _ := r.Body["public_key"].(map[string]any)
	return pk
}

// expectRefused checks the one answer of a refused passkey sign-in.
func (h *harness) expectRefused(r response) {
	h.t.Helper()
	e, _ := h.expect(r, 401).Body["error"].(map[string]any)
	if e["message"] != "Unauthorized" {
		h.t.Fatalf("refusal says more than Unauthorized: %s", r.Raw)
	}
}

// TestPasskeyRegisterListRenameAndSignIn: a passkey is registered (the
// options require a resident key and user verification, the user handle is
// random), listed, renamed, and signs in without a password; the session's
// method and second factor are passkey, last_used_at is set, and the
// timeline of the user's account records it.
func TestPasskeyRegisterListRenameAndSignIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("passkey@example.com")
	opts := h.passkeyOptions(token)
	pk := publicKey(opts)
	sel, _ := pk["authenticatorSelection"].(map[string]any)
	if sel["residentKey"] != "required" || sel["userVerification"] != "required" {
		t.Fatalf("authenticator selection %v", sel)
	}
	if rp, _ := pk["rp"].(map[string]any); rp["id"] != testRPID || rp["name"] != "Kudos" {
		t.Fatalf("rp %v", rp)
	}
	a := newSoftAuthenticator(t)
	r := h.expect(h.do("POST", "/v1/users/me/passkeys", map[string]any{"ceremony_id": opts.str("ceremony_id"), "name": " Laptop ",
		"credential": a.create(pk)}, token), 201)
	id := r.str("id")
	if r.str("name") != "Laptop" || r.Body["last_used_at"] != nil {
		t.Fatalf("registered %s", r.Raw)
	}
	var userID uuid.UUID
	var handle []byte
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT id, webauthn_handle FROM users WHERE email = 'passkey@example.com'`).Scan(&userID, &handle); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(handle, a.userHandle) || len(handle) != 64 || bytes.Contains(handle, userID[:]) || bytes.Contains(handle, []byte(userID.String())) {
		t.Fatalf("user handle %x of user %s: not random", handle, userID)
	}
	list := h.expect(h.do("GET", "/v1/users/me/passkeys", nil, token), 200)
	if items, _ := list.Body["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != id {
		t.Fatalf("list %s", list.Raw)
	}
	// A second registration excludes the passkey registered already.
	ex, _ := publicKey(h.passkeyOptions(token))["excludeCredentials"].([]any)
	if len(ex) != 1 || ex[0].(map[string]any)["id"] != b64.EncodeToString(a.credID) {
		t.Fatalf("excludeCredentials %v", ex)
	}
	if r := h.expect(h.do("PATCH", "/v1/users/me/passkeys/"+id, map[string]any{"name": "Work laptop"}, token), 200); r.str("name") != "Work laptop" {
		t.Fatalf("renamed %s", r.Raw)
	}
	for _, bad := range []string{"", "  ", "a\nb", string(make([]byte, 61))} {
		h.expect(h.do("PATCH", "/v1/users/me/passkeys/"+id, map[string]any{"name": bad}, token), 422)
	}

	s := h.expect(h.passkeySignin(a), 201)
	if s.str("account_id") != account || s.str("token") == "" {
		t.Fatalf("sign-in %s", s.Raw)
	}
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, s.str("token")), 200)
	var method, second string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT sign_in_method, second_factor FROM sessions WHERE user_id = $1
		ORDER BY created_at DESC LIMIT 1`, userID).Scan(&method, &second); err != nil {
		t.Fatal(err)
	}
	if method != string(kudos.SignInPasskey) || second != string(kudos.SecondFactorPasskey) {
		t.Fatalf("session signed in with %s + %s", method, second)
	}
	list = h.expect(h.do("GET", "/v1/users/me/passkeys", nil, token), 200)
	if items, _ := list.Body["items"].([]any); items[0].(map[string]any)["last_used_at"] == nil {
		t.Fatalf("last_used_at not set: %s", list.Raw)
	}
	events, err := h.db.BillingTimeline(context.Background(), uuid.MustParse(account), 10, nil, kudos.EventSecondFactorAdded)
	if err != nil || len(events) != 1 || events[0].MemberEmail != "passkey@example.com" {
		t.Fatalf("timeline %v %v", events, err)
	}
}

// TestPasskeyCeremonyIsUsedOnce: the options of a sign-in answer once
// (a replayed assertion, even a freshly signed one, is refused), expire
// after 5 minutes, and are for the purpose they were made for; a
// registration's ceremony is the caller's and used once too.
func TestPasskeyCeremonyIsUsedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, _ := h.signedUpUser("once@example.com")
	a := newSoftAuthenticator(t)
	opts := h.passkeyOptions(token)
	cred := a.create(publicKey(opts))
	body := map[string]any{"ceremony_id": opts.str("ceremony_id"), "name": "Phone", "credential": cred}
	h.expect(h.do("POST", "/v1/users/me/passkeys", body, token), 201)
	if r := h.expect(h.do("POST", "/v1/users/me/passkeys", body, token), 422); r.field("ceremony_id") != kudos.FInvalidValue {
		t.Fatalf("registration ceremony reused: %s", r.Raw)
	}
	// Another user cannot finish someone's registration ceremony.
	other, _ := h.signedUpUser("other@example.com")
	opts = h.passkeyOptions(token)
	b := newSoftAuthenticator(t)
	if r := h.expect(h.do("POST", "/v1/users/me/passkeys", map[string]any{"ceremony_id": opts.str("ceremony_id"), "name": "X",
		"credential": b.create(publicKey(opts))}, other), 422); r.field("ceremony_id") != kudos.FInvalidValue {
		t.Fatalf("another user's ceremony: %s", r.Raw)
	}

	opts = h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	first := map[string]any{"ceremony_id": opts.str("ceremony_id"), "credential": a.get(publicKey(opts))}
	h.expect(h.do("POST", "/v1/auth/passkey", first, ""), 201)
	h.expectRefused(h.do("POST", "/v1/auth/passkey", first, ""))
	// A fresh signature (count moved on) on the used ceremony: still refused.
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": opts.str("ceremony_id"), "credential": a.get(publicKey(opts))}, ""))
	// A registration's ceremony does not sign in.
	reg := h.passkeyOptions(token)
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": reg.str("ceremony_id"), "credential": a.get(publicKey(reg))}, ""))
	// Expired after 5 minutes.
	opts = h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	h.db.SetClock(func() time.Time { return time.Now().Add(5*time.Minute + time.Second) })
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": opts.str("ceremony_id"), "credential": a.get(publicKey(opts))}, ""))
	h.db.SetClock(time.Now)
	// An unknown ceremony, an unknown passkey.
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": uuid.NewString(), "credential": a.get(publicKey(opts))}, ""))
	h.expectRefused(h.passkeySignin(newSoftAuthenticator(t)))
	// Missing fields are 422, a body that is no passkey answer 401.
	if r := h.expect(h.do("POST", "/v1/auth/passkey", map[string]any{}, ""), 422); r.field("ceremony_id") != kudos.FRequired || r.field("credential") != kudos.FRequired {
		t.Fatalf("empty body: %s", r.Raw)
	}
	opts = h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": opts.str("ceremony_id"), "credential": map[string]any{"id": "x"}}, ""))
	h.expect(h.passkeySignin(a), 201)
}

// TestPasskeyForAnotherSiteIsRefused: an assertion made for another RP id
// or collected at another origin (a phishing site), or without user
// verification, does not sign in.
func TestPasskeyForAnotherSiteIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, _ := h.signedUpUser("phished@example.com")
	a := newSoftAuthenticator(t)
	h.expect(h.registerPasskey(token, a, "Key"), 201)
	a.rpID = "evil.example"
	h.expectRefused(h.passkeySignin(a))
	a.rpID, a.origin = testRPID, "http://evil.example:8080"
	h.expectRefused(h.passkeySignin(a))
	a.origin = testOrigin
	opts := h.expect(h.do("POST", "/v1/auth/passkey/options", nil, ""), 200)
	h.expectRefused(h.do("POST", "/v1/auth/passkey", map[string]any{"ceremony_id": opts.str("ceremony_id"),
		"credential": a.getWith(publicKey(opts), flagUP)}, ""))
	h.expect(h.passkeySignin(a), 201)
	// A registration from another origin is refused too.
	b := newSoftAuthenticator(t)
	b.origin = "https://evil.example"
	if r := h.expect(h.registerPasskey(token, b, "Evil"), 422); r.field("credential") != kudos.FInvalidValue {
		t.Fatalf("registration from another origin: %s", r.Raw)
	}
}

// TestPasskeyCounterGoingBackwardsIsRefused: a passkey whose sign count
// does not move forward (a cloned authenticator) is refused, and its
// stored count stays.
func TestPasskeyCounterGoingBackwardsIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, _ := h.signedUpUser("clone@example.com")
	a := newSoftAuthenticator(t)
	h.expect(h.registerPasskey(token, a, "Key"), 201)
	a.count = 5
	h.expect(h.passkeySignin(a), 201)
	a.count = 3
	h.expectRefused(h.passkeySignin(a))
	a.count = 5
	h.expectRefused(h.passkeySignin(a))
	a.count = 6
	h.expect(h.passkeySignin(a), 201)
}

// TestPasskeyManagementIsTheOwners: another user's passkey cannot be
// renamed or deleted (404); adding and removing a passkey re-authenticate
// (422 without or with a wrong password); a deleted passkey no longer
// signs in, and the timeline records the removal.
func TestPasskeyManagementIsTheOwners(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("owner@example.com")
	other, _ := h.signedUpUser("intruder@example.com")
	for _, body := range []map[string]any{{}, {"current_password": "Wrong1!!"}} {
		r := h.expect(h.do("POST", "/v1/users/me/passkeys/options", body, token), 422)
		if f := r.field("current_password"); f != kudos.FRequired && f != kudos.FWrongPassword {
			t.Fatalf("options %v: %s", body, r.Raw)
		}
	}
	a := newSoftAuthenticator(t)
	id := h.expect(h.registerPasskey(token, a, "Key"), 201).str("id")
	path := "/v1/users/me/passkeys/" + id
	h.expect(h.do("PATCH", path, map[string]any{"name": "Mine now"}, other), 404)
	h.expect(h.do("DELETE", path, map[string]any{"current_password": "Secret1!"}, other), 404)
	h.expect(h.do("DELETE", "/v1/users/me/passkeys/not-an-id", map[string]any{"current_password": "Secret1!"}, token), 404)
	if items, _ := h.expect(h.do("GET", "/v1/users/me/passkeys", nil, other), 200).Body["items"].([]any); len(items) != 0 {
		t.Fatalf("another user sees %v", items)
	}
	h.expect(h.do("DELETE", path, nil, token), 400)
	if r := h.expect(h.do("DELETE", path, map[string]any{}, token), 422); r.field("current_password") != kudos.FRequired {
		t.Fatalf("delete without password: %s", r.Raw)
	}
	if r := h.expect(h.do("DELETE", path, map[string]any{"current_password": "Wrong1!!"}, token), 422); r.field("current_password") != kudos.FWrongPassword {
		t.Fatalf("delete with a wrong password: %s", r.Raw)
	}
	h.expect(h.passkeySignin(a), 201)
	h.expect(h.do("DELETE", path, map[string]any{"current_password": "Secret1!"}, token), 204)
	h.expectRefused(h.passkeySignin(a))
	h.expect(h.do("DELETE", path, map[string]any{"current_password": "Secret1!"}, token), 404)
	events, err := h.db.BillingTimeline(context.Background(), uuid.MustParse(account), 10, nil, kudos.EventSecondFactorRemoved)
	if err != nil || len(events) != 1 {
		t.Fatalf("timeline %v %v", events, err)
	}
}

// TestGoogleOnlyUserStepsUpToAddAPasskey: a user without a password adds a
// passkey only after signing in with Google again (403
// reauthentication_required before), and can then sign in with it.
func TestGoogleOnlyUserStepsUpToAddAPasskey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, _ := h.googleOnlyUser("passkey-sub", "google-passkey@example.com")
	if r := h.expect(h.do("POST", "/v1/users/me/passkeys/options", map[string]any{}, token), 403); r.errorCode() != kudos.EReauthRequired {
		t.Fatalf("options without a step-up: %s", r.Raw)
	}
	h.expect(h.stepUp(token, "passkey-sub", "google-passkey@example.com", time.Now()), 200)
	opts := h.expect(h.do("POST", "/v1/users/me/passkeys/options", map[string]any{}, token), 200)
	a := newSoftAuthenticator(t)
	h.expect(h.do("POST", "/v1/users/me/passkeys", map[string]any{"ceremony_id": opts.str("ceremony_id"), "name": "Phone",
		"credential": a.create(publicKey(opts))}, token), 201)
	h.expect(h.passkeySignin(a), 201)
}
