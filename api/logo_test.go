package api_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
	"kudos/devstack"
	"kudos/internal/testimages"
	"kudos/workflows"
)

// httpDo sends a real HTTP request (to the local S3) and returns status and
// body.
func httpDo(t *testing.T, method, url, contentType string, body []byte) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out, res.Header
}

// logoAccount is a signed-up member with helpers for the logo routes.
type logoAccount struct {
	h         *harness
	token, id string
}

func (a logoAccount) workflowID() string { return "logo:" + a.id }

func (a logoAccount) path() string { return "/v1/accounts/" + a.id + "/upload-logo" }

func (a logoAccount) account() map[string]any {
	a.h.t.Helper()
	r := a.h.expect(a.h.do("GET", "/v1/accounts/"+a.id, nil, a.token), 200)
	return r.Body["account"].(map[string]any)
}

// upload asks for a link, PUTs data with contentType to it, and finalises.
// Data over 10 MB, which no link accepts, is written behind the api's back
// (as a storage that ignored the signed length would), so that the logo
// workflow's own size check is still exercised.
func (a logoAccount) upload(filename, contentType string, data []byte) {
	t := a.h.t
	t.Helper()
	size := min(len(data), kudos.LogoMaxBytes)
	link := a.h.expect(a.h.do("POST", a.path(), map[string]any{"filename": filename, "size": size}, a.token), 200).str("presigned_url")
	if len(data) > kudos.LogoMaxBytes {
		u, _ := url.Parse(link)
		key := strings.TrimPrefix(u.Path, "/"+devstack.S3Bucket+"/")
		if err := a.h.storage.Put(context.Background(), key, data, contentType); err != nil {
			t.Fatal(err)
		}
	} else if status, body, _ := httpDo(t, "PUT", link, contentType, data); status != 200 {
		t.Fatalf("upload to storage: %d %s", status, body)
	}
	// The worker is away while the upload is finalised, so that what the
	// account shows while processing is seen whatever the machine's speed.
	a.h.worker.Stop()
	fin := a.h.expect(a.h.do("PUT", a.path(), nil, a.token), 200)
	if !strings.HasPrefix(fin.str("img_url"), kudos.LogoTemporaryPrefix) {
		t.Fatalf("finalised img_url %q", fin.str("img_url"))
	}
	if got := a.account()["img_url"]; got != fin.str("img_url") {
		t.Fatalf("account img_url %v while processing", got)
	}
	a.h.worker = a.h.startWorker(a.h.acts)
}

// settled waits until the logo leaves the temporary state: up to 40 s, as
// a takeover first waits out the dead worker's heartbeat (LogoHeartbeat,
// 10 s), then processes the image again under -race on a machine that runs
// the browser tests and fuzzing beside it (20 s was once too short there).
func (a logoAccount) settled() map[string]any {
	a.h.t.Helper()
	var acc map[string]any
	eventuallyWithin(a.h.t, workflows.LogoHeartbeat+30*time.Second, "the logo to be processed", func() bool {
		acc = a.account()
		return kudos.LogoStateOf(acc["img_url"].(string)) != kudos.LogoProcessing
	})
	return acc
}

// objects lists the account's logo objects under prefix.
func (a logoAccount) objects(prefix string) []string {
	a.h.t.Helper()
	keys, err := a.h.storage.List(context.Background(), kudos.LogoKeyPrefix(prefix, uuid.MustParse(a.id)))
	if err != nil {
		a.h.t.Fatal(err)
	}
	return keys
}

// noTemporaryObjects waits until the workflow has deleted the temporary
// objects (its last step, after the account changed).
func (a logoAccount) noTemporaryObjects() {
	a.h.t.Helper()
	eventually(a.h.t, "no temporary objects", func() bool { return len(a.objects(kudos.LogoTemporaryPrefix)) == 0 })
}

func newLogoAccount(h *harness, email string) logoAccount {
	token, id := h.signedUpUser(email)
	t := h.t
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		rows, err := h.db.Pool.Query(context.Background(), `SELECT key, attempts, coalesce(last_error, ''), delivered_at IS NOT NULL
			FROM outbox WHERE kind = 'logo_start' ORDER BY id`)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			var key, lastErr string
			var attempts int
			var delivered bool
			_ = rows.Scan(&key, &attempts, &lastErr, &delivered)
			t.Logf("outbox %s: attempts %d, delivered %v, last error %q", key, attempts, delivered, lastErr)
		}
	})
	return logoAccount{h: h, token: token, id: id}
}

