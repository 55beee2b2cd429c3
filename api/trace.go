package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"kudos/tracing"
)

// headerCarrier reads the W3C trace context of a request from its headers.
// Values are copied: Fiber's point into buffers the next request reuses,
// and the trace state outlives the request in the span.
type headerCarrier struct{ c fiber.Ctx }

func (h headerCarrier) Get(key string) string { return strings.Clone(h.c.Get(key)) }
func (h headerCarrier) Set(string, string)    {}
func (h headerCarrier) Keys() []string        { return []string{"traceparent", "tracestate", "baggage"} }

// traced starts the server span of every API request and webhook (issue
// 40), continuing the caller's trace when its traceparent names one, and
// makes it the request's context (ctx(c)): the store's queries, the
// outbox entries and the Temporal calls of the handler join the trace.
// The span is named after the route's pattern and records the method,
// route and status only: never the path (an invitation's token is one of
// its segments), a query string, a header or a body. Health checks and the
// UI's files are not traced.
func (s *Server) traced(c fiber.Ctx) error {
	if !isAPIPath(c.Path()) {
		return c.Next()
	}
	parent := tracing.Propagator.Extract(c.Context(), headerCarrier{c})
	method := strings.Clone(c.Method()) // kept by the span, past the request's buffers
	ctx, span := tracing.Tracer().Start(parent, method, trace.WithSpanKind(trace.SpanKindServer))
	defer span.End()
	c.SetContext(ctx)
	err := c.Next()
	if err != nil {
		// The error handler writes the answer here, so that the span (and
		// the request log, which runs outside) sees the final status.
		if herr := c.App().Config().ErrorHandler(c, err); herr != nil {
			return herr
		}
	}
	if span.IsRecording() {
		status := c.Response().StatusCode()
		route := c.Route().Path
		span.SetName(method + " " + route)
		span.SetAttributes(attribute.String("http.request.method", method), attribute.String("http.route", route),
			attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, "")
		}
	}
	return nil
}
