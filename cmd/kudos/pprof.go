package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves Go's profiles (net/http/pprof under /debug/pprof/) on
// addr until ctx ends, when KUDOS_PPROF_ADDR sets it; empty addr: nothing.
// config.Load already refuses a non-loopback address; the bound address is
// checked again here, so that no profile is ever served beyond this
// machine. It returns the bound address (addr may say port 0).
func servePprof(ctx context.Context, addr string, log *slog.Logger) (net.Addr, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof listener (KUDOS_PPROF_ADDR): %w", err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		_ = ln.Close()
		return nil, fmt.Errorf("KUDOS_PPROF_ADDR=%s binds %s, which is not a loopback address: the profiling listener listens on loopback only", addr, ln.Addr())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // also serves the named profiles (heap, goroutine, …)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	log.Info("pprof listening", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return ln.Addr(), nil
}
