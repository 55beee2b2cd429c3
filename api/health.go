package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"
)

// registerHealthRoutes adds /healthz (the process is up) and /readyz
// (Postgres and Temporal answer). /metrics is not here: MetricsHandler
// serves it on a listener of its own, off the public address.
func (s *Server) registerHealthRoutes(app *fiber.App) {
	app.Get("/healthz", func(c fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	})
	app.Get("/readyz", func(c fiber.Ctx) error {
		checkCtx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
		defer cancel()
		checks := fiber.Map{"postgres": "ok", "temporal": "ok"}
		ready := true
		if err := s.DB.Ping(checkCtx); err != nil {
			checks["postgres"], ready = "unreachable", false
		}
		if s.Temporal == nil {
			checks["temporal"], ready = "not configured", false
		} else if _, err := s.Temporal.CheckHealth(checkCtx, &client.CheckHealthRequest{}); err != nil {
			checks["temporal"], ready = "unreachable", false
		}
		status := fiber.StatusOK
		if !ready {
			status = fiber.StatusServiceUnavailable
		}
		return c.Status(status).JSON(fiber.Map{"ready": ready, "checks": checks})
	})
}

// MetricsHandler serves the Prometheus metrics of the app New built from s
// (the binary serves it on KUDOS_METRICS_ADDR).
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{})
}
