package s3store_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"kudos"
	"kudos/devstack"
	"kudos/storage/s3store"
)

// newStore starts the development S3 on a fresh directory and returns a
// Store on its bucket, configured as the development binary does.
func newStore(t *testing.T) (*s3store.Store, *devstack.S3) {
	t.Helper()
	srv, err := devstack.StartS3("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	st, err := s3store.New(t.Context(), s3store.Config{
		Endpoint:        srv.Endpoint(),
		Region:          devstack.S3Region,
		Bucket:          devstack.S3Bucket,
		AccessKeyID:     devstack.S3AccessKey,
		SecretAccessKey: devstack.S3SecretKey,
		PathStyle:       true,
		PublicBaseURL:   srv.Endpoint() + "/" + devstack.S3Bucket,
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second call finds the bucket
		if err := st.EnsureBucket(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	return st, srv
}

func TestStore_RoundTrip(t *testing.T) {
	st, _ := newStore(t)
	tests := []struct {
		name, key, contentType string
		body                   []byte
	}{
		{"pdf", "invoices/acc-1/inv-1.pdf", "application/pdf", []byte("%PDF-1.7 fake")},
		{"png under public", "public/logos/acc-1.png", "image/png", []byte("\x89PNG\r\n\x1a\n")},
		{"empty body", "tmp/empty.txt", "text/plain", []byte{}},
		{"key with spaces", "tmp/a b/c d.txt", "text/plain; charset=utf-8", []byte("hello")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			if err := st.Put(ctx, tt.key, tt.body, tt.contentType); err != nil {
				t.Fatal(err)
			}
			want := kudos.ObjectInfo{Size: int64(len(tt.body)), ContentType: tt.contentType}
			if info, err := st.Stat(ctx, tt.key); err != nil || info != want {
				t.Fatalf("Stat = %+v, %v; want %+v", info, err, want)
			}
			rc, info, err := st.Open(ctx, tt.key)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			got, err := io.ReadAll(rc)
			if err != nil || !bytes.Equal(got, tt.body) || info != want {
				t.Fatalf("Open = %q %+v, %v; want %q %+v", got, info, err, tt.body, want)
			}
		})
	}
}

func TestStore_Missing(t *testing.T) {
	st, _ := newStore(t)
	tests := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"open", func(ctx context.Context) error { _, _, err := st.Open(ctx, "nope"); return err }},
		{"stat", func(ctx context.Context) error { _, err := st.Stat(ctx, "nope"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(t.Context()); kudos.ErrorCode(err) != kudos.ENotFound {
				t.Fatalf("err = %v, want code %s", err, kudos.ENotFound)
			}
		})
	}
}

