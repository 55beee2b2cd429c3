package api

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"
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

// observe logs every request (structured, with its id) and records metrics by
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
	s.metrics.requests.WithLabelValues(route, c.Method(), strconv.Itoa(status)).Inc()
	s.metrics.latency.WithLabelValues(route, c.Method()).Observe(elapsed.Seconds())
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	s.Log.Log(c.Context(), level, "request", "request_id", requestID(c), "method", c.Method(), "path", c.Path(),
		"route", route, "status", status, "duration_ms", float64(elapsed.Microseconds())/1000, "ip", s.clientIP(c))
	return nil
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
