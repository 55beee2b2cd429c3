package bench

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// ServeOTLPSink accepts OTLP/HTTP trace exports on addr (POST /v1/traces)
// and discards them, until ctx ends: the tracing benchmark's backend, so
// that the api and worker pay for encoding and sending their spans as
// they would to Jaeger or a collector, and nothing else. It logs the
// exports and bytes received when it stops.
func ServeOTLPSink(ctx context.Context, addr string, logf func(string, ...any)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var exports, bytes atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		exports.Add(1)
		bytes.Add(n)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { <-ctx.Done(); _ = hs.Close() }()
	err = hs.Serve(ln)
	logf("otlp sink: %d exports, %d bytes", exports.Load(), bytes.Load())
	if ctx.Err() != nil {
		return nil
	}
	return err
}
