package api_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"kudos"
)

// exportStatus is an export's status as Postgres has it ("" when gone).
func (h *harness) exportStatus(id string) string {
	var s string
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT status FROM data_exports WHERE id = $1`, id).Scan(&s)
	return s
}

// TestAnAccountExportBelongsToItsCurrentOwner (issue 35 item 4): an
// owner's account export still being prepared when the ownership moves is
// void: never built, never mailed, 404 to the ex-owner; the new owner's
// request starts an export of their own rather than answering the
// ex-owner's id. A ready export is void the same way when the ownership
// moves on (404, no download link), and nothing else changes: the user's
// own export stays theirs.
func TestAnAccountExportBelongsToItsCurrentOwner(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const ownerEmail, heirEmail = "export-ex-owner@example.com", "export-heir@example.com"
	owner, account := h.signedUpUser(ownerEmail)
	heir, heirID := h.join(owner, account, heirEmail, "admin")
	base := "/v1/accounts/" + account

	h.worker.Stop() // the owner's export is still preparing at the transfer
	old := h.expect(h.do("POST", base+"/export", nil, owner), 202).str("export_id")
	mine := h.expect(h.do("POST", "/v1/users/me/export", nil, owner), 202).str("export_id")
	h.expect(h.do("POST", base+"/transfer-ownership", map[string]any{"user_id": heirID, "current_password": "Secret1!"}, owner), 200)
	h.expect(h.do("GET", "/v1/users/me/exports/"+old, nil, owner), 404)
	fresh := h.expect(h.do("POST", base+"/export", nil, heir), 202).str("export_id")
	if fresh == old {
		t.Fatal("the new owner's request was answered with the ex-owner's export")
	}
	h.worker = h.startWorker(h.acts)

	h.exportReady(heir, heirEmail, fresh)
	h.exportReady(owner, ownerEmail, mine) // one's own data stays one's own
	eventuallyWithin(t, 30*time.Second, "the void export's workflow to end", func() bool { return h.workflowClosed("export:" + old) })
	h.expect(h.do("GET", "/v1/users/me/exports/"+old, nil, owner), 404)
	if s := h.exportStatus(old); s != string(kudos.ExportVoid) {
		t.Fatalf("the ex-owner's export is %q, want void", s)
	}
	if n := h.mailsOf(ownerEmail, kudos.MailDataExportReady); n != 1 {
		t.Fatalf("%d export mails to the ex-owner, want 1 (their own data's)", n)
	}

	// A ready export is void when the ownership moves on: 404, no link.
	h.expect(h.do("POST", base+"/transfer-ownership", map[string]any{"user_id": h.memberID(heir, account, ownerEmail),
		"current_password": "Secret1!"}, heir), 200)
	h.expect(h.do("GET", "/v1/users/me/exports/"+fresh, nil, heir), 404)
	if s := h.exportStatus(fresh); s != string(kudos.ExportVoid) {
		t.Fatalf("the ex-owner's ready export is %q, want void", s)
	}
	// The owner again asks anew: an export of their own, not a void one.
	if again := h.expect(h.do("POST", base+"/export", nil, owner), 202).str("export_id"); again == old || again == fresh {
		t.Fatalf("the owner's new request answered %s", again)
	}
}

// TestAnExportIsBuiltOnlyForTheCurrentOwner (issue 35 item 4): however the
// ownership ended (a change made straight in Postgres stands for any path
// that voided nothing), the build checks the requester again: the export
// is void, no file is stored, no mail goes, and the ex-owner reads 404.
func TestAnExportIsBuiltOnlyForTheCurrentOwner(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const ownerEmail = "export-build-owner@example.com"
	owner, account := h.signedUpUser(ownerEmail)
	_, heirID := h.join(owner, account, "export-build-heir@example.com", "admin")
	h.worker.Stop()
	id := h.expect(h.do("POST", "/v1/accounts/"+account+"/export", nil, owner), 202).str("export_id")
	if _, err := h.db.Pool.Exec(t.Context(), `UPDATE memberships SET role = CASE WHEN user_id = $2 THEN 'owner' ELSE 'admin' END
		WHERE account_id = $1`, account, heirID); err != nil {
		t.Fatal(err)
	}
	h.worker = h.startWorker(h.acts)
	eventuallyWithin(t, 30*time.Second, "the export's workflow to end", func() bool { return h.workflowClosed("export:" + id) })
	if s := h.exportStatus(id); s != string(kudos.ExportVoid) {
		t.Fatalf("an export built for an ex-owner is %q, want void", s)
	}
	if n := h.mailsOf(ownerEmail, kudos.MailDataExportReady); n != 0 {
		t.Fatalf("%d export mails to the ex-owner", n)
	}
	if _, _, err := h.storage.Open(context.Background(), "exports/"+id+".zip"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("the ex-owner's export was stored (%v)", err)
	}
	h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, owner), 404)
	h.recordHistory("export:"+id, "", "export_void.json")
}

// gatedStorage is storage whose Put waits, once, for the test: it closes
// reached and stores only when release is closed.
type gatedStorage struct {
	kudos.ObjectStorage
	once             sync.Once
	reached, release chan struct{}
}

// Put waits for release the first time, then stores.
func (s *gatedStorage) Put(ctx context.Context, key string, body []byte, contentType string) error {
	s.once.Do(func() {
		close(s.reached)
		<-s.release
	})
	return s.ObjectStorage.Put(ctx, key, body, contentType)
}

// TestAnExportVoidWhileBuiltIsNotPublished (issue 35 item 4): the
// ownership moves while the owner's export is being stored: the publish
// finds it void, deletes the file and mails nobody; the ex-owner reads 404.
func TestAnExportVoidWhileBuiltIsNotPublished(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.ExportTTL = 3 * time.Second
	h = h.withTemporal(time.Hour)
	const ownerEmail = "export-race-owner@example.com"
	owner, account := h.signedUpUser(ownerEmail)
	_, heirID := h.join(owner, account, "export-race-heir@example.com", "admin")
	gated := &gatedStorage{ObjectStorage: h.acts.Storage, reached: make(chan struct{}), release: make(chan struct{})}
	acts := *h.acts
	acts.Storage = gated
	h.worker.Stop()
	h.worker = h.startWorker(&acts)
	id := h.expect(h.do("POST", "/v1/accounts/"+account+"/export", nil, owner), 202).str("export_id")
	<-gated.reached // built, being stored
	h.expect(h.do("POST", "/v1/accounts/"+account+"/transfer-ownership", map[string]any{"user_id": heirID, "current_password": "Secret1!"}, owner), 200)
	close(gated.release)
	eventuallyWithin(t, 30*time.Second, "the export's workflow to end", func() bool { return h.workflowClosed("export:" + id) })
	if s := h.exportStatus(id); s != string(kudos.ExportVoid) {
		t.Fatalf("an export void while built is %q, want void", s)
	}
	if n := h.mailsOf(ownerEmail, kudos.MailDataExportReady); n != 0 {
		t.Fatalf("%d export mails to the ex-owner", n)
	}
	h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, owner), 404)
}
