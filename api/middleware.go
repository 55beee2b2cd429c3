package api

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"

	"kudos/tracing"
)

// HeaderRequestID carries the request id in both directions.
const HeaderRequestID = "X-Request-Id"

const localRequestID = "request_id"

// requestIDMiddleware takes a well-formed incoming request id or makes one,
// and returns it in the response header.
func requestIDMiddleware(c fiber.Ctx) error {
	id := c.Get(HeaderRequestID)
	if !validRequestID(id) {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		id = hex.EncodeToString(b)
	}
	c.Locals(localRequestID, id)
	c.Set(HeaderRequestID, id)
	return c.Next()
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func requestID(c fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}

// metrics are the Prometheus collectors of the HTTP layer.
type metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// series caches the counter and histogram of each route, method and
	// status seen, so that a request does not hash its labels again.
	series sync.Map // seriesKey → *routeSeries
}

// seriesKey names the metrics of one kind of request.
type seriesKey struct {
	route, method string
	status        int
}

// routeSeries are the metrics of one kind of request.
type routeSeries struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// of returns the metrics of requests to route with method answered status.
func (m *metrics) of(route, method string, status int) *routeSeries {
	k := seriesKey{route, method, status}
	if s, ok := m.series.Load(k); ok {
		return s.(*routeSeries)
	}
	s, _ := m.series.LoadOrStore(k, &routeSeries{requests: m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
		latency: m.latency.WithLabelValues(route, method)})
	return s.(*routeSeries)
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kudos_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kudos_http_request_duration_seconds", Help: "HTTP request latency by route and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

// observe logs every request (structured, with its id and its trace's id:
// the trace of a slow or failed request is one search away) and records metrics by
// route pattern, never by raw path, so that ids do not explode the label set.
// It runs the error handler itself so that the status it records is final.
func (s *Server) observe(c fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	if err != nil {
		if herr := c.App().Config().ErrorHandler(c, err); herr != nil {
			return herr
		}
	}
	status := c.Response().StatusCode()
	route := c.Route().Path
	if status == fiber.StatusNotFound && route == "/" {
		route = "unmatched"
	}
	elapsed := time.Since(start)
	ms := s.metrics.of(route, c.Method(), status)
	ms.requests.Inc()
	ms.latency.Observe(elapsed.Seconds())
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	if s.Log.Enabled(c.Context(), level) { // typed attributes: no boxing per field
		s.Log.LogAttrs(c.Context(), level, "request", slog.String("request_id", requestID(c)), slog.String("method", c.Method()),
			slog.String("path", loggedPath(c)), slog.String("route", route), slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000), slog.String("ip", s.clientIP(c)),
			slog.String("trace_id", tracing.TraceID(c.Context())))
	}
	return nil
}

// secretParams are the route parameters whose value is a secret (an
// invitation's token): whoever holds it acts as its addressee.
var secretParams = []string{"token"}

// loggedPath is the path a log line names: the raw path, or the route's
// pattern when one of its parameters is a secret, so that reading the logs
// never hands out an invitation (issue 35). Query strings are never
// logged.
func loggedPath(c fiber.Ctx) string {
	for _, p := range c.Route().Params {
		if slices.Contains(secretParams, p) {
			return c.Route().Path
		}
	}
	return c.Path()
}

// contentSecurityPolicy allows only our own scripts; styles may be inline
// (component libraries set style attributes); the app cannot be framed.
// Object storage (presigned downloads and uploads, public logos) is the one
// other origin the browser talks to.
func contentSecurityPolicy(storageOrigins ...string) string {
	extra := strings.Join(storageOrigins, " ")
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: " + extra + "; connect-src 'self' " + extra + "; font-src 'self' data:; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}

// securityHeaders sets the headers every answer carries.
func (s *Server) securityHeaders(c fiber.Ctx) error {
	c.Set("Content-Security-Policy", s.csp)
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	c.Set("X-Frame-Options", "DENY")
	c.Set("Cross-Origin-Opener-Policy", "same-origin")
	if s.hsts {
		c.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}
	if p := c.Path(); isAPIPath(p) || p == "/healthz" || p == "/readyz" {
		// Tokens, personal data and billing (and health, which a cache would
		// make lie): never kept by a browser or a shared cache (the UI's
		// pages set their own policy in spa.go).
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return c.Next()
}

// originOf returns the scheme://host[:port] of a URL, or "".
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
