// Package tracing is Kudos's OpenTelemetry tracing: one trace follows a
// request (or a webhook) through the outbox, Temporal's workflows and
// activities, the payment provider, object storage, SMTP and Postgres
// (issue 40). Spans carry names, ids and statuses only: mail addresses,
// tokens, card data and amounts never enter an attribute (api's
// TestTracesHoldNoPersonalData scans every exported span for them).
//
// Exporting is off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: production chooses its own
// backend with the standard OpenTelemetry variables, `make dev` points them
// at a local Jaeger. Off, the W3C trace context is still propagated (a
// caller's traceparent reaches the logs and the outbox), at no other cost.
package tracing

import (
	"context"
	"errors"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Name is the instrumentation scope of Kudos's own spans.
const Name = "kudos"

// Propagator is the W3C trace context (and baggage), on every way a trace
// crosses: HTTP headers, outbox entries, Temporal headers.
var Propagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

func init() { otel.SetTextMapPropagator(Propagator) }

// Tracer is the tracer of Kudos's own spans (the global provider's:
// whatever Setup, or a test, installed).
func Tracer() trace.Tracer { return tracerOf() }

// tracerOf returns Tracer's tracer (tests swap it).
var tracerOf = func() trace.Tracer { return otel.Tracer(Name) }

// Options are what Setup builds the tracer provider from.
type Options struct {
	// Service names the process in the backend (service.name), unless
	// OTEL_SERVICE_NAME says otherwise.
	Service string
	// Exporter receives the spans; nil: OTLP over HTTP when the
	// environment names an endpoint, else nothing is set up.
	Exporter sdktrace.SpanExporter
	// Sampler decides which traces are kept; nil: the SDK's, from
	// OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (parent-based
	// always-on when unset).
	Sampler sdktrace.Sampler
	// Sync exports each span as it ends (tests); else in batches.
	Sync bool
}

// Enabled reports whether getenv asks for exporting: an OTLP endpoint is
// set and the SDK is not disabled.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs the global tracer provider: with opts.Exporter, or OTLP
// over HTTP when getenv names an endpoint. It returns the provider's
// shutdown (which flushes what is buffered), or a no-op and nil when
// tracing is off.
func Setup(ctx context.Context, getenv func(string) string, opts Options) (func(context.Context) error, error) {
	exp := opts.Exporter
	if exp == nil {
		if !Enabled(getenv) {
			return func(context.Context) error { return nil }, nil
		}
		if p := getenv("OTEL_EXPORTER_OTLP_PROTOCOL"); p != "" && p != "http/protobuf" {
			return nil, errors.New("OTEL_EXPORTER_OTLP_PROTOCOL=" + p + ": Kudos exports traces over http/protobuf only (Jaeger, the OpenTelemetry Collector and the hosted backends accept it)")
		}
		var err error
		if exp, err = otlptracehttp.New(ctx); err != nil {
			return nil, err
		}
	}
	tp := NewProvider(exp, opts)
	otel.SetTracerProvider(tp)
	return tp.Shutdown, nil
}

// NewProvider is the tracer provider Setup installs, on exp (benchmarks
// and tests build their own). exp gets the spans scrubbed (Scrub).
func NewProvider(exp sdktrace.SpanExporter, opts Options) *sdktrace.TracerProvider {
	res, _ := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", opts.Service)))
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		res, _ = resource.Merge(res, env)
	}
	po := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	exp = scrubExporter{exp} // what leaves the process holds no address or card number
	if opts.Sync {
		po = append(po, sdktrace.WithSyncer(exp))
	} else {
		po = append(po, sdktrace.WithBatcher(exp))
	}
	if opts.Sampler != nil {
		po = append(po, sdktrace.WithSampler(opts.Sampler))
	}
	return sdktrace.NewTracerProvider(po...)
}

// TraceID is the id of the trace ctx belongs to ("" outside any), the one
// the logs and `kudos ops account` print.
func TraceID(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return ""
	}
	return sc.TraceID().String()
}

// Carry is the trace context of ctx as one W3C traceparent string (with
// tracestate after a space when there is one), "" outside any trace: what
// an outbox entry keeps so that its delivery continues the trace.
func Carry(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	if ts := c["tracestate"]; ts != "" {
		return c["traceparent"] + " " + ts
	}
	return c["traceparent"]
}

// Resume returns ctx under the trace context Carry wrote (ctx itself for ""
// or a malformed one).
func Resume(ctx context.Context, carried string) context.Context {
	if carried == "" {
		return ctx
	}
	parent, state, _ := strings.Cut(carried, " ")
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": parent, "tracestate": state})
}
