package tracing

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// PGX traces pgx queries (and batches) as client spans named after the
// statement's first words, with its SQL text: Kudos's SQL is parameterised,
// so the text holds placeholders and never a value; the arguments are not
// recorded. A query outside any trace (the relay's polling claim, a
// reconciliation scan) starts none: only work some trace is about shows.
type PGX struct{}

var (
	_ pgx.QueryTracer = PGX{}
	_ pgx.BatchTracer = PGX{}
)

// maxSQL bounds the recorded statement text.
const maxSQL = 2000

func (PGX) start(ctx context.Context, sql string) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	if len(sql) > maxSQL {
		sql = sql[:maxSQL]
	}
	ctx, _ = Tracer().Start(ctx, "db "+statementName(sql), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", "postgresql"), attribute.String("db.query.text", sql)))
	return ctx
}

func (PGX) end(ctx context.Context, err error) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	if err != nil {
		// pgx's errors name the constraint or column, never a value.
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// statementName is the operation and the table it works on as far as the
// first words tell ("INSERT INTO outbox", "SELECT", "UPDATE subscriptions").
func statementName(sql string) string {
	f := strings.Fields(sql)
	if len(f) == 0 {
		return "query"
	}
	op := strings.ToUpper(f[0])
	switch {
	case (op == "INSERT" || op == "DELETE") && len(f) > 2:
		return op + " " + strings.ToUpper(f[1]) + " " + f[2]
	case op == "UPDATE" && len(f) > 1:
		return op + " " + f[1]
	}
	return op
}

// TraceQueryStart implements pgx.QueryTracer.
func (p PGX) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	return p.start(ctx, data.SQL)
}

// TraceQueryEnd implements pgx.QueryTracer.
func (p PGX) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	p.end(ctx, data.Err)
}

// TraceBatchStart implements pgx.BatchTracer.
func (p PGX) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	ctx, _ = Tracer().Start(ctx, "db batch", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", "postgresql"), attribute.Int("db.operation.batch.size", data.Batch.Len())))
	return ctx
}

// TraceBatchQuery implements pgx.BatchTracer: each statement is an event
// of the batch's span.
func (PGX) TraceBatchQuery(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchQueryData) {
	span := trace.SpanFromContext(ctx)
	if span.IsRecording() {
		sql := data.SQL
		if len(sql) > maxSQL {
			sql = sql[:maxSQL]
		}
		span.AddEvent("query", trace.WithAttributes(attribute.String("db.query.text", sql)))
	}
}

// TraceBatchEnd implements pgx.BatchTracer.
func (p PGX) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchEndData) {
	p.end(ctx, data.Err)
}
