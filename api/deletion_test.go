package api_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/workflows"
)

// deletionOutcome waits for an account deletion's workflow and returns its
// result.
func (h *harness) deletionOutcome(account string, at time.Time) workflows.AccountDeletionResult {
	h.t.Helper()
	var res workflows.AccountDeletionResult
	id := "deletion:account:" + account + ":" + itoa(at.Unix())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var run client.WorkflowRun
	eventually(h.t, "the deletion's workflow", func() bool {
		run = h.srv.Temporal.GetWorkflow(ctx, id, "")
		_, err := h.srv.Temporal.DescribeWorkflowExecution(ctx, id, "")
		return err == nil
	})
	if err := run.Get(ctx, &res); err != nil {
		h.t.Fatalf("deletion workflow %s: %v", id, err)
	}
	return res
}

// scheduleDeletion schedules the account's deletion as its owner and
// returns when it is due.
func (h *harness) scheduleDeletion(token, account string) time.Time {
	h.t.Helper()
	r := h.expect(h.do("DELETE", "/v1/accounts/"+account, map[string]any{"current_password": "Secret1!"}, token), 202)
	at, err := time.Parse(time.RFC3339, r.str("deletion_at"))
	if err != nil {
		h.t.Fatal(err)
	}
	return at
}

// TestAccountDeletionCancelledWithinTheGrace: only the owner, with their
// password, schedules the deletion; auto-renewal stops at once, every
// member is mailed, the account shows when it goes, nothing can be bought
// meanwhile; a cancel ends the workflow and nothing is erased.
func TestAccountDeletionCancelledWithinTheGrace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.DeletionGrace = time.Hour
	h = h.withTemporal(time.Hour)
	const owner = "deleting-owner@example.com"
	token, account := h.paidWith(owner, "PRO", "4242424242424242")
	admin, _ := h.join(token, account, "deleting-admin@example.com", "admin")
	base := "/v1/accounts/" + account

	h.expect(h.do("DELETE", base, map[string]any{"current_password": "Secret1!"}, admin), 403)
	if r := h.expect(h.do("DELETE", base, map[string]any{}, token), 422); r.field("current_password") == "" {
		t.Fatalf("no password: %s", r.Raw)
	}
	h.expect(h.do("DELETE", base, map[string]any{"current_password": "Wrong1!x"}, token), 422)
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, token), 409) // nothing scheduled yet

	at := h.scheduleDeletion(token, account)
	if d := time.Until(at); d < 59*time.Minute || d > time.Hour+time.Minute {
		t.Fatalf("deletion at %v, want in an hour", at)
	}
	if again := h.scheduleDeletion(token, account); !again.Equal(at) {
		t.Fatalf("asking again moved the deletion from %v to %v", at, again)
	}
	if got := h.expect(h.do("GET", base, nil, token), 200).Body["account"].(map[string]any)["deletion_at"]; got != at.Format(time.RFC3339) {
		t.Fatalf("account read deletion_at %v, want %v", got, at)
	}
	eventually(t, "auto-renewal to stop", func() bool { return h.subscription(token, account)["start_next_period"] == false })
	eventually(t, "every member mailed", func() bool {
		return h.mailsOf(owner, kudos.MailAccountDeletionScheduled) == 1 && h.mailsOf("deleting-admin@example.com", kudos.MailAccountDeletionScheduled) == 1
	})
	// Issue 37: the refusal names the deletion and its date (its own code,
	// which the UI says as such), never a generic edit conflict.
	for _, r := range []response{
		h.do("PATCH", base+"/subscription", map[string]any{"plan": "TEAM"}, token),
		h.do("POST", base+"/subscription", map[string]any{"plan": "TEAM"}, token),
		h.do("POST", base+"/subscription/restart", nil, token),
		h.do("POST", base+"/billing/payment-methods", nil, token),
	} {
		msg, _ := r.Body["error"].(map[string]any)["message"].(string)
		if r.Status != 409 || r.errorCode() != "account_being_deleted" || !strings.Contains(msg, "being deleted on "+at.Format("2 Jan 2006")) {
			t.Errorf("while the deletion is scheduled: %d %s", r.Status, r.Raw)
		}
		if err := checkErrorShape(r); err != nil {
			t.Error(err)
		}
	}

	// An invoice due (here made so in the books) is not paid meanwhile
	// either, and the refusal says that, not "to change the plan".
	paid := h.invoiceOfKind(account, "SUBSCRIPTION")
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE invoices SET status = 'DUE_PAYMENT' WHERE id = $1`, paid); err != nil {
		t.Fatal(err)
	}
	r := h.expect(h.do("POST", base+"/invoices/"+paid+"/payment", nil, token), 409)
	if msg, _ := r.Body["error"].(map[string]any)["message"].(string); r.errorCode() != "account_being_deleted" ||
		!strings.Contains(msg, "being deleted on "+at.Format("2 Jan 2006")) || !strings.HasSuffix(msg, "cancel the deletion to pay an invoice") {
		t.Errorf("paying an invoice while the deletion is scheduled: %s", r.Raw)
	}
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE invoices SET status = 'PAID' WHERE id = $1`, paid); err != nil {
		t.Fatal(err)
	}

	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, admin), 403)
	h.expect(h.do("POST", base+"/deletion/cancel", map[string]any{"current_password": "Secret1!"}, token), 200)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeCancelled {
		t.Fatalf("workflow %+v", res)
	}
	if got := h.expect(h.do("GET", base, nil, token), 200).Body["account"].(map[string]any)["deletion_at"]; got != nil {
		t.Fatalf("deletion_at %v after the cancel", got)
	}
	h.expect(h.do("GET", base, nil, admin), 200)
	types := h.timelineTypes(token, account)
	if types["deletion_scheduled"] != 1 || types["deletion_cancelled"] != 1 || types["deletion_completed"] != 0 {
		t.Fatalf("timeline %v", types)
	}
	h.expect(h.do("POST", base+"/subscription/restart", nil, token), 200)
	h.recordHistory("deletion:account:"+account+":"+itoa(at.Unix()), "", "deletion_cancelled.json")
}