func TestLogoUploadIsProcessedPublishedAndDeleted(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	a := newLogoAccount(h, "logo@example.com")
	if acc := a.account(); acc["img_url"] != kudos.LogoPlaceholder || acc["logo_url"] != "" || acc["logo_error"] != "" {
		t.Fatalf("a new account: %v", acc)
	}

	a.upload("Our Logo.PNG", "image/png", testimages.PNG(testimages.Gradient(1200, 600)))
	// Upload is blocked while temporary (or public).
	h.expect(h.do("POST", a.path(), map[string]any{"filename": "other.png", "size": 100}, a.token), 409)
	acc := a.settled()
	imgURL, logoURL := acc["img_url"].(string), acc["logo_url"].(string)
	if !strings.HasPrefix(imgURL, kudos.LogoPublicPrefix+"logos/"+a.id+"/") || !strings.HasSuffix(imgURL, ".png") || acc["logo_error"] != "" {
		t.Fatalf("after processing: %v", acc)
	}
	if logoURL != h.storage.PublicURL(imgURL) {
		t.Fatalf("logo_url %q", logoURL)
	}
	// Served anonymously from the public URL, scaled to 512 px, still a PNG.
	status, body, header := httpDo(t, "GET", logoURL, "", nil)
	if status != 200 || header.Get("Content-Type") != "image/png" {
		t.Fatalf("public logo: %d %s", status, header.Get("Content-Type"))
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil || img.Bounds().Dx() != kudos.LogoMaxSide || img.Bounds().Dy() != kudos.LogoMaxSide/2 {
		t.Fatalf("published image %v %v", img.Bounds(), err)
	}
	a.noTemporaryObjects()
	h.expect(h.do("POST", a.path(), map[string]any{"filename": "other.png", "size": 100}, a.token), 409)
	h.recordHistory(a.workflowID(), "", "logo_published.json")

	h.expect(h.do("DELETE", a.path(), nil, a.token), 204)
	if acc := a.account(); acc["img_url"] != kudos.LogoPlaceholder || acc["logo_url"] != "" {
		t.Fatalf("after delete: %v", acc)
	}
	if pub := a.objects(kudos.LogoPublicPrefix); len(pub) != 0 {
		t.Fatalf("public objects left after delete: %v", pub)
	}
	if status, _, _ := httpDo(t, "GET", logoURL, "", nil); status == 200 {
		t.Fatal("the deleted logo is still served")
	}
	h.expect(h.do("DELETE", a.path(), nil, a.token), 204) // again: nothing to do

	// A JPEG is published as a JPEG.
	a.upload("photo.jpeg", "image/jpeg", testimages.JPEG(testimages.Gradient(200, 300)))
	if acc := a.settled(); !strings.HasSuffix(acc["img_url"].(string), ".jpg") || acc["logo_error"] != "" {
		t.Fatalf("jpeg: %v", acc)
	}
}

func TestLogoRefusalsSetThePlaceholderWithTheirReason(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	a := newLogoAccount(h, "refused@example.com")
	valid := testimages.JPEG(testimages.Gradient(64, 64))
	tooLarge := make([]byte, kudos.LogoMaxBytes+1)
	copy(tooLarge, testimages.PNG(testimages.Gradient(4, 4)))
	cases := []struct {
		name, filename, contentType, reason string
		data                                []byte
	}{
		{"a text file named .png", "notes.png", "image/png", kudos.LogoNotAnImage, []byte("just some text\n")},
		{"an SVG named .png", "vector.png", "image/png", kudos.LogoNotAnImage, []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"a truncated JPEG", "cut.jpg", "image/jpeg", kudos.LogoUnreadable, valid[:len(valid)/2]},
		{"a PNG header claiming 100000×100000", "bomb.png", "image/png", kudos.LogoTooManyPixels, testimages.BombPNG(100000, 100000)},
		{"10 MB + 1 byte", "huge.png", "image/png", kudos.LogoTooLarge, tooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a.h.t = t
			a.upload(c.filename, c.contentType, c.data)
			acc := a.settled()
			if acc["img_url"] != kudos.LogoPlaceholder || acc["logo_error"] != c.reason || acc["logo_url"] != "" {
				t.Fatalf("got %v, want the placeholder with %q", acc, c.reason)
			}
			a.noTemporaryObjects()
			if pub := a.objects(kudos.LogoPublicPrefix); len(pub) != 0 {
				t.Fatalf("public objects of a refused upload: %v", pub)
			}
			if c.reason == kudos.LogoTooManyPixels {
				h.recordHistory(a.workflowID(), "", "logo_refused.json")
			}
		})
	}
	a.h.t = t
	// The next upload forgets the refusal.
	a.upload("fine.png", "image/png", testimages.PNG(testimages.Gradient(10, 10)))
	if acc := a.settled(); kudos.LogoStateOf(acc["img_url"].(string)) != kudos.LogoReady || acc["logo_error"] != "" {
		t.Fatalf("after a good upload: %v", acc)
	}
}

func TestLogoUploadLinkChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	a := newLogoAccount(h, "links@example.com")
	for name, c := range map[string]struct {
		body   any
		status int
		field  string
	}{
		"a GIF":         {map[string]any{"filename": "anim.gif"}, 422, kudos.FNotAnImage},
		"an SVG":        {map[string]any{"filename": "logo.svg"}, 422, kudos.FNotAnImage},
		"no extension":  {map[string]any{"filename": "png"}, 422, kudos.FNotAnImage},
		"empty":         {map[string]any{"filename": "  "}, 422, kudos.FRequired},
		"BLANK":         {map[string]any{"filename": "BLANK"}, 422, kudos.FRequired},
		"too long":      {map[string]any{"filename": strings.Repeat("a", 300) + ".png"}, 422, kudos.FTooLong},
		"no filename":   {map[string]any{}, 422, kudos.FRequired},
		"a number":      {map[string]any{"filename": 7}, 400, kudos.FInvalidValue},
		"unknown field": {map[string]any{"filename": "a.png", "key": "public/x.png"}, 400, ""},
	} {
		r := h.expect(h.do("POST", a.path(), c.body, a.token), c.status)
		if r.field("filename") != c.field {
			t.Errorf("%s: fields %s", name, r.Raw)
		}
	}
	// The size is needed, at most 10 MB (ARCHITECTURE §4), and signed.
	for name, c := range map[string]struct {
		size any
		code string
	}{"no size": {nil, kudos.FRequired}, "zero": {0, kudos.FRequired}, "11 MB": {11 << 20, kudos.FTooLarge}, "10 MB + 1": {kudos.LogoMaxBytes + 1, kudos.FTooLarge}} {
		body := map[string]any{"filename": "a.png"}
		if c.size != nil {
			body["size"] = c.size
		}
		if r := h.expect(h.do("POST", a.path(), body, a.token), 422); r.field("size") != c.code {
			t.Errorf("%s: %s", name, r.Raw)
		}
	}
	img := testimages.PNG(testimages.Gradient(5, 5))
	// Finalising with nothing asked for, or nothing uploaded, is 422.
	h.expect(h.do("PUT", a.path(), nil, a.token), 422)
	link := h.expect(h.do("POST", a.path(), map[string]any{"filename": "a.png", "size": len(img)}, a.token), 200).str("presigned_url")
	h.expect(h.do("PUT", a.path(), nil, a.token), 422)
	// Storage refuses a body longer than the size signed into the link.
	if status, _, _ := httpDo(t, "PUT", link, "image/png", append(img, make([]byte, 1<<20)...)); status != 403 {
		t.Fatalf("upload longer than signed: %d", status)
	}
	h.expect(h.do("PUT", a.path(), `{"key":"public/x"}`, a.token), 400)
	// The link is signed for image/png: another type is refused by storage.
	if status, _, _ := httpDo(t, "PUT", link, "text/html", []byte("<script>alert(1)</script>")); status != 403 {
		t.Fatalf("upload with another content type: %d", status)
	}
	// Asking again replaces the link: the old one's upload is not finalised.
	if status, _, _ := httpDo(t, "PUT", link, "image/png", img); status != 200 {
		t.Fatal(status)
	}
	a.upload("b.png", "image/png", testimages.PNG(testimages.Gradient(6, 6)))
	acc := a.settled()
	if kudos.LogoStateOf(acc["img_url"].(string)) != kudos.LogoReady {
		t.Fatal(acc)
	}
	a.noTemporaryObjects()
	// A retried finalisation answers the current reference.
	if again := h.expect(h.do("PUT", a.path(), nil, a.token), 200); again.str("img_url") != acc["img_url"] {
		t.Fatalf("finalised again: %s", again.Raw)
	}
	// Clearing the logo also deletes an upload reserved and never finalised.
	h.expect(h.do("DELETE", a.path(), nil, a.token), 204)
	link = h.expect(h.do("POST", a.path(), map[string]any{"filename": "c.png", "size": len(img)}, a.token), 200).str("presigned_url")
	if status, _, _ := httpDo(t, "PUT", link, "image/png", img); status != 200 {
		t.Fatal(status)
	}
	h.expect(h.do("DELETE", a.path(), nil, a.token), 204)
	a.noTemporaryObjects()
}

