package api_test

import (
	"encoding/json"
	"slices"
	"testing"

	"kudos"
)

// TestActivationRequestDoesTheSameWorkForAnyAddress: asking for a new
// activation link for an unknown address, an activated user's, an
// unactivated user's and the pending new address of an e-mail change does
// the same writes in the request (one queued entry of the same shape; the
// look-up, the token and the mail come later, off the request), so its
// timing tells nothing (an unactivated address cost a token, a mail and
// a transaction more, and each kind of address its own reads). The link
// still goes to the unactivated user only: to the address itself, or to
// the new address of a pending change, whichever was typed.
func TestActivationRequestDoesTheSameWorkForAnyAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.signedUpUser("active@example.com")
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("waiting@example.com"), ""), 201)
	token, account := h.signedUpUser("moving@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"email": "moved@example.com", "current_password": "Secret1!"}, token), 200)
	activations := func(email string) int { return h.mailsOf(email, kudos.MailActivation) }
	waiting, moved := activations("waiting@example.com"), activations("moved@example.com")
	query := h.snapshotSQL()
	var deltas []string
	var queued [][]string
	emails := []string{"unknown@example.com", "active@example.com", "waiting@example.com", "moving@example.com"}
	for _, email := range emails {
		before, id := h.snapshot(t, query), h.lastOutboxID()
		if r := h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": email}, ""), 202); r.Raw != "{}" {
			t.Fatalf("%s: answer %s", email, r.Raw)
		}
		d, _ := json.Marshal(rowDelta(before, h.snapshot(t, query)))
		deltas = append(deltas, string(d))
		queued = append(queued, h.newOutboxRows(id))
	}
	for i := range emails[1:] {
		if deltas[i+1] != deltas[0] || !slices.Equal(queued[i+1], queued[0]) {
			t.Fatalf("%s wrote %s and queued %v, %s wrote %s and queued %v: the request tells them apart",
				emails[0], deltas[0], queued[0], emails[i+1], deltas[i+1], queued[i+1])
		}
	}
	h.deliverQueued()
	if n := activations("waiting@example.com") - waiting; n != 1 {
		t.Fatalf("%d new activation mails to the unactivated address, want 1", n)
	}
	if n := activations("moved@example.com") - moved; n != 1 {
		t.Fatalf("%d new activation mails to the pending address, want 1", n)
	}
	if n := activations("active@example.com"); n != 1 { // its sign-up's
		t.Fatalf("%d activation mails to the activated address, want its sign-up's only", n)
	}
	if n := h.mailCount("unknown@example.com"); n != 0 {
		t.Fatalf("%d mails to the unknown address", n)
	}
}
