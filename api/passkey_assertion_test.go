package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"kudos/api"
)

// assertionCall posts body to the app of api.PasskeyAssertionApp.
func assertionCall(t *testing.T, h *harness, path string, body map[string]any) response {
	t.Helper()
	raw, _ := json.Marshal(body)
	res, err := api.PasskeyAssertionApp(h.srv).Test(httptest.NewRequest("POST", path, bytes.NewReader(raw)), inProcess)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Raw: string(b)}
	_ = json.Unmarshal(b, &out.Body)
	return out
}

// TestPasskeyAssertionForAUser: beginPasskeyAssertion and
// finishPasskeyAssertion, the pair the second factor and the step-up use.
// Options for a user list their passkeys only (allowCredentials) and
// require user verification; the assertion answers the user's id; another
// user's passkey, a ceremony of another purpose, a reused ceremony and a
// user without passkeys are refused; a discoverable ceremony is for a
// sign-in only.
func TestPasskeyAssertionForAUser(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	aliceToken, _ := h.signedUpUser("alice@example.com")
	bobToken, _ := h.signedUpUser("bob@example.com")
	alice, bob := newSoftAuthenticator(t), newSoftAuthenticator(t)
	h.expect(h.registerPasskey(aliceToken, alice, "Alice's"), 201)
	h.expect(h.registerPasskey(bobToken, bob, "Bob's"), 201)
	aliceID := h.userID("alice@example.com")

	begin := func(purpose string) response {
		t.Helper()
		r := assertionCall(t, h, "/begin", map[string]any{"user_id": aliceID, "purpose": purpose})
		if r.Status != 200 {
			t.Fatalf("begin %s: %s", purpose, r.Raw)
		}
		return r
	}
	finish := func(purpose string, opts response, a *softAuthenticator) response {
		t.Helper()
		return assertionCall(t, h, "/finish", map[string]any{"purpose": purpose, "ceremony_id": opts.str("ceremony_id"),
			"credential": a.get(publicKey(opts))})
	}

	opts := begin("second_factor")
	pk := publicKey(opts)
	allow, _ := pk["allowCredentials"].([]any)
	if len(allow) != 1 || allow[0].(map[string]any)["id"] != b64.EncodeToString(alice.credID) || pk["userVerification"] != "required" {
		t.Fatalf("options %v", pk)
	}
	if r := finish("second_factor", opts, alice); r.Status != 200 || r.str("user_id") != aliceID.String() {
		t.Fatalf("alice's second factor: %s", r.Raw)
	}
	// Reused.
	if r := finish("second_factor", opts, alice); r.Status != 401 {
		t.Fatalf("reused ceremony: %s", r.Raw)
	}
	// Bob's passkey on Alice's ceremony.
	if r := finish("second_factor", begin("second_factor"), bob); r.Status != 401 {
		t.Fatalf("another user's passkey: %s", r.Raw)
	}
	// A step-up ceremony is no second factor, and the other way round.
	if r := finish("second_factor", begin("step_up"), alice); r.Status != 401 {
		t.Fatalf("purpose mismatch: %s", r.Raw)
	}
	if r := finish("step_up", begin("step_up"), alice); r.Status != 200 {
		t.Fatalf("step-up: %s", r.Raw)
	}
	// A user without passkeys gets no options; a discoverable ceremony is
	// a sign-in's only.
	h.signedUpUser("carol@example.com")
	if r := assertionCall(t, h, "/begin", map[string]any{"user_id": h.userID("carol@example.com"), "purpose": "second_factor"}); r.Status != 409 {
		t.Fatalf("no passkeys: %s", r.Raw)
	}
	if r := assertionCall(t, h, "/begin", map[string]any{"purpose": "step_up"}); r.Status != 500 {
		t.Fatalf("discoverable step-up: %s", r.Raw)
	}
	if r := assertionCall(t, h, "/begin", map[string]any{"purpose": "register"}); r.Status != 500 {
		t.Fatalf("assertion for a registration: %s", r.Raw)
	}
}

// userID is the id of the user of that address.
func (h *harness) userID(email string) uuid.UUID {
	h.t.Helper()
	u, err := h.db.UserByEmail(context.Background(), email)
	if err != nil {
		h.t.Fatal(err)
	}
	return u.ID
}