// blockingStorage lets everything through until the first public Put has
// been written, then hangs that call as a worker that died there would.
type blockingStorage struct {
	kudos.ObjectStorage
	once    sync.Once
	written chan struct{} // closed after the public object is written
	release chan struct{} // closed at the end of the test
}

func (b *blockingStorage) Put(ctx context.Context, key string, body []byte, contentType string) error {
	err := b.ObjectStorage.Put(ctx, key, body, contentType)
	if strings.HasPrefix(key, kudos.LogoPublicPrefix) {
		b.once.Do(func() { close(b.written); <-b.release })
	}
	return err
}

// A worker that dies after writing the public object but before the account
// points at it: another worker takes the activity over (after the heartbeat
// timeout), writes the same object again, and the account ends with exactly
// one public logo and no temporary object.
func TestLogoSurvivesAWorkerDyingMidProcessing(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.worker.Stop()
	blocking := &blockingStorage{ObjectStorage: h.storage, written: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(blocking.release) })
	dying := *h.acts
	dying.Storage = blocking
	first := h.startWorker(&dying)

	a := newLogoAccount(h, "crash@example.com")
	// A small image: the takeover is what is tested (the resizing is
	// TestLogoUploadIsProcessedPublishedAndDeleted's); image work under
	// -race on a busy machine ran this test out of time once.
	a.upload("logo.png", "image/png", testimages.PNG(testimages.Gradient(120, 120)))
	select {
	case <-blocking.written:
	case <-time.After(60 * time.Second):
		t.Fatal("the first worker never wrote the public object")
	}
	first.Stop() // the worker is gone; its activity never reports
	if got := a.account()["img_url"].(string); kudos.LogoStateOf(got) != kudos.LogoProcessing {
		t.Fatalf("img_url %q while the first attempt hangs", got)
	}
	h.startWorker(h.acts)
	acc := a.settled()
	if kudos.LogoStateOf(acc["img_url"].(string)) != kudos.LogoReady {
		t.Fatalf("after the takeover: %v", acc)
	}
	if pub := a.objects(kudos.LogoPublicPrefix); len(pub) != 1 || pub[0] != acc["img_url"] {
		t.Fatalf("public objects %v, img_url %v", pub, acc["img_url"])
	}
	a.noTemporaryObjects()
	h.recordHistory(a.workflowID(), "", "logo_worker_died.json")
}

// Deleting a logo while it is processed leaves the placeholder, and the
// workflow removes what it made.
func TestLogoDeletedWhileProcessing(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	h.worker.Stop()
	blocking := &blockingStorage{ObjectStorage: h.storage, written: make(chan struct{}), release: make(chan struct{})}
	slow := *h.acts
	slow.Storage = blocking
	h.startWorker(&slow)

	a := newLogoAccount(h, "changed-mind@example.com")
	a.upload("logo.png", "image/png", testimages.PNG(testimages.Gradient(300, 300)))
	<-blocking.written
	h.expect(h.do("DELETE", a.path(), nil, a.token), 204)
	close(blocking.release)
	eventually(t, "the workflow to clean up", func() bool {
		return len(a.objects(kudos.LogoPublicPrefix)) == 0 && len(a.objects(kudos.LogoTemporaryPrefix)) == 0
	})
	if acc := a.account(); acc["img_url"] != kudos.LogoPlaceholder || acc["logo_error"] != "" {
		t.Fatalf("after delete during processing: %v", acc)
	}
}
