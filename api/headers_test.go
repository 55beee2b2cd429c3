package api_test

import (
	"context"
	"strings"
	"testing"

	"kudos/storage/s3store"
)

// TestCSPAllowsTheBucketsRealOrigin: on AWS the endpoint is empty and the
// bucket has a host name of its own; with a custom endpoint in virtual-host
// style the bucket is a sub-domain. The CSP must allow where uploads and
// downloads really go, or the browser blocks them.
func TestCSPAllowsTheBucketsRealOrigin(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		cfg  s3store.Config
		want string
	}{
		"AWS":                   {s3store.Config{Region: "eu-west-1", Bucket: "kudos-prod"}, "https://kudos-prod.s3.eu-west-1.amazonaws.com"},
		"virtual-host endpoint": {s3store.Config{Endpoint: "https://objects.example.net", Region: "auto", Bucket: "logos"}, "https://logos.objects.example.net"},
		"path-style endpoint":   {s3store.Config{Endpoint: "https://minio.example.net:9443", Region: "us-east-1", Bucket: "b", PathStyle: true}, "https://minio.example.net:9443"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			c.cfg.AccessKeyID, c.cfg.SecretAccessKey, c.cfg.PublicBaseURL = "AKIDEXAMPLE", "secret", "https://cdn.example.com"
			st, err := s3store.New(context.Background(), c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			h.srv.Storage = st
			h.srv.Config.S3Endpoint = c.cfg.Endpoint
			csp := newHarnessFrom(t, h).do("GET", "/healthz", nil, "").Header.Get("Content-Security-Policy")
			_, connect, _ := strings.Cut(csp, "connect-src ")
			connect, _, _ = strings.Cut(connect, ";")
			if !strings.Contains(" "+connect+" ", " "+c.want+" ") {
				t.Fatalf("connect-src %q lacks %s", connect, c.want)
			}
		})
	}
}

// TestHSTSWithAnHTTPSPublicURL: once the public URL is https, browsers are
// told to never use plain http again; on plain http (development) not.
func TestHSTSWithAnHTTPSPublicURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if v := h.do("GET", "/healthz", nil, "").Header.Get("Strict-Transport-Security"); v != "" {
		t.Fatalf("HSTS on plain http: %q", v)
	}
	h.srv.Config.PublicURL = "https://app.example.com"
	v := newHarnessFrom(t, h).do("GET", "/healthz", nil, "").Header.Get("Strict-Transport-Security")
	if !strings.HasPrefix(v, "max-age=") || strings.HasPrefix(v, "max-age=0") {
		t.Fatalf("no HSTS with an https public URL: %q", v)
	}
}
