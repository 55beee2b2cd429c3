package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"kudos"
	"kudos/auth"
)

// exportReady waits for an export's mail, checks that its link opens the
// export's page, and returns the export as GET …/exports/{id} shows it.
func (h *harness) exportReady(token, email, id string) response {
	h.t.Helper()
	mail := h.waitMail(email, kudos.MailDataExportReady)
	if want := h.srv.Config.PublicURL + auth.ExportPath + id; mail.Link != want {
		h.t.Fatalf("the mail links to %q, want %q", mail.Link, want)
	}
	var r response
	eventually(h.t, "the export to be ready", func() bool {
		r = h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, token), 200)
		return r.str("status") == "ready"
	})
	return r
}

// exportZip downloads a ready export and returns its files by name.
func (h *harness) exportZip(r response) map[string][]byte {
	h.t.Helper()
	status, body, header := httpDo(h.t, "GET", r.str("download_url"), "", nil)
	if status != 200 || !strings.Contains(header.Get("Content-Disposition"), "kudos-export-") {
		h.t.Fatalf("download: %d %q", status, header.Get("Content-Disposition"))
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		h.t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			h.t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		rc.Close()
		files[f.Name] = b.Bytes()
	}
	return files
}

// TestDataExportOfAUser: a user's export holds their profile, preferences,
// memberships, sessions, feature requests and passkeys (names and dates) as JSON, never a password or
// token hash; asking twice while it is prepared builds one file; the mail
// links to the export's page; only its user can read it.
func TestDataExportOfAUser(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const email = "export-user@example.com"
	token, account := h.signedUpUser(email)
	other, _ := h.signedUpUser("export-other@example.com")
	h.expect(h.do("POST", "/v1/accounts/"+account+"/feature-request", featureRequest("feature_description", "an export button"), token), 200)
	h.expect(h.registerPasskey(token, newSoftAuthenticator(t), "Export laptop"), 201)

	h.worker.Stop() // nothing is built until the worker is back: the second ask finds the first
	id := h.expect(h.do("POST", "/v1/users/me/export", nil, token), 202).str("export_id")
	if again := h.expect(h.do("POST", "/v1/users/me/export", nil, token), 202).str("export_id"); again != id {
		t.Fatalf("a second ask while preparing started export %s beside %s", again, id)
	}
	if s := h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, token), 200); s.str("status") != "preparing" || s.Body["download_url"] != nil {
		t.Fatalf("while preparing: %s", s.Raw)
	}
	h.worker = h.startWorker(h.acts)

	files := h.exportZip(h.exportReady(token, email, id))
	for _, name := range []string{"README.txt", "user.json", "preferences.json", "memberships.json", "sessions.json", "feature_requests.json", "passkeys.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("the export lacks %s (has %v)", name, keys(files))
		}
	}
	var user map[string]any
	if err := json.Unmarshal(files["user.json"], &user); err != nil || user["email"] != email || user["firstname"] != "Ada" {
		t.Fatalf("user.json %s (%v)", files["user.json"], err)
	}
	if !bytes.Contains(files["feature_requests.json"], []byte("an export button")) ||
		!bytes.Contains(files["memberships.json"], []byte(account)) || !bytes.Contains(files["passkeys.json"], []byte("Export laptop")) {
		t.Fatalf("feature requests %s, memberships %s", files["feature_requests.json"], files["memberships.json"])
	}
	for name, b := range files {
		if bytes.Contains(b, []byte("export-other@example.com")) {
			t.Errorf("%s holds another user's data: %s", name, b)
		}
		if bytes.Contains(bytes.ToLower(b), []byte("argon2")) || bytes.Contains(b, []byte("password_hash")) || bytes.Contains(b, []byte("token_hash")) {
			t.Errorf("%s carries a secret: %s", name, b)
		}
	}
	h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, other), 404)
	h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, ""), 401)
	h.expect(h.do("GET", "/v1/users/me/exports/not-an-id", nil, token), 404)
}

