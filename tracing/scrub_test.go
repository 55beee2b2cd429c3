package tracing_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"kudos/tracing"
)

// TestExportedErrorsHoldNoAddressOrCard: an error recorded on a span (as
// the Temporal interceptor records a failed activity's) that quotes a
// recipient or a card number leaves the process with both masked; the
// rest of the message stays readable.
func TestExportedErrorsHoldNoAddressOrCard(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	tp := tracing.NewProvider(mem, tracing.Options{Service: "test", Sync: true})
	_, span := tp.Tracer("t").Start(context.Background(), "RunActivity:SendMail")
	err := errors.New(`mail: invalid recipient "jane.doe+x@example.co.uk" (card 4242 4242 4242 4242)`)
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
	span.End()
	spans := mem.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	s := spans[0]
	texts := []string{s.Status.Description}
	for _, e := range s.Events {
		for _, a := range e.Attributes {
			texts = append(texts, a.Value.Emit())
		}
	}
	for _, text := range texts {
		if strings.Contains(text, "example.co.uk") || strings.Contains(text, "4242 4242") {
			t.Errorf("exported: %s", text)
		}
	}
	if want := `mail: invalid recipient "[address]" (card [number])`; s.Status.Description != want {
		t.Errorf("status %q, want %q", s.Status.Description, want)
	}
}
