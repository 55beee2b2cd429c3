package devstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"kudos/storage/s3store/s3local"
)

// Settings of the local S3 stand-in: fixed, so that configuration and
// presigned URLs stay valid across restarts.
const (
	S3AccessKey = "kudos-dev"
	S3SecretKey = "kudos-dev-secret"
	S3Bucket    = "kudos"
	S3Region    = "us-east-1"
	// S3PublicPrefix is readable without a signature, as a CDN would serve
	// it; point PublicBaseURL at Endpoint()+"/"+S3Bucket in development.
	S3PublicPrefix = "public/"
)

// S3 is an S3-compatible server (gofakes3) on loopback for development and
// tests. It is path-style only and speaks to s3store with the S3* settings
// above. Unlike bare gofakes3 it verifies SigV4 signatures, so a presigned
// URL is refused when it is tampered with, expired, or used with another
// Content-Type than the one signed (see s3local.Auth for the limits), and it
// answers the browser's CORS preflight for direct uploads.
type S3 struct {
	srv      *http.Server
	endpoint string
	done     chan struct{}
}

// StartS3 serves on addr (host:port; port 0 picks one). Objects are kept in
// dir, so development uploads survive a restart; dir "" keeps them in memory.
func StartS3(addr, dir string) (*S3, error) {
	var backend gofakes3.Backend = s3mem.New()
	if dir != "" {
		b, err := s3local.NewDirBackend(dir)
		if err != nil {
			return nil, fmt.Errorf("development S3 in %s: %w", dir, err)
		}
		backend = b
	}
	fake := gofakes3.New(backend)
	auth := &s3local.Auth{AccessKey: S3AccessKey, SecretKey: S3SecretKey, PublicReadPrefix: S3PublicPrefix}

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("development S3 on %s: %w", addr, err)
	}
	s := &S3{
		srv: &http.Server{
			Handler:           withCORS(auth.Wrap(fake.Server())),
			ReadHeaderTimeout: 10 * time.Second,
		},
		endpoint: "http://" + dialAddr(ln.Addr()),
		done:     make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return s, nil
}

// Endpoint is the base URL for s3store.Config.Endpoint, "http://host:port".
func (s *S3) Endpoint() string { return s.endpoint }

// Close stops the server, letting running requests finish for a moment.
func (s *S3) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	<-s.done
	return err
}

// dialAddr is a listening address that a client can dial: a wildcard host
// becomes the loopback address.
func dialAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// withCORS lets the SPA (another origin) PUT to presigned URLs and read the
// answers, as the production bucket's CORS rules do. Any origin is echoed:
// this server only listens where the developer put it.
func withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			preflight(w, r, origin)
			return
		}
		// gofakes3 sets "Allow-Origin: *" itself; corsWriter overrides it
		// when the status line goes out.
		next.ServeHTTP(&corsWriter{ResponseWriter: w, origin: origin}, r)
	})
}

func preflight(w http.ResponseWriter, r *http.Request, origin string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Methods", "GET, PUT, HEAD")
	headers := r.Header.Get("Access-Control-Request-Headers")
	if !strings.Contains(strings.ToLower(headers), "content-type") {
		headers = strings.Trim(headers+", content-type", ", ")
	}
	h.Set("Access-Control-Allow-Headers", headers)
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Set("Access-Control-Max-Age", "600")
	if r.Header.Get("Access-Control-Request-Private-Network") == "true" {
		h.Set("Access-Control-Allow-Private-Network", "true")
	}
	h.Add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}

// corsWriter puts the CORS headers of an actual (non-preflight) answer in
// place just before the status line is written.
type corsWriter struct {
	http.ResponseWriter
	origin string
	done   bool
}

func (c *corsWriter) setHeaders() {
	if c.done {
		return
	}
	c.done = true
	h := c.Header()
	h.Set("Access-Control-Allow-Origin", c.origin)
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Add("Vary", "Origin")
}

func (c *corsWriter) WriteHeader(code int) {
	c.setHeaders()
	c.ResponseWriter.WriteHeader(code)
}

func (c *corsWriter) Write(p []byte) (int, error) {
	c.setHeaders()
	return c.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController the underlying writer.
func (c *corsWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