// TestAccountDeletionErasesPersonalData: at the end of the grace period the
// workflow erases the account: members lose it, the billing address, the
// exports and the provider's payment methods go, the subscription workflow
// ends and is not started again, e-mail addresses leave the timeline; the
// invoices, their numbers and the money events stay.
func TestAccountDeletionErasesPersonalData(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 3*time.Second)
	const owner = "erased-owner@example.com"
	token, account := h.paidWith(owner, "PRO", "4242424242424242")
	base := "/v1/accounts/" + account
	// Personal data of the account that nothing may keep: its name, its
	// billing address, a feature request, a member's address.
	const name, org, street, wish, memberEmail = "Erasable Bakery", "Erasable Holding BV", "Forgotten Lane 7",
		"please keep my secret wish", "erased-member@example.com"
	h.expect(h.do("PATCH", base, map[string]any{"name": name}, token), 200)
	address := validAddress()
	address["organization_name"], address["street_and_number"] = org, street
	h.expect(h.do("PATCH", base+"/billing-address", address, token), 200)
	h.expect(h.do("POST", base+"/feature-request", featureRequest("feature_description", wish), token), 200)
	member, _ := h.join(token, account, memberEmail, "member")
	exportID := h.expect(h.do("POST", base+"/export", nil, token), 202).str("export_id")
	h.exportReady(token, owner, exportID)
	invoicesBefore := h.invoiceCount(account, "number IS NOT NULL")
	if invoicesBefore == 0 {
		t.Fatal("no numbered invoice to keep")
	}
	var pdfKey string
	eventually(t, "the invoice's PDF", func() bool {
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT coalesce(pdf_key, '') FROM invoices WHERE account_id = $1 AND number IS NOT NULL`,
			account).Scan(&pdfKey)
		return pdfKey != ""
	})

	at := h.scheduleDeletion(token, account)
	// The worker dies while the deletion waits out its grace; another one,
	// started after the due time, finishes it from the workflow's timer.
	h.worker.Stop()
	time.Sleep(time.Until(at) + time.Second)
	h.worker = h.startWorker(h.acts)
	res := h.deletionOutcome(account, at)
	if res.Outcome != workflows.DeletionOutcomeDeleted || res.Objects != 1 {
		t.Fatalf("workflow %+v", res)
	}
	h.expect(h.do("GET", base, nil, token), 404)
	h.expect(h.do("GET", base, nil, member), 404)
	if _, err := h.storage.Stat(context.Background(), "exports/"+exportID+".zip"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the account's export is still stored: %v", err)
	}
	if n := h.invoiceCount(account, "number IS NOT NULL"); n != invoicesBefore {
		t.Fatalf("%d numbered invoices after the deletion, %d before", n, invoicesBefore)
	}
	for table, where := range map[string]string{
		"memberships": "true", "billing_addresses": "true", "data_exports": "true", "payment_customers": "true",
		"sandbox_payment_methods": "true", "billing_events": "member_email IS NOT NULL OR actor_email IS NOT NULL",
	} {
		h.wantRows(table, account, where, 0, table+": %d rows left after the deletion")
	}
	h.wantRows("billing_events", account, "type = 'payment_succeeded'", 1, "%d payment events kept, want 1")
	for _, hit := range h.rowsHolding(name, org, street, wish) {
		if !strings.HasPrefix(hit, "table invoices ") { // an issued invoice keeps its buyer as issued (issue 30)
			t.Errorf("after the deletion %s", hit)
		}
	}
	for _, hit := range h.rowsHolding(memberEmail) {
		if !strings.HasPrefix(hit, "table users ") { // the member's own user stays
			t.Errorf("after the deletion %s", hit)
		}
	}
	if _, err := h.storage.Stat(context.Background(), pdfKey); err != nil {
		t.Fatalf("the invoice's PDF is gone: %v", err)
	}
	h.wantRows("billing_events", account, "type = 'deletion_completed'", 1, "%d deletion_completed events, want 1")
	var erasedName string
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT name FROM accounts WHERE id = $1`, account).Scan(&erasedName); err != nil ||
		erasedName != kudos.DeletedAccountName {
		t.Fatalf("account name %q (%v)", erasedName, err)
	}
	if h.running("subscription:" + account) {
		t.Fatal("the subscription workflow still runs")
	}
	if _, err := h.acts.ReconcileSubscriptions(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.running("subscription:" + account) {
		t.Fatal("the reconciliation started the deleted account's subscription again")
	}
	// The members keep their own users: the member signs in to an account of their own.
	r := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "erased-member@example.com", "password": "Secret1!"}, ""), 201)
	if r.str("account_id") == account {
		t.Fatal("sign-in still opens the deleted account")
	}
	h.recordHistory("deletion:account:"+account+":"+itoa(at.Unix()), "", "deletion_completed.json")
}

