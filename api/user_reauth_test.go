package api_test

import (
	"context"
	"slices"
	"testing"

	"kudos"
)

// TestPasswordAndEmailChangesNeedTheCurrentPassword (ASVS V6.2.3, V7.5.1):
// a stolen session alone cannot take the account over by changing its
// password or address.
func TestPasswordAndEmailChangesNeedTheCurrentPassword(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("reauth@example.com")
	path := "/v1/accounts/" + account + "/user"
	for _, body := range []map[string]any{{"password": "Changed1!"}, {"email": "elsewhere@example.com"}} {
		if r := h.expect(h.do("PATCH", path, body, token), 422); r.field("current_password") != kudos.FRequired {
			t.Fatalf("%v: %s", body, r.Raw)
		}
		body["current_password"] = "Wrong1!!"
		if r := h.expect(h.do("PATCH", path, body, token), 422); r.field("current_password") != kudos.FWrongPassword {
			t.Fatalf("%v: %s", body, r.Raw)
		}
	}
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "reauth@example.com", "password": "Secret1!"}, ""), 201)
	if h.mailCount("elsewhere@example.com") != 0 {
		t.Fatal("an e-mail change went through without the current password")
	}
	// Other fields need nothing more.
	h.expect(h.do("PATCH", path, map[string]any{"firstname": "Grace"}, token), 200)
	// With it, the password changes and the owner is told by mail.
	h.expect(h.do("PATCH", path, map[string]any{"password": "Changed1!", "current_password": "Secret1!"}, token), 200)
	if m := h.lastMail("reauth@example.com"); m.Purpose != kudos.MailPasswordChanged {
		t.Fatalf("last mail %s, want password_changed", m.Purpose)
	}
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "reauth@example.com", "password": "Changed1!"}, ""), 201)
	// Guessing the current password is rate limited.
	var last response
	for range 12 {
		last = h.do("PATCH", path, map[string]any{"password": "Other12!", "current_password": "Guess12!"}, token)
	}
	h.expect(last, 429)
}

// TestUserChangeIsAllOrNothing: PATCH …/user is one transaction. A failure
// while the e-mail change is stored leaves the name and password as they
// were.
func TestUserChangeIsAllOrNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("atomic@example.com")
	ctx := context.Background()
	// Storing a token fails, as a full disk or a lost connection would.
	for _, q := range []string{
		`CREATE FUNCTION fail_token() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
		`CREATE TRIGGER fail_token BEFORE INSERT ON user_tokens FOR EACH ROW EXECUTE FUNCTION fail_token()`,
	} {
		if _, err := h.db.Pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	snap := h.snapshotSQL()
	before := h.snapshot(t, snap)
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"firstname": "Half", "password": "Changed1!",
		"email": "moved@example.com", "current_password": "Secret1!"}, token), 500)
	if changed := changedTables(before, h.snapshot(t, snap)); len(changed) != 0 {
		t.Fatalf("a failed change left %v changed", changed)
	}
}

// TestEmailChangeDoesNotTellWhichAddressesExist: moving to a taken address
// answers like moving to a free one; the owner of the taken address is told
// by mail instead, and no link to confirm it is sent anywhere.
func TestEmailChangeDoesNotTellWhichAddressesExist(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("prober@example.com")
	h.signedUpUser("owner@example.com")
	ownerMails := h.mailCount("owner@example.com")
	r := h.expect(h.do("PATCH", "/v1/accounts/"+account+"/user", map[string]any{"email": "Owner@example.com", "current_password": "Secret1!"}, token), 200)
	if r.Raw != "{}" {
		t.Fatalf("answer %s", r.Raw)
	}
	if m := h.lastMail("owner@example.com"); h.mailCount("owner@example.com") != ownerMails+1 || m.Purpose != kudos.MailSignupExisting {
		t.Fatalf("the owner got %d new mails, the last %s", h.mailCount("owner@example.com")-ownerMails, m.Purpose)
	}
	if m := h.lastMail("prober@example.com"); m.Purpose != kudos.MailEmailChanged {
		t.Fatalf("the old address got %s, as for a free address it gets email_changed", m.Purpose)
	}
	// Resending the confirmation does not send the owner a link either.
	h.expect(h.do("POST", "/v1/auth/activation-token", map[string]any{"email": "prober@example.com"}, ""), 202)
	var purposes []kudos.MailPurpose
	rows, _ := h.db.Pool.Query(context.Background(), `SELECT payload->>'purpose' FROM outbox WHERE payload->>'to' = 'owner@example.com'`)
	for rows.Next() {
		var p kudos.MailPurpose
		_ = rows.Scan(&p)
		purposes = append(purposes, p)
	}
	if slices.Contains(purposes[ownerMails:], kudos.MailActivation) {
		t.Fatalf("the owner of the taken address got a confirmation link: %v", purposes)
	}
}
