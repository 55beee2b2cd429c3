// Package tracingtest installs, once per test binary, a global tracer
// provider that exports to memory (OpenTelemetry's tracetest exporter),
// keeping the spans of the traces a test watches only: tests that do not
// look at spans pay for no memory.
package tracingtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"kudos/tracing"
)

// Exporter keeps the ended spans of watched traces in memory.
type Exporter struct {
	mem     *tracetest.InMemoryExporter
	mu      sync.Mutex
	watched map[trace.TraceID]bool
}

var (
	once     sync.Once
	exporter *Exporter
)

// Install installs the in-memory provider (the first call; later calls
// return the same exporter). Call it before making the Temporal clients
// of the test, so that their interceptor's tracer is the provider's.
func Install() *Exporter {
	once.Do(func() {
		exporter = &Exporter{mem: tracetest.NewInMemoryExporter(), watched: map[trace.TraceID]bool{}}
		_, _ = tracing.Setup(context.Background(), func(string) string { return "" },
			tracing.Options{Service: "kudos-test", Exporter: exporter, Sync: true})
	})
	return exporter
}

// ExportSpans implements sdktrace.SpanExporter: spans of watched traces
// are kept.
func (e *Exporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.mu.Lock()
	keep := spans[:0:0]
	for _, s := range spans {
		if e.watched[s.SpanContext().TraceID()] {
			keep = append(keep, s)
		}
	}
	e.mu.Unlock()
	if len(keep) == 0 {
		return nil
	}
	return e.mem.ExportSpans(ctx, keep)
}

// Shutdown implements sdktrace.SpanExporter.
func (e *Exporter) Shutdown(context.Context) error { return nil }

// NewTrace returns a fresh sampled trace's W3C traceparent header value,
// and watches that trace.
func (e *Exporter) NewTrace() (trace.TraceID, string) {
	var tid trace.TraceID
	var sid trace.SpanID
	_, _ = rand.Read(tid[:])
	_, _ = rand.Read(sid[:])
	e.Watch(tid)
	return tid, fmt.Sprintf("00-%s-%s-01", tid, sid)
}

// Watch keeps the spans of trace id from now on.
func (e *Exporter) Watch(id trace.TraceID) {
	e.mu.Lock()
	e.watched[id] = true
	e.mu.Unlock()
}

// Spans returns the ended spans of trace id kept so far.
func (e *Exporter) Spans(id trace.TraceID) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range e.mem.GetSpans() {
		if s.SpanContext.TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

// WaitFor waits (up to 30 s) until the spans of trace id satisfy ok, and
// returns them; the test fails with what it last saw otherwise.
func (e *Exporter) WaitFor(t testing.TB, id trace.TraceID, what string, ok func(tracetest.SpanStubs) bool) tracetest.SpanStubs {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		spans := e.Spans(id)
		if ok(spans) {
			return spans
		}
		if time.Now().After(deadline) {
			t.Fatalf("trace %s: %s never showed; its spans: %v", id, what, Names(spans))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Names are the spans' names, in the order they ended.
func Names(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}
