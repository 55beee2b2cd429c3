package tracing

import (
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
)

// Transport wraps base (nil: http.DefaultTransport) in otelhttp's client
// instrumentation: each request is a client span named after peer and
// method, carrying the trace context to the server. otelhttp records the
// method, host, path and status, never a header or a body (where the
// provider's API keys and the request's data are).
func Transport(peer string, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(base,
		otelhttp.WithPropagators(Propagator),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return peer + " " + r.Method }))
}