func TestStore_Delete(t *testing.T) {
	st, _ := newStore(t)
	ctx := t.Context()
	if err := st.Put(ctx, "tmp/x", []byte("x"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := st.Delete(ctx, "tmp/x"); err != nil {
			t.Fatalf("delete #%d: %v", i+1, err)
		}
	}
	if _, err := st.Stat(ctx, "tmp/x"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("Stat after delete = %v, want %s", err, kudos.ENotFound)
	}
	if err := st.Delete(ctx, "never/there"); err != nil {
		t.Fatalf("delete of a missing key: %v", err)
	}
}

func TestStore_PresignPut(t *testing.T) {
	st, _ := newStore(t)
	tests := []struct {
		name        string
		contentType string // sent by the "browser"
		wantStatus  int
	}{
		{"signed type", "image/png", http.StatusOK},
		{"other type", "image/jpeg", http.StatusForbidden},
		{"no type", "", http.StatusForbidden},
		{"longer body", "image/png", http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			key := "tmp/logos/" + strings.ReplaceAll(tt.name, " ", "-")
			u, err := st.PresignPut(ctx, key, "image/png", 9, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(u, "X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost") {
				t.Fatalf("Content-Type and Content-Length are not signed: %s", u)
			}
			body := "\x89PNG fake"
			if tt.name == "longer body" {
				body += strings.Repeat("x", 10<<20) // what a link without a signed length would take
			}
			resp := do(t, http.MethodPut, u, tt.contentType, body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("PUT status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			info, err := st.Stat(ctx, key)
			if tt.wantStatus == http.StatusOK && (err != nil || info.ContentType != "image/png" || info.Size != 9) {
				t.Fatalf("Stat = %+v, %v; want a 9-byte image/png", info, err)
			} else if tt.wantStatus != http.StatusOK && kudos.ErrorCode(err) != kudos.ENotFound {
				t.Fatalf("Stat after refused PUT = %+v, %v; want %s", info, err, kudos.ENotFound)
			}
		})
	}
}

func TestStore_PresignGet(t *testing.T) {
	st, _ := newStore(t)
	ctx := t.Context()
	body := "%PDF-1.7 invoice"
	if err := st.Put(ctx, "invoices/1.pdf", []byte(body), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	u, err := st.PresignGet(ctx, "invoices/1.pdf", "INV-2024-0001.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url   string
		wantStatus  int
		disposition string
	}{
		{"as signed", u, http.StatusOK, `attachment; filename="INV-2024-0001.pdf"`},
		{"filename changed", strings.Replace(u, "INV-2024-0001", "other", 1), http.StatusForbidden, ""},
		{"other key", strings.Replace(u, "invoices/1.pdf", "invoices/2.pdf", 1), http.StatusForbidden, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, http.MethodGet, tt.url, "", "")
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("GET status = %d (%s), want %d", resp.StatusCode, got, tt.wantStatus)
			}
			if tt.wantStatus == http.StatusOK &&
				(string(got) != body || resp.Header.Get("Content-Disposition") != tt.disposition) {
				t.Fatalf("GET = %q, disposition %q; want %q, %q", got, resp.Header.Get("Content-Disposition"), body, tt.disposition)
			}
		})
	}
}

// TestStore_PresignExpires relies on the development server checking
// X-Amz-Date + X-Amz-Expires, as S3 does.
func TestStore_PresignExpires(t *testing.T) {
	t.Parallel()
	st, _ := newStore(t)
	ctx := t.Context()
	if err := st.Put(ctx, "invoices/1.pdf", []byte("pdf"), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	get, err := st.PresignGet(ctx, "invoices/1.pdf", "1.pdf", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	put, err := st.PresignPut(ctx, "tmp/late.png", "image/png", 1, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // X-Amz-Date has whole seconds
	for _, r := range []struct{ method, url, ct string }{{http.MethodGet, get, ""}, {http.MethodPut, put, "image/png"}} {
		resp := do(t, r.method, r.url, r.ct, "x")
		msg, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(msg), "Request has expired") {
			t.Fatalf("%s after expiry = %d %s, want 403 Request has expired", r.method, resp.StatusCode, msg)
		}
	}
}

func TestStore_PresignTTL(t *testing.T) {
	st, _ := newStore(t)
	for _, ttl := range []time.Duration{0, -time.Second, 8 * 24 * time.Hour} {
		if _, err := st.PresignGet(t.Context(), "k", "f", ttl); err == nil {
			t.Errorf("PresignGet with ttl %s: no error", ttl)
		}
	}
}

func TestStore_PublicURL(t *testing.T) {
	tests := []struct{ name, base, key, want string }{
		{"cdn", "https://cdn.example.com", "public/logos/a.png", "https://cdn.example.com/public/logos/a.png"},
		{"trailing slash", "https://cdn.example.com/", "public/a.png", "https://cdn.example.com/public/a.png"},
		{"base with path", "http://127.0.0.1:9000/kudos", "public/a.png", "http://127.0.0.1:9000/kudos/public/a.png"},
		{"escaped segment", "https://cdn.example.com", "public/a b#1.png", "https://cdn.example.com/public/a%20b%231.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := s3store.New(t.Context(), s3store.Config{Endpoint: "http://127.0.0.1:1", Bucket: "b", PublicBaseURL: tt.base,
				AccessKeyID: "k", SecretAccessKey: "s"})
			if err != nil {
				t.Fatal(err)
			}
			if got := st.PublicURL(tt.key); got != tt.want {
				t.Fatalf("PublicURL(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

// In development PublicBaseURL points at the local bucket, which serves the
// public prefix without a signature and nothing else.
func TestStore_PublicURLServedLocally(t *testing.T) {
	st, _ := newStore(t)
	ctx := t.Context()
	for _, key := range []string{"public/logos/a.png", "private/a.png"} {
		if err := st.Put(ctx, key, []byte("png"), "image/png"); err != nil {
			t.Fatal(err)
		}
	}
	if resp := do(t, http.MethodGet, st.PublicURL("public/logos/a.png"), "", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("public object: status %d, want 200", resp.StatusCode)
	}
	if resp := do(t, http.MethodGet, st.PublicURL("private/a.png"), "", ""); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("private object: status %d, want 403", resp.StatusCode)
	}
}

// do sends a request as a browser would, with no SDK involved.
func do(t *testing.T, method, url, contentType, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