// TestDataExportOfAnAccount: the owner's export of the account holds the
// account, members, subscription, billing address, invoices with their
// PDFs and the timeline; members and admins may not ask for it.
func TestDataExportOfAnAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const email = "export-owner@example.com"
	token, account, href := h.startPlan(email, "PRO")
	h.expect(h.payWith(href, "4242424242424242"), 200)
	base := "/v1/accounts/" + account
	var number string
	eventually(t, "the invoice's PDF", func() bool {
		inv := h.expect(h.do("GET", base+"/billing", nil, token), 200).Body["invoices"].([]any)[0].(map[string]any)
		number, _ = inv["invoice_url"].(string)
		return number != "" && h.do("POST", base+"/invoices/"+inv["id"].(string)+"/download", nil, token).Status == 200
	})
	member, _ := h.join(token, account, "export-member@example.com", "admin")
	h.expect(h.do("POST", base+"/export", nil, member), 403)

	id := h.expect(h.do("POST", base+"/export", nil, token), 202).str("export_id")
	r := h.exportReady(token, email, id)
	if r.Body["account_id"] != account {
		t.Fatalf("export %s", r.Raw)
	}
	files := h.exportZip(r)
	for _, name := range []string{"account.json", "members.json", "subscription.json", "billing_address.json", "invoices.json",
		"billing_timeline.json", "feature_requests.json", "invoices/" + number + ".pdf"} {
		if _, ok := files[name]; !ok {
			t.Errorf("the export lacks %s (has %v)", name, keys(files))
		}
	}
	if !bytes.HasPrefix(files["invoices/"+number+".pdf"], []byte("%PDF")) || !bytes.Contains(files["invoices.json"], []byte(number)) ||
		!bytes.Contains(files["members.json"], []byte("export-member@example.com")) ||
		!bytes.Contains(files["billing_timeline.json"], []byte("payment_succeeded")) {
		t.Fatalf("invoices %s, members %s, timeline %s", files["invoices.json"], files["members.json"], files["billing_timeline.json"])
	}
	// The account's export is not the admin's to read either.
	h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, member), 404)
}

// TestDataExportIsDeletedWhenItExpires: at KUDOS_EXPORT_TTL the workflow's
// timer deletes the file from storage and the export reads expired, with
// no download link.
func TestDataExportIsDeletedWhenItExpires(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.Config.ExportTTL = 3 * time.Second
	h = h.withTemporal(time.Hour)
	const email = "export-expiry@example.com"
	token, _ := h.signedUpUser(email)
	id := h.expect(h.do("POST", "/v1/users/me/export", nil, token), 202).str("export_id")
	url := h.exportReady(token, email, id).str("download_url")
	eventually(t, "the export to expire", func() bool {
		return h.expect(h.do("GET", "/v1/users/me/exports/"+id, nil, token), 200).str("status") == "expired"
	})
	if r := h.do("GET", "/v1/users/me/exports/"+id, nil, token); r.Body["download_url"] != nil {
		t.Fatalf("an expired export links to %v", r.Body["download_url"])
	}
	if status, _, _ := httpDo(t, "GET", url, "", nil); status != 404 {
		t.Fatalf("the file is still served after the expiry: %d", status)
	}
	h.recordHistory("export:"+id, "", "export_expired.json")
}

// TestDataExportSurvivesAWorkerDying: a worker that dies while it builds
// the file stops heartbeating; Temporal gives the build to another worker,
// which finishes it: one file, one mail.
func TestDataExportSurvivesAWorkerDying(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	const email = "export-crash@example.com"
	token, _ := h.signedUpUser(email)
	stalling := &stallingStorage{ObjectStorage: h.acts.Storage, stalled: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(stalling.release) })
	acts := *h.acts
	acts.Storage = stalling
	h.worker.Stop()
	dying := h.startWorker(&acts)
	id := h.expect(h.do("POST", "/v1/users/me/export", nil, token), 202).str("export_id")
	<-stalling.stalled // the dying worker is inside the build, storing the file
	dying.Stop()
	h.worker = h.startWorker(h.acts)
	h.exportZip(h.exportReady(token, email, id))
	if n := h.mailsOf(email, kudos.MailDataExportReady); n != 1 {
		t.Fatalf("%d export mails", n)
	}
	h.recordHistory("export:"+id, "", "export_worker_died.json")
}

// keys lists a map's keys (for failure messages).
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// stallingStorage is storage whose first Put never returns (a worker hung
// or dead in the middle of an upload): it closes stalled and blocks until
// the test ends.
type stallingStorage struct {
	kudos.ObjectStorage
	once    sync.Once
	stalled chan struct{}
	release chan struct{}
}

// Put stalls the first time, and stores after.
func (s *stallingStorage) Put(ctx context.Context, key string, body []byte, contentType string) error {
	first := false
	s.once.Do(func() { first = true })
	if first {
		close(s.stalled)
		<-s.release
		return errors.New("stalled")
	}
	return s.ObjectStorage.Put(ctx, key, body, contentType)
}
