package tracing

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestQuerySpansNameTheStatementNeverItsValues: a query inside a trace is
// a span named after its statement, with the SQL text and none of its
// arguments; a query outside any trace (the relay's polling) starts none.
func TestQuerySpansNameTheStatementNeverItsValues(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	tp := NewProvider(mem, Options{Service: "test", Sync: true})
	ctx, parent := tp.Tracer("t").Start(context.Background(), "request")
	// PGX uses the global provider's tracer: give it this one for the test.
	saved := tracerOf
	tracerOf = func() trace.Tracer { return tp.Tracer(Name) }
	defer func() { tracerOf = saved }()

	sql := `INSERT INTO outbox (key, kind, payload) VALUES ($1, $2, $3)`
	qctx := PGX{}.TraceQueryStart(ctx, nil, pgx.TraceQueryStartData{SQL: sql, Args: []any{"mail:k", "mail", `{"to":"jane@example.com"}`}})
	PGX{}.TraceQueryEnd(qctx, nil, pgx.TraceQueryEndData{})
	parent.End()
	if out := (PGX{}).TraceQueryStart(context.Background(), nil, pgx.TraceQueryStartData{SQL: "SELECT 1"}); trace.SpanFromContext(out).IsRecording() {
		t.Error("a query outside any trace started a span")
	}
	spans := mem.GetSpans()
	if len(spans) != 2 || spans[0].Name != "db INSERT INTO outbox" || spans[0].Parent.SpanID() != parent.SpanContext().SpanID() {
		t.Fatalf("spans %v", spans)
	}
	for _, a := range spans[0].Attributes {
		if v := a.Value.Emit(); a.Key == "db.query.text" && v != sql || a.Key != "db.query.text" && a.Key != "db.system.name" {
			t.Errorf("attribute %s=%s", a.Key, v)
		}
	}
	for sql, want := range map[string]string{"SELECT id FROM users": "db SELECT", "update subscriptions SET plan = $2": "db UPDATE subscriptions",
		"DELETE FROM outbox WHERE id = $1": "db DELETE FROM outbox", "  ": "db query"} {
		if got := "db " + statementName(sql); got != want {
			t.Errorf("%q: %q, want %q", sql, got, want)
		}
	}
}
