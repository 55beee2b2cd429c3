package api_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"kudos/api"
	"kudos/config"
)

// TestRequestLogNamesTheTrace: the request log line carries the id of the
// request's trace (the caller's traceparent continued), so that ops go
// from a logged request to its trace in one search (issue 40).
func TestRequestLogNamesTheTrace(t *testing.T) {
	t.Parallel()
	cfg, err := config.LoadFrom(func(k string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	app := api.New(&api.Server{Config: cfg, DB: &fakeStore{}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	req := httptest.NewRequest("GET", "/v1/no-such-route", nil)
	req.Header.Set("Traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if _, err := app.Test(req, inProcess); err != nil {
		t.Fatal(err)
	}
	if line := logs.String(); !strings.Contains(line, "msg=request") || !strings.Contains(line, "trace_id="+traceID) {
		t.Fatalf("request log without its trace id: %s", line)
	}
}
