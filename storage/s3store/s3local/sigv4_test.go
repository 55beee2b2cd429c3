package s3local

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The examples of the S3 SigV4 documentation ("Authenticating Requests:
// Using Query Parameters" and "Using the Authorization Header"), so that the
// verifier is checked against AWS, not only against the SDK it serves.
const (
	exampleKey    = "AKIAIOSFODNN7EXAMPLE"
	exampleSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	examplePresig = "/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
)

func exampleAuth(now string) *Auth {
	at, _ := time.Parse(time.RFC3339, now)
	return &Auth{AccessKey: exampleKey, SecretKey: exampleSecret, PublicReadPrefix: "public/", Now: func() time.Time { return at }}
}

func TestVerify(t *testing.T) {
	headerSigned := func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "http://examplebucket.s3.amazonaws.com/test.txt", nil)
		r.Header.Set("Range", "bytes=0-9")
		r.Header.Set("X-Amz-Content-Sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
		r.Header.Set("X-Amz-Date", "20130524T000000Z")
		r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
		return r
	}
	presigned := func(uri string) func() *http.Request {
		return func() *http.Request {
			return httptest.NewRequest(http.MethodGet, "http://examplebucket.s3.amazonaws.com"+uri, nil)
		}
	}
	tests := []struct {
		name string
		now  string
		req  func() *http.Request
		code string // "" when accepted
	}{
		{"presigned", "2013-05-24T12:00:00Z", presigned(examplePresig), ""},
		{"presigned expired", "2013-05-25T00:00:01Z", presigned(examplePresig), "AccessDenied"},
		{"presigned tampered", "2013-05-24T12:00:00Z", presigned(strings.Replace(examplePresig, "86400", "86401", 1)), "SignatureDoesNotMatch"},
		{"presigned as PUT", "2013-05-24T12:00:00Z", func() *http.Request {
			r := presigned(examplePresig)()
			r.Method = http.MethodPut
			return r
		}, "SignatureDoesNotMatch"},
		{"authorization header", "2013-05-24T00:00:00Z", headerSigned, ""},
		{"header with other range", "2013-05-24T00:00:00Z", func() *http.Request {
			r := headerSigned()
			r.Header.Set("Range", "bytes=0-99")
			return r
		}, "SignatureDoesNotMatch"},
		{"unknown access key", "2013-05-24T00:00:00Z", func() *http.Request {
			r := headerSigned()
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), exampleKey, "OTHER", 1))
			return r
		}, "InvalidAccessKeyId"},
		{"anonymous private", "2013-05-24T00:00:00Z", presigned("/bucket/invoices/1.pdf"), "AccessDenied"},
		{"anonymous public read", "2013-05-24T00:00:00Z", presigned("/bucket/public/logo.png"), ""},
		{"anonymous public write", "2013-05-24T00:00:00Z", func() *http.Request {
			return httptest.NewRequest(http.MethodPut, "http://localhost/bucket/public/logo.png", strings.NewReader("x"))
		}, "AccessDenied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := exampleAuth(tt.now).Verify(tt.req())
			var ae *authError
			switch {
			case tt.code == "" && err != nil:
				t.Fatalf("Verify = %v, want accepted", err)
			case tt.code != "" && (!errors.As(err, &ae) || ae.Code != tt.code):
				t.Fatalf("Verify = %v, want %s", err, tt.code)
			}
		})
	}
}

func TestWrap_ErrorDocument(t *testing.T) {
	h := exampleAuth("2013-05-24T00:00:00Z").Wrap(http.NotFoundHandler())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/bucket/private", nil))
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "<Code>AccessDenied</Code>") {
		t.Fatalf("got %d %q, want 403 with an AccessDenied document", rec.Code, rec.Body.String())
	}
}