// itoa writes a Unix time for a workflow id.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestUserDeletion: a member deletes themself with their password (an owner
// must first hand the account on); sign-in keeps working during the grace
// period and shows the date; a cancel undoes it; at its end the user is
// erased, their address leaves the account's timeline, and it can sign up
// anew.
func TestUserDeletion(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 3*time.Second)
	token, account := h.paidWith("staying-owner@example.com", "PRO", "4242424242424242")
	const leaving = "leaving-member@example.com"
	member, memberID := h.join(token, account, leaving, "member")

	if r := h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, token); r.Status != 409 {
		t.Fatalf("the owner deleting themself: %d %s", r.Status, r.Raw)
	}
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Wrong1!x"}, member), 422)
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, member), 409)

	// Scheduled, then cancelled: nothing happens at the date it had.
	h.srv.Config.DeletionGrace = time.Hour
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202)
	signin := map[string]any{"email": leaving, "password": "Secret1!"}
	again := h.expect(h.do("POST", "/v1/auth/signin", signin, ""), 201).str("token")
	if d := h.expect(h.do("GET", "/v1/accounts/"+account, nil, again), 200).Body["user"].(map[string]any)["deletion_at"]; d == nil {
		t.Fatal("the account read does not show the user's deletion")
	}
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, again), 200)

	h.srv.Config.DeletionGrace = 3 * time.Second
	at := h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, again), 202).str("deletion_at")
	when, _ := time.Parse(time.RFC3339, at)
	id := "deletion:user:" + memberID + ":" + itoa(when.Unix())
	h.userErased(memberID)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, again), 401)
	h.expect(h.do("POST", "/v1/auth/signin", signin, ""), 401) // as any unknown address
	if r := h.members(token, account); len(r.Body["members"].([]any)) != 1 {
		t.Fatalf("members after the deletion: %s", r.Raw)
	}
	var named int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM billing_events WHERE member_email = $1 OR actor_email = $1`, leaving).Scan(&named)
	if named != 0 {
		t.Fatalf("%d timeline events still name the deleted user", named)
	}
	for _, hit := range h.rowsHolding(leaving) {
		t.Errorf("after the deletion %s", hit)
	}
	h.expect(h.do("POST", "/v1/auth/signup", signupBody(leaving), ""), 201)
	eventually(t, "a fresh activation mail", func() bool { return h.mailsOf(leaving, kudos.MailActivation) >= 1 })
	h.recordHistory(id, "", "user_deletion_completed.json")
}

// TestUserDeletionErasesTheAddressesTheUserHadBefore: a member joined
// under one address, changed it, then deleted themself. The erasure
// scrubbed only the address they had at the end: the timeline's "invited"
// and "joined" events and the accepted invitation kept the first one, for
// the account's admins to read, for good.
func TestUserDeletionErasesTheAddressesTheUserHadBefore(t *testing.T) {
	t.Parallel()
	const before, after = "first-address@example.com", "second-address@example.com"
	h, _, _, member, memberID := memberWhoMoved(t, "PRO", "keeps-the-account@example.com", before, after)
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202)
	h.userErased(memberID)
	for _, hit := range h.rowsHolding(before, after) {
		t.Errorf("after the deletion %s", hit)
	}
}

// TestAnErasedAdminsInvitationsAreRevoked: an admin invited someone, then
// deleted themself. Removing, demoting or a member leaving revokes the
// invitations they sent; the erasure did not: the invitation stayed
// pending, holding a seat and reminding the invitee for up to a week,
// though accepting it answered 404 (its inviter gone).
func TestAnErasedAdminsInvitationsAreRevoked(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 3*time.Second)
	token, account := h.paidWith("team-owner-stays@example.com", "TEAM", "4242424242424242")
	admin, adminID := h.join(token, account, "leaving-admin@example.com", "admin")
	const invitee = "invited-by-the-leaving-admin@example.com"
	h.expect(h.invite(admin, account, invitee, "member"), 201)
	h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, admin), 202)
	h.userErased(adminID)
	if s := h.invitationStatus(account, invitee); s != "revoked" {
		t.Fatalf("the erased admin's invitation is %q, want revoked", s)
	}
	h.wantRows("billing_events", account, "type = 'invitation_revoked'", 1, "%d invitation_revoked events, want 1")
}

// userErased waits until the user id is erased.
func (h *harness) userErased(id string) {
	h.t.Helper()
	eventually(h.t, "the user to be erased", func() bool {
		var n int
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE id = $1`, id).Scan(&n)
		return n == 0
	})
}
