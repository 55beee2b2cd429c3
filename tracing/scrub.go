package tracing

import (
	"context"
	"regexp"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Kudos's own spans never record personal data; an error is another
// matter: the Temporal interceptor records an activity's error message as
// the span's status and an exception event, and a message may quote a
// recipient ("invalid recipient …"). scrubExporter masks, in every string
// the exporter receives, what looks like a mail address or a card number
// before it leaves the process.
var (
	addressPattern = regexp.MustCompile(`[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}`)
	cardPattern    = regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`)
)

// Scrub masks mail addresses and card numbers in s.
func Scrub(s string) string {
	s = addressPattern.ReplaceAllString(s, "[address]")
	return cardPattern.ReplaceAllString(s, "[number]")
}

// scrubExporter hands exp the spans with Scrub applied to their strings.
type scrubExporter struct{ exp sdktrace.SpanExporter }

// ExportSpans implements sdktrace.SpanExporter.
func (e scrubExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	out := make([]sdktrace.ReadOnlySpan, len(spans))
	for i, s := range spans {
		out[i] = scrubbedSpan{s}
	}
	return e.exp.ExportSpans(ctx, out)
}

// Shutdown implements sdktrace.SpanExporter.
func (e scrubExporter) Shutdown(ctx context.Context) error { return e.exp.Shutdown(ctx) }

// scrubbedSpan is a span whose name, attributes, events and status are
// scrubbed.
type scrubbedSpan struct{ sdktrace.ReadOnlySpan }

func (s scrubbedSpan) Name() string { return Scrub(s.ReadOnlySpan.Name()) }

func (s scrubbedSpan) Attributes() []attribute.KeyValue {
	return scrubAttrs(s.ReadOnlySpan.Attributes())
}

func (s scrubbedSpan) Events() []sdktrace.Event {
	evs := s.ReadOnlySpan.Events()
	out := make([]sdktrace.Event, len(evs))
	for i, e := range evs {
		e.Name, e.Attributes = Scrub(e.Name), scrubAttrs(e.Attributes)
		out[i] = e
	}
	return out
}

func (s scrubbedSpan) Status() sdktrace.Status {
	st := s.ReadOnlySpan.Status()
	st.Description = Scrub(st.Description)
	return st
}

func scrubAttrs(attrs []attribute.KeyValue) []attribute.KeyValue {
	out := make([]attribute.KeyValue, len(attrs))
	for i, a := range attrs {
		if a.Value.Type() == attribute.STRING {
			if v := a.Value.AsString(); v != Scrub(v) {
				a = attribute.String(string(a.Key), Scrub(v))
			}
		}
		out[i] = a
	}
	return out
}
