// Package bench measures Kudos where load matters (issue 8: the account
// read, sign-in, trial expiry at scale, payment-event intake and the UI's
// first load) and, in the same run, a baseline for each: the same essential
// work with nothing of Kudos around it. Absolute figures on a shared machine
// drift; the ratio to a baseline measured beside them does not, or much
// less. A figure never fails a run; only something broken does.
//
// bench/run.sh (make bench) starts the services and runs cmd/bench, which
// calls the benchmarks of this package against them.
package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"

	"kudos/app"
	"kudos/config"
	"kudos/dispatch"
	"kudos/store"
	"kudos/tracing"
)

// Env is the running system under test and how to reach it. Its fields are
// set from cmd/bench's flags, which bench/run.sh fills in; Open connects.
type Env struct {
	// BaseURL is the api's origin.
	BaseURL         string
	DatabaseURL     string
	TemporalAddress string
	// TaskQueue is the product worker's task queue (KUDOS_TASK_QUEUE).
	TaskQueue string
	// JWTSecret is the api's KUDOS_JWT_SECRET: fixtures sign session tokens
	// with it instead of signing in (argon2 and rate limits would make
	// setting up thousands of users slow).
	JWTSecret string
	// StripeAddr is where the fake Stripe API listens (the api's
	// KUDOS_STRIPE_API_BASE points at it); StripeWebhookSecret is the api's
	// STRIPE_WEBHOOK_SECRET, with which events are signed.
	StripeAddr, StripeWebhookSecret string
	// APIPID and WorkerPID are the processes whose memory is reported;
	// with TemporalPID and PostgresPID (the postmaster, whose backends are
	// counted with it) their CPU time is reported too.
	APIPID, WorkerPID, TemporalPID, PostgresPID int
	// Period and CheckoutTTL are the api's KUDOS_BILLING_PERIOD and
	// KUDOS_CHECKOUT_TTL (part of a subscription workflow's first state).
	Period, CheckoutTTL time.Duration
	// UIScript is the Node program of the UI benchmark; Chromium the browser.
	UIScript, Chromium string
	// LighthouseScript is the Node program of the Lighthouse benchmark.
	LighthouseScript string

	// Set by Open.
	DB         *store.DB
	Temporal   client.Client
	Dispatcher *dispatch.Dispatcher
	Stripe     *FakeStripe
	// RunID makes the names of this run's users, events and workflows unique,
	// so that a second run against the same services does not collide.
	RunID string
	HTTP  *http.Client
	Log   *slog.Logger
}

// Options are the knobs of the benchmarks (cmd/bench's flags).
type Options struct {
	Duration          time.Duration `json:"duration"`
	Rounds            int           `json:"rounds"`
	Concurrency       int           `json:"concurrency"`
	SigninConcurrency int           `json:"signin_concurrency"`
	Burst             int           `json:"burst"`
	Accounts          int           `json:"accounts"`
	Events            int           `json:"events"`
	EventConcurrency  int           `json:"event_concurrency"`
	LCPRuns           int           `json:"lcp_runs"`
	// LighthouseRuns is how many times Lighthouse measures each page;
	// LighthouseCPU its CPU slowdown: "" for the mobile preset's 4×,
	// "calibrated" for this machine's measured speed against the preset's
	// phone (see bench/ui/lighthouse-bench.mjs).
	LighthouseRuns int    `json:"lighthouse_runs,omitempty"`
	LighthouseCPU  string `json:"lighthouse_cpu,omitempty"`
	// ScaleAccounts are the steps of the scale benchmark (accounts seeded
	// in all), ScaleWorkflows how many of them run a subscription workflow.
	ScaleAccounts  []int `json:"scale_accounts,omitempty"`
	ScaleWorkflows int   `json:"scale_workflows,omitempty"`
	// Renewals is how many renewals fall due at one instant (renewal).
	Renewals int `json:"renewals,omitempty"`
	// IntakeCheckoutsOnly leaves out the intake's ledger phase (refunds
	// and disputes): the scale benchmark measures the relay's lag only.
	IntakeCheckoutsOnly bool `json:"intake_checkouts_only,omitempty"`
}

// CPU is the meter of the CPU time of the processes under test.
func (e *Env) CPU() CPUMeter {
	return CPUMeter{API: e.APIPID, Worker: e.WorkerPID, Temporal: e.TemporalPID, Postgres: e.PostgresPID}
}

// Open connects to Postgres and Temporal and starts the fake Stripe API.
func (e *Env) Open(ctx context.Context) error {
	e.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	e.RunID = hex.EncodeToString(b)
	db, err := store.Open(ctx, e.DatabaseURL)
	if err != nil {
		return err
	}
	e.DB = db
	e.Temporal, err = client.DialContext(ctx, client.Options{HostPort: e.TemporalAddress, Namespace: "default",
		Logger: tlog.NewStructuredLogger(e.Log), Interceptors: []interceptor.ClientInterceptor{tracing.TemporalInterceptor()}})
	if err != nil {
		return fmt.Errorf("temporal: %w", err)
	}
	e.Dispatcher = app.Services{Config: &config.Config{TaskQueue: e.TaskQueue, BillingPeriod: e.Period, CheckoutTTL: e.CheckoutTTL},
		DB: db, Temporal: e.Temporal, Log: e.Log}.Dispatcher()
	e.HTTP = newHTTPClient(nil)
	if e.StripeAddr != "" {
		if e.Stripe, err = StartFakeStripe(e.StripeAddr); err != nil {
			return err
		}
	}
	return nil
}

// Close releases what Open made.
func (e *Env) Close() {
	if e.Stripe != nil {
		_ = e.Stripe.Close()
	}
	if e.Temporal != nil {
		e.Temporal.Close()
	}
	if e.DB != nil {
		e.DB.Close()
	}
}

// Versions fills in the versions of Postgres and the Temporal server.
func (e *Env) Versions(ctx context.Context, m *Machine) {
	_ = e.DB.Pool.QueryRow(ctx, `SHOW server_version`).Scan(&m.Postgres)
	if info, err := e.Temporal.WorkflowService().GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{}); err == nil {
		m.TemporalServer = info.GetServerVersion()
	}
}

// newHTTPClient is a keep-alive client for many concurrent requests to one
// host; tr, when given, is the transport to tune (the sign-in benchmark
// binds its own local addresses).
func newHTTPClient(tr *http.Transport) *http.Client {
	if tr == nil {
		tr = &http.Transport{}
	}
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 512, 512
	tr.DisableCompression = true
	tr.IdleConnTimeout = time.Minute
	return &http.Client{Transport: tr, Timeout: 60 * time.Second}
}
