package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/activities"
	"kudos/dispatch"
	"kudos/store"
	"kudos/workflows"
)

// The paths of the account deletion's workflow that issue 34's review found
// unrecorded, each run on a real Temporal and recorded (workflows/testdata).

// cancelAtErasure is the activities' store with a cancel that reaches
// Postgres just after the workflow found the deletion due: the erasure's
// transaction is the first to see it.
type cancelAtErasure struct {
	activities.Store
	db *store.DB
}

// EraseAccount cancels the deletion (as the owner's cancel would, its
// update lost), then erases as the store does.
func (s cancelAtErasure) EraseAccount(ctx context.Context, accountID uuid.UUID) (store.ErasedAccount, error) {
	if _, err := s.db.Pool.Exec(ctx, `UPDATE accounts SET deletion_at = NULL WHERE id = $1`, accountID); err != nil {
		return store.ErasedAccount{}, err
	}
	return s.Store.EraseAccount(ctx, accountID)
}

// withDeletionGrace is a harness on Temporal whose deletions are due after
// grace.
func withDeletionGrace(t *testing.T, grace time.Duration) *harness {
	h := newHarness(t)
	h.srv.Config.DeletionGrace = grace
	return h.withTemporal(time.Hour)
}

// accountLeft reports whether the account is still there (not erased).
func (h *harness) accountLeft(account string) bool {
	h.t.Helper()
	var deleted *time.Time
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT deleted_at FROM accounts WHERE id = $1`, account).Scan(&deleted); err != nil {
		h.t.Fatal(err)
	}
	return deleted == nil
}

// TestAccountDeletionCancelledAtItsErasureEndsCancelled (issue 34, item 10):
// a cancel that reaches Postgres between the workflow's due check and the
// erasure refuses the erasure, and the deletion ends as cancelled instead
// of retrying the erasure forever.
func TestAccountDeletionCancelledAtItsErasureEndsCancelled(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account := h.signedUpUser("cancel-at-erasure@example.com")
	acts := *h.acts
	acts.Store = cancelAtErasure{Store: h.acts.Store, db: h.db}
	h.worker.Stop()
	h.worker = h.startWorker(&acts)
	at := h.scheduleDeletion(token, account)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeCancelled {
		t.Fatalf("workflow %+v", res)
	}
	if !h.accountLeft(account) {
		t.Fatal("a cancelled deletion erased the account")
	}
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200)
	h.recordHistory(workflows.AccountDeletionWorkflowID(uuid.MustParse(account), at), "", "deletion_erasure_refused.json")
}

// TestAccountDeletionCancelledOnlyInPostgres: a cancel whose update never
// reached the workflow is seen in Postgres at the due date: cancelled,
// nothing erased.
func TestAccountDeletionCancelledOnlyInPostgres(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account := h.signedUpUser("cancel-in-postgres@example.com")
	at := h.scheduleDeletion(token, account)
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE accounts SET deletion_at = NULL WHERE id = $1`, account); err != nil {
		t.Fatal(err)
	}
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeCancelled {
		t.Fatalf("workflow %+v", res)
	}
	if !h.accountLeft(account) {
		t.Fatal("a cancelled deletion erased the account")
	}
	h.recordHistory(workflows.AccountDeletionWorkflowID(uuid.MustParse(account), at), "", "deletion_cancelled_in_postgres.json")
}

