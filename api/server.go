// Package api is the Fiber application of Kudos: every route under /v1, the
// middleware (request id, logs, metrics, security headers, CORS, auth, rate
// limits), the single error → HTTP mapping, the development routes under
// /dev, and the embedded UI with history fallback.
package api

import (
	"context"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/cors"
	"github.com/gofiber/fiber/v3/middleware/recover"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/auth"
	"kudos/config"
	"kudos/dispatch"
	"kudos/mailer"
)

// BodyLimit bounds every request body; larger ones answer 413.
const BodyLimit = 64 * 1024

// Server holds the dependencies of the handlers. All fields are set by the
// binary's main (or a test) before New is called; optional ones say so.
type Server struct {
	Config   *config.Config
	DB       Store
	Temporal client.Client
	Log      *slog.Logger
	Hasher   *auth.Hasher
	Sessions *auth.Sessions
	Tokens   *auth.MailTokens
	OIDC     *auth.OIDC
	// Outbox is kicked after a handler commits work for Temporal.
	Outbox *dispatch.Relay
	// Dispatcher sends updates to subscription workflows.
	Dispatcher *dispatch.Dispatcher
	// Payments is the payment provider; Webhooks its webhook verifier (nil
	// for the sandbox, whose buttons feed the intake directly).
	Payments kudos.PaymentProvider
	Webhooks WebhookParser
	// Inbox is the development capture inbox (nil in production).
	Inbox *mailer.Inbox
	// DevOIDC queues identities on the development OIDC provider (nil in
	// production).
	DevOIDC DevIdentityQueue
	// UI is the built single-page app (index.html at its root); nil serves
	// no UI.
	UI fs.FS
	// Registry receives the HTTP metrics; nil means a fresh registry.
	Registry *prometheus.Registry

	// Storage holds invoice PDFs and logos (nil: no downloads).
	Storage kudos.ObjectStorage
	// VATChecker checks a billing address's VAT id when it is saved (nil:
	// every id is saved pending, for the workflow to check).
	VATChecker kudos.VATChecker

	metrics *metrics
	limits  limits
	devices *auth.Devices
	methods *methodsCache
	csp     string
	hsts    bool
	// rp is the WebAuthn relying party (rpErr why it could not be built).
	rp    *webauthn.WebAuthn
	rpErr error
	// mfaBox seals TOTP secrets with KUDOS_MFA_KEY.
	mfaBox *auth.SecretBox
}

// New builds the Fiber app.
func New(s *Server) *fiber.App {
	if s.Registry == nil {
		s.Registry = prometheus.NewRegistry()
	}
	s.metrics = newMetrics(s.Registry)
	if s.DB != nil {
		_ = s.Registry.Register(dispatch.NewOutboxCollector(s.DB))
	}
	s.limits = newLimits(s.DB)
	s.devices = auth.NewDevices(s.Config.JWTSecret)
	s.methods = &methodsCache{entries: map[uuid.UUID]cachedMethods{}}
	if s.rp, s.rpErr = newRelyingParty(s.Config); s.rpErr != nil && s.Log != nil {
		s.Log.Error("passkeys are unavailable: no WebAuthn relying party", "err", s.rpErr)
	}
	box, err := auth.NewSecretBox(s.Config.MFAKey)
	if err != nil {
		panic("api: " + err.Error() + " (config.Load checks KUDOS_MFA_KEY)")
	}
	s.mfaBox = box
	s.csp = contentSecurityPolicy(uniqueOrigins(s.Config.S3PublicURL, s.storageOrigin())...)
	s.hsts = strings.HasPrefix(s.Config.PublicURL, "https://")
	app := fiber.New(fiber.Config{
		AppName:      "kudos",
		BodyLimit:    BodyLimit,
		ErrorHandler: ErrorHandler(s.Log),
		ReadTimeout:  15 * time.Second,
		WriteTimeout: 30 * time.Second,
		IdleTimeout:  2 * time.Minute,
	})
	app.Use(recover.New(recover.Config{EnableStackTrace: true}))
	app.Use(requestIDMiddleware, s.observe, s.traced, s.securityHeaders)
	app.Use(cors.New(cors.Config{
		AllowOrigins:  s.Config.UIOrigins,
		AllowMethods:  []string{"GET", "POST", "PUT", "PATCH", "DELETE"},
		AllowHeaders:  []string{"Authorization", "Content-Type", "If-Match", HeaderRequestID},
		ExposeHeaders: []string{HeaderRequestID, "Retry-After"},
		MaxAge:        600,
	}))

	s.registerHealthRoutes(app)
	v1 := app.Group("/v1")
	s.registerAuthRoutes(v1.Group("/auth"))
	// The account read checks session and membership inside its one query
	// (the hot read path) and ends the chain; every other account route
	// sits in the group, behind the guards applied once here.
	v1.Get("/accounts/:accountId", s.getAccount)
	acc := v1.Group("/accounts/:accountId", s.requireSession, s.requireMember)
	s.registerAccountRoutes(acc)
	s.registerSessionRoutes(acc)
	s.registerSubscriptionRoutes(v1, acc)
	s.registerBillingRoutes(acc)
	s.registerLogoRoutes(acc)
	s.registerTeamRoutes(v1, acc)
	me := v1.Group("/users/me", s.requireSession)
	s.registerPrivacyRoutes(me, acc)
	s.registerMFARoutes(me)
	s.registerDeletionRoutes(v1, acc)
	s.registerPasskeyRoutes(v1)
	if s.Config.IsDevelopment() {
		// Before any /dev route (the sandbox provider adds some of its own).
		app.Use("/dev", loopbackOnly)
	}
	s.registerPaymentRoutes(app)
	v1.Use(func(c fiber.Ctx) error { return fiber.ErrNotFound })
	if s.Config.IsDevelopment() {
		s.registerDevRoutes(app.Group("/dev"))
	}
	s.registerUI(app)
	return app
}

// ctx returns a context for the store and Temporal calls of a request.
func ctx(c fiber.Ctx) context.Context { return c.Context() }

// isAPIPath reports whether a path belongs to the JSON API (never the SPA).
// /metrics is not served here (MetricsHandler has its own listener), and
// answers 404 rather than the SPA.
func isAPIPath(p string) bool {
	return p == "/v1" || p == "/metrics" || strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/sandbox/")
}

// storageOrigin is the origin the browser reaches object storage at, taken
// from a link storage signs (on AWS the endpoint is empty and the bucket is
// a host name of its own), or "" without storage.
func (s *Server) storageOrigin() string {
	if s.Storage == nil {
		return ""
	}
	u, err := s.Storage.PresignGet(context.Background(), "csp-probe", "probe", time.Minute)
	if err != nil {
		s.Log.Warn("storage origin unknown: uploads may be blocked by the CSP", "err", err)
		return ""
	}
	return u
}

// uniqueOrigins returns the distinct, non-empty origins of urls.
func uniqueOrigins(urls ...string) []string {
	var out []string
	for _, u := range urls {
		if o := originOf(u); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}
