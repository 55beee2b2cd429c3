package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPprofListener: KUDOS_PPROF_ADDR serves the index and a CPU profile on
// loopback, stops with its context, is off when empty and refuses to bind
// anything but loopback even if configuration let it through.
func TestPprofListener(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if a, err := servePprof(context.Background(), "", log); a != nil || err != nil {
		t.Fatalf("empty address: %v, %v; want off", a, err)
	}
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		if a, err := servePprof(context.Background(), addr, log); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: bound %v, err %v; want a refusal naming loopback", addr, a, err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := servePprof(ctx, "127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + a.String() + "/debug/pprof/"
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(""); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("index: %d %.200q", code, body)
	}
	if code, body := get("profile?seconds=1"); code != 200 || len(body) == 0 {
		t.Errorf("CPU profile: %d, %d bytes", code, len(body))
	}
	if code, _ := get("heap"); code != 200 {
		t.Errorf("heap: %d", code)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := http.Get(base); err != nil {
			break // closed
		}
		if time.Now().After(deadline) {
			t.Fatal("the pprof listener still answers after its context ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