// TestAccountDeletionMovedLater: a due date moved later in Postgres is
// waited for; the account is erased then, not before.
func TestAccountDeletionMovedLater(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account := h.signedUpUser("moved-later@example.com")
	at := h.scheduleDeletion(token, account)
	later := at.Add(4 * time.Second)
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE accounts SET deletion_at = $2 WHERE id = $1`, account, later); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(at) + time.Second)
	if !h.accountLeft(account) {
		t.Fatal("erased at the old date")
	}
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("workflow %+v", res)
	}
	if time.Now().Before(later) {
		t.Fatal("erased before the new date")
	}
	h.recordHistory(workflows.AccountDeletionWorkflowID(uuid.MustParse(account), at), "", "deletion_moved_later.json")
}

// TestAccountDeletionAlreadyErased: an account erased before its
// workflow's due check (an earlier attempt whose answer was lost) is
// finished from the erasure's record: deleted, once.
func TestAccountDeletionAlreadyErased(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account := h.signedUpUser("already-erased@example.com")
	at := h.scheduleDeletion(token, account)
	h.worker.Stop()
	time.Sleep(time.Until(at) + 500*time.Millisecond)
	if _, err := h.db.EraseAccount(context.Background(), uuid.MustParse(account)); err != nil {
		t.Fatal(err)
	}
	h.worker = h.startWorker(h.acts)
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("workflow %+v", res)
	}
	h.wantRows("billing_events", account, "type = 'deletion_completed'", 1, "%d deletion_completed events, want 1")
	h.recordHistory(workflows.AccountDeletionWorkflowID(uuid.MustParse(account), at), "", "deletion_already_erased.json")
}

// TestUserDeletionBlockedByANewOwnershipThenCancelled: a member whose
// deletion is scheduled becomes an account's owner during the grace
// period; at the due date the erasure is blocked (they own it) and waits a
// day; the user cancels meanwhile and the deletion ends as cancelled.
// Since issue 35 no route makes them the owner (a transfer to them is 409:
// TestNoOwnershipToAMemberBeingDeleted); the ownership is moved in Postgres,
// as it stood for an account made theirs before that rule.
func TestUserDeletionBlockedByANewOwnershipThenCancelled(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 2*time.Second)
	token, account := h.signedUpUser("handing-on@example.com")
	const heir = "heir-leaving@example.com"
	member, memberID := h.join(token, account, heir, "admin")
	at := h.expect(h.do("DELETE", "/v1/users/me", map[string]any{"current_password": "Secret1!"}, member), 202).str("deletion_at")
	when, _ := time.Parse(time.RFC3339, at)
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership",
		map[string]any{"user_id": memberID, "current_password": "Secret1!"}, token), 409)
	h.exec(`UPDATE memberships SET role = CASE WHEN user_id = $2 THEN 'owner' ELSE 'admin' END WHERE account_id = $1`,
		account, memberID)
	id := workflows.UserDeletionWorkflowID(uuid.MustParse(memberID), when)
	if h.roleOf(account, heir) != "owner" {
		t.Fatal("the ownership did not pass")
	}
	eventually(t, "the erasure to be blocked", func() bool { return h.completedActivities(id, workflows.ActivityEraseUser) == 1 })
	if h.workflowClosed(id) {
		t.Fatal("a blocked user deletion ended")
	}
	h.expect(h.do("POST", "/v1/users/me/deletion/cancel", map[string]any{"current_password": "Secret1!"}, member), 200)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res workflows.AccountDeletionResult
	if err := h.srv.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil || res.Outcome != workflows.DeletionOutcomeCancelled {
		t.Fatalf("user deletion %+v (%v)", res, err)
	}
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, member), 200)
	h.recordHistory(id, "", "user_deletion_blocked_cancelled.json")
}

// exportGone starts an export with the worker stopped, erases what it
// belongs to with erase, and checks that its workflow ends Gone once a
// worker runs again; the history is recorded as name.
func (h *harness) exportGone(token, path string, erase func(), name string) {
	h.t.Helper()
	h.worker.Stop()
	exportID := h.expect(h.do("POST", path, nil, token), 202).str("export_id")
	erase()
	h.worker = h.startWorker(h.acts)
	id := workflows.ExportWorkflowID(uuid.MustParse(exportID))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	eventually(h.t, "the export's workflow", func() bool {
		_, err := h.srv.Temporal.DescribeWorkflowExecution(ctx, id, "")
		return err == nil
	})
	var res workflows.ExportResult
	if err := h.srv.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil || !res.Gone {
		h.t.Fatalf("export %+v (%v)", res, err)
	}
	h.recordHistory(id, "", name)
}

// TestExportOfAnAccountErasedMeanwhile: the account is erased before its
// export is built: the export's workflow ends Gone, storing nothing.
func TestExportOfAnAccountErasedMeanwhile(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.signedUpUser("export-erased-account@example.com")
	h.exportGone(token, "/v1/accounts/"+account+"/export", func() {
		ctx := context.Background()
		if _, err := h.db.Pool.Exec(ctx, `UPDATE accounts SET deletion_at = now() - interval '1 second' WHERE id = $1`, account); err != nil {
			t.Fatal(err)
		}
		if _, err := h.db.EraseAccount(ctx, uuid.MustParse(account)); err != nil {
			t.Fatal(err)
		}
	}, "export_gone_account_erased.json")
}

// TestExportOfAUserErasedMeanwhile: the user is erased before their export
// is built: the export's workflow ends Gone.
func TestExportOfAUserErasedMeanwhile(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.signedUpUser("export-keeper@example.com")
	member, memberID := h.join(token, account, "export-erased-user@example.com", "member")
	h.exportGone(member, "/v1/users/me/export", func() {
		ctx := context.Background()
		if _, err := h.db.Pool.Exec(ctx, `UPDATE users SET deletion_at = now() - interval '1 second' WHERE id = $1`, memberID); err != nil {
			t.Fatal(err)
		}
		if _, err := h.db.EraseUser(ctx, uuid.MustParse(memberID), dispatch.Team(kudos.InvitationTiming{})); err != nil {
			t.Fatal(err)
		}
	}, "export_gone_user_erased.json")
}

// completedActivities counts the activities of type name that completed
// in the workflow's current run (none while it has not started yet).
func (h *harness) completedActivities(workflowID, name string) int {
	h.t.Helper()
	it := h.srv.Temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, 0)
	scheduled := map[int64]string{}
	n := 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return 0
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && scheduled[a.GetScheduledEventId()] == name {
			n++
		}
	}
	return n
}

// TestDeletionWithoutAWorkerIs503: no worker answers the subscription
// workflow's update that readies the deletion (all of them away): the owner
// gets 503 "try again in a moment", not 500, and nothing is scheduled.
func TestDeletionWithoutAWorkerIs503(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, time.Hour)
	token, account := h.signedUpUser("no-worker@example.com")
	h.worker.Stop()
	h.srv.Dispatcher.UpdateTimeout = 3 * time.Second // the 503 is the same after 20 s
	h.expect(h.do("DELETE", "/v1/accounts/"+account, map[string]any{"current_password": "Secret1!"}, token), 503)
	h.wantRows("billing_events", account, "type = 'deletion_scheduled'", 0, "%d deletions scheduled without a worker")
}
