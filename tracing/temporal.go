package tracing

import (
	"go.temporal.io/sdk/workflow"

	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// TemporalInterceptor is the Temporal SDK's OpenTelemetry interceptor on
// Kudos's tracer and propagator. Set on a client (client.Options
// Interceptors) it traces the client's calls (starts, signals, updates),
// and the workers made from that client inherit it: workflow, update and
// activity spans continue the caller's trace through Temporal headers. It
// is replay-safe: a replayed workflow task starts no span and the headers
// it adds are not part of what replay compares.
func TemporalInterceptor() interceptor.Interceptor {
	i, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer:            Tracer(),
		TextMapPropagator: Propagator,
		// Queries are the ops report's and the api's reads of state:
		// frequent, and no step of a payment.
		DisableQueryTracing: true,
		SpanContextKey:      WorkflowSpanKey,
	})
	if err != nil {
		panic("tracing: " + err.Error()) // NewTracingInterceptor fails on no option set here
	}
	return i
}

// workflowSpanKey is the type of WorkflowSpanKey.
type workflowSpanKey struct{}

// WorkflowSpanKey is where the interceptor keeps the current span on a
// workflow.Context: a workflow that applies in its main loop what an
// update handler accepted carries the update's span over (WorkflowSpan,
// WithWorkflowSpan), so that the activities it runs for it join the
// update's trace.
var WorkflowSpanKey any = workflowSpanKey{}

// WorkflowSpan is the interceptor's span on ctx (nil: none, as in a
// replay or without the interceptor).
func WorkflowSpan(ctx workflow.Context) any { return ctx.Value(WorkflowSpanKey) }

// WithWorkflowSpan returns ctx carrying span (WorkflowSpan of another
// context), or ctx itself for nil. It adds no command: replay-safe.
func WithWorkflowSpan(ctx workflow.Context, span any) workflow.Context {
	if span == nil {
		return ctx
	}
	return workflow.WithValue(ctx, WorkflowSpanKey, span)
}
