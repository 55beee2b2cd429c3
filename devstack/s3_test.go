package devstack

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"kudos"
	"kudos/storage/s3store"
)

func startS3(t *testing.T, dir string) *S3 {
	t.Helper()
	s, err := StartS3("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if !strings.HasPrefix(s.Endpoint(), "http://127.0.0.1:") {
		t.Fatalf("Endpoint() = %q", s.Endpoint())
	}
	return s
}

func storeOn(t *testing.T, s *S3, key, secret string) *s3store.Store {
	t.Helper()
	st, err := s3store.New(t.Context(), s3store.Config{Endpoint: s.Endpoint(), Region: S3Region, Bucket: S3Bucket,
		AccessKeyID: key, SecretAccessKey: secret, PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestS3_CORS(t *testing.T) {
	s := startS3(t, "")
	const origin = "http://127.0.0.1:5173"
	tests := []struct {
		name, method, reqHeaders string
		wantStatus               int
		want                     map[string]string
	}{
		{"preflight for upload", http.MethodOptions, "content-type", http.StatusNoContent, map[string]string{
			"Access-Control-Allow-Origin":   origin,
			"Access-Control-Allow-Methods":  "GET, PUT, HEAD",
			"Access-Control-Allow-Headers":  "content-type",
			"Access-Control-Expose-Headers": "ETag",
		}},
		{"preflight echoes headers", http.MethodOptions, "x-custom,content-type", http.StatusNoContent, map[string]string{
			"Access-Control-Allow-Headers": "x-custom,content-type",
		}},
		{"preflight without headers", http.MethodOptions, "", http.StatusNoContent, map[string]string{
			"Access-Control-Allow-Headers": "content-type",
		}},
		{"refused request still readable", http.MethodGet, "", http.StatusForbidden, map[string]string{
			"Access-Control-Allow-Origin":   origin,
			"Access-Control-Expose-Headers": "ETag",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), tt.method, s.Endpoint()+"/"+S3Bucket+"/tmp/x.png", nil)
			req.Header.Set("Origin", origin)
			if tt.method == http.MethodOptions {
				req.Header.Set("Access-Control-Request-Method", http.MethodPut)
				if tt.reqHeaders != "" {
					req.Header.Set("Access-Control-Request-Headers", tt.reqHeaders)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			for k, v := range tt.want {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// The file-system backend keeps objects (and their type) across restarts,
// and deletions too.
func TestS3_Persistence(t *testing.T) {
	dir := t.TempDir()
	restart := func(s *S3) *S3 {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return startS3(t, dir)
	}
	s := startS3(t, dir)
	st := storeOn(t, s, S3AccessKey, S3SecretKey)
	ctx := t.Context()
	if err := st.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"invoices/acc 1/1.pdf", "invoices/2.pdf"} {
		if err := st.Put(ctx, key, []byte("%PDF "+key), "application/pdf"); err != nil {
			t.Fatal(err)
		}
	}

	s = restart(s)
	st = storeOn(t, s, S3AccessKey, S3SecretKey)
	rc, info, err := st.Open(ctx, "invoices/acc 1/1.pdf")
	if err != nil {
		t.Fatalf("after restart: %v", err)
	}
	body, _ := io.ReadAll(rc)
	rc.Close()
	if string(body) != "%PDF invoices/acc 1/1.pdf" || info.ContentType != "application/pdf" {
		t.Fatalf("after restart: %q %+v", body, info)
	}
	if err := st.Delete(ctx, "invoices/2.pdf"); err != nil {
		t.Fatal(err)
	}

	s = restart(s)
	st = storeOn(t, s, S3AccessKey, S3SecretKey)
	if _, err := st.Stat(ctx, "invoices/2.pdf"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Fatalf("deleted object after restart: %v, want %s", err, kudos.ENotFound)
	}
	if _, err := st.Stat(ctx, "invoices/acc 1/1.pdf"); err != nil {
		t.Fatalf("kept object after second restart: %v", err)
	}
}

// What the local server verifies: the signing key, the signature, and the
// expiry of presigned URLs.
func TestS3_Auth(t *testing.T) {
	s := startS3(t, "")
	ctx := t.Context()
	if err := storeOn(t, s, S3AccessKey, S3SecretKey).EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, key, secret, code string }{
		{"wrong secret", S3AccessKey, "guess", "SignatureDoesNotMatch"},
		{"wrong access key", "someone", S3SecretKey, "InvalidAccessKeyId"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := storeOn(t, s, tt.key, tt.secret).Put(ctx, "tmp/x", []byte("x"), "text/plain")
			if err == nil || kudos.ErrorCode(err) != kudos.EInternal || !strings.Contains(err.Error(), tt.code) {
				t.Fatalf("Put = %v, want an internal error with %s", err, tt.code)
			}
		})
	}

	// A URL signed two hours ago for one hour, next to one signed now.
	presign := func(at time.Time) string {
		req, _ := http.NewRequest(http.MethodGet, s.Endpoint()+"/"+S3Bucket+"/tmp/x?X-Amz-Expires=3600", nil)
		creds := aws.Credentials{AccessKeyID: S3AccessKey, SecretAccessKey: S3SecretKey}
		u, _, err := v4.NewSigner().PresignHTTP(ctx, creds, req, "UNSIGNED-PAYLOAD", "s3", S3Region, at)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if err := storeOn(t, s, S3AccessKey, S3SecretKey).Put(ctx, "tmp/x", []byte("x"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, url string
		status    int
		msg       string
	}{
		{"fresh", presign(time.Now()), http.StatusOK, ""},
		{"expired", presign(time.Now().Add(-2 * time.Hour)), http.StatusForbidden, "Request has expired"},
		{"unsigned", s.Endpoint() + "/" + S3Bucket + "/tmp/x", http.StatusForbidden, "AccessDenied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Get(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.msg) {
				t.Fatalf("GET = %d %s, want %d %q", resp.StatusCode, body, tt.status, tt.msg)
			}
		})
	}
}
