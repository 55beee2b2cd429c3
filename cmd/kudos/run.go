package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"kudos"
	"kudos/api"
	"kudos/app"
	"kudos/auth"
	"kudos/config"
	"kudos/devstack"
	"kudos/dispatch"
	"kudos/mailer"
	"kudos/ops"
	"kudos/payment/sandbox"
	"kudos/payment/stripepay"
	"kudos/storage/s3store"
	"kudos/store"
	"kudos/tracing"
	"kudos/ui"
	"kudos/vatcheck"
	"kudos/worker"
	"kudos/workflows"
)

// run wires everything from the configuration and runs mode until ctx ends.
func run(ctx context.Context, mode string) error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	slog.SetDefault(log)
	log.Info("starting", "mode", mode, "config", cfg)
	// Traces go to the OTLP endpoint of the standard variables, when one is
	// set (README, "Tracing"); off, nothing is exported.
	stopTracing, err := tracing.Setup(ctx, os.Getenv, tracing.Options{Service: "kudos-" + mode})
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = stopTracing(sctx) // flushes the spans still buffered
	}()
	if tracing.Enabled(os.Getenv) {
		log.Info("tracing on", "endpoint", cmp.Or(os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")),
			"sampler", cmp.Or(os.Getenv("OTEL_TRACES_SAMPLER"), "parentbased_always_on"), "sampler_arg", os.Getenv("OTEL_TRACES_SAMPLER_ARG"))
	}

	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SessionIdle = cfg.SessionIdle
	if mode == "migrate" || cfg.IsDevelopment() {
		if err := db.Migrate(ctx); err != nil {
			return err
		}
		log.Info("migrations applied")
	}
	if mode == "migrate" {
		return nil
	}
	if _, err := servePprof(ctx, cfg.PprofAddr, log); err != nil {
		return err
	}

	// One registry: the api's HTTP metrics, the outbox gauges and the
	// Temporal SDK's metrics, served on KUDOS_METRICS_ADDR.
	reg := prometheus.NewRegistry()
	sdkMetrics, flush := app.TemporalMetrics(reg, log)
	defer flush.Close()
	// A lazy client connects on first use: the api starts (and answers
	// reads) while Temporal is still coming up or down.
	tc, err := temporalClient(cfg, log, sdkMetrics)
	if err != nil {
		return err
	}
	defer tc.Close()
	if mode == "worker" || mode == "dev" {
		// What the alerts on stuck checkouts and dunning watch (docs/alerts.md).
		reg.MustRegister(ops.NewPaymentStateCollector(tc, fmt.Sprintf("TaskQueue = %q", cfg.TaskQueue), 30*time.Second))
	}

	var wg sync.WaitGroup
	errs := make(chan error, 2)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if mode == "api" || mode == "dev" {
		srv, cleanup, err := newAPI(ctx, cfg, log, db, tc)
		if err != nil {
			return err
		}
		defer cleanup()
		srv.Registry = reg
		wg.Add(1)
		go func() { defer wg.Done(); errs <- serveAPI(ctx, cfg, log, srv) }()
	} else {
		// A worker of its own serves the SDK's metrics and the outbox
		// gauges on its own KUDOS_METRICS_ADDR.
		reg.MustRegister(dispatch.NewOutboxCollector(db))
		if err := serveMetrics(ctx, cfg, log, promhttp.HandlerFor(reg, promhttp.HandlerOpts{})); err != nil {
			return err
		}
	}
	if mode == "worker" || mode == "dev" {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- runWorker(ctx, cfg, log, db, tc) }()
	}
	var first error
	select {
	case <-ctx.Done():
	case first = <-errs:
	}
	cancel()
	wg.Wait()
	log.Info("stopped", "mode", mode)
	return first
}

// newAPI builds the api server with its development stand-ins and starts the
// outbox relay. cleanup stops what it started.
func newAPI(ctx context.Context, cfg *config.Config, log *slog.Logger, db *store.DB, tc client.Client) (*api.Server, func(), error) {
	payments, webhooks, err := newPayments(cfg, db)
	if err != nil {
		return nil, nil, err
	}
	var closers []func()
	cleanup := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	var inbox *mailer.Inbox
	var devOIDC *devstack.OIDC
	if cfg.IsDevelopment() && cfg.SMTPURL == "" {
		inbox = mailer.NewInbox()
		if err := inbox.Start(cfg.DevSMTPAddr); err != nil {
			return nil, cleanup, fmt.Errorf("capture inbox: %w", err)
		}
		closers = append(closers, func() { _ = inbox.Close() })
		log.Info("capture inbox listening", "smtp", cfg.DevSMTPAddr, "read", cfg.PublicURL+"/dev/mailbox")
	}
	if cfg.IsDevelopment() && cfg.OIDCIssuer == "" {
		o, err := devstack.StartOIDC(cfg.DevOIDCAddr)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		closers = append(closers, func() { _ = o.Close() })
		devOIDC = o
		log.Info("development OIDC provider listening", "issuer", o.Issuer())
	}
	if cfg.UsesDevS3 {
		s3, err := devstack.StartS3(cfg.DevS3Addr, cfg.DevS3Dir)
		if err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("local S3: %w", err)
		}
		closers = append(closers, func() { _ = s3.Close() })
		log.Info("local S3 listening", "endpoint", s3.Endpoint(), "dir", cfg.DevS3Dir)
	}
	storage, err := newStorage(ctx, cfg, log)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	srv := app.Services{Config: cfg, Log: log, DB: db, Temporal: tc, Payments: payments, Webhooks: webhooks, Storage: storage,
		VATChecker: vatcheck.New(cfg.VATChecker, cfg.VIESURL)}.Server()
	srv.UI, srv.Inbox = ui.Dist(), inbox
	if devOIDC != nil {
		srv.DevOIDC = devOIDC
		srv.OIDC = &auth.OIDC{Issuer: devOIDC.Issuer(), ClientID: devstack.OIDCClientID, ClientSecret: devstack.OIDCClientSecret}
	}
	relayCtx, stopRelay := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); srv.Outbox.Run(relayCtx) }()
	closers = append(closers, func() { stopRelay(); <-done })
	return srv, cleanup, nil
}

// serveAPI serves HTTP until ctx ends, then drains requests gracefully.
func serveAPI(ctx context.Context, cfg *config.Config, log *slog.Logger, srv *api.Server) error {
	fiberApp := api.New(srv)
	if err := serveMetrics(ctx, cfg, log, srv.MetricsHandler()); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("api listener: %w", err)
	}
	log.Info("api listening", "url", cfg.PublicURL, "addr", cfg.HTTPAddr)
	// Lingering close: a client still writing a refused body reads the 413.
	return fiberApp.Listener(api.LingeringListener(ln), fiber.ListenConfig{
		DisableStartupMessage: true, GracefulContext: ctx, ShutdownTimeout: 10 * time.Second,
	})
}

// serveMetrics serves /metrics on KUDOS_METRICS_ADDR (loopback by default,
// never the public address) until ctx ends.
func serveMetrics(ctx context.Context, cfg *config.Config, log *slog.Logger, metrics http.Handler) error {
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	log.Info("metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
	return nil
}

// runWorker runs the Temporal worker until ctx ends.
func runWorker(ctx context.Context, cfg *config.Config, log *slog.Logger, db *store.DB, tc client.Client) error {
	smtpURL := cfg.SMTPURL
	if smtpURL == "" {
		smtpURL = "smtp://" + cfg.DevSMTPAddr
	}
	sender, err := mailer.NewSMTPSender(smtpURL, cfg.MailFrom)
	if err != nil {
		return err
	}
	if cfg.SMTPRequireTLS {
		sender.RequireTLS()
	}
	if cfg.IsDevelopment() {
		// Wait for the dev server and register the search attributes.
		if !waitUntil(ctx, log, "Temporal", func() error {
			return worker.EnsureSearchAttributes(ctx, tc, cfg.TemporalNamespace)
		}) {
			return nil
		}
	}
	payments, _, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	storage, err := newStorage(ctx, cfg, log)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while waiting
		}
		return err
	}
	w := worker.New(tc, cfg.TaskQueue, app.Services{Config: cfg, Log: log, DB: db, Temporal: tc, Payments: payments,
		Storage: storage, Mailer: sender, VATChecker: vatcheck.New(cfg.VATChecker, cfg.VIESURL)}.Activities(nil))
	if err := w.Start(); err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	if err := worker.EnsureReconcileSchedule(ctx, tc, cfg.TaskQueue, cfg.ReconcileInterval); err != nil {
		log.Error("the reconcile schedule could not be set up: missing subscription workflows are not restarted", "err", err)
	}
	if err := worker.EnsureProviderReconcileSchedule(ctx, tc, cfg.TaskQueue, cfg.ProviderReconcileInterval); err != nil {
		log.Error("the provider reconciliation schedule could not be set up: the ledger is not compared with the provider's", "err", err)
	}
	log.Info("worker polling", "task_queue", cfg.TaskQueue, "logo_task_queue", workflows.LogoTaskQueue(cfg.TaskQueue))
	<-ctx.Done()
	w.Stop()
	return nil
}

// temporalClient is the lazy Temporal client of the configuration (TLS,
// mTLS, API key), reporting the SDK's metrics to metrics.
func temporalClient(cfg *config.Config, log *slog.Logger, metrics client.MetricsHandler) (client.Client, error) {
	opts, err := app.TemporalOptions(cfg)
	if err != nil {
		return nil, err
	}
	opts.Logger = tlog.NewStructuredLogger(log.With("component", "temporal"))
	opts.MetricsHandler = metrics
	tc, err := client.NewLazyClient(opts)
	if err != nil {
		return nil, fmt.Errorf("temporal client: %w", err)
	}
	return tc, nil
}

// newPayments builds the configured payment provider and, for Stripe, its
// webhook verifier.
func newPayments(cfg *config.Config, db *store.DB) (kudos.PaymentProvider, api.WebhookParser, error) {
	if cfg.PaymentProvider == "sandbox" {
		return &sandbox.Provider{DB: db, BaseURL: cfg.PublicURL}, nil, nil
	}
	p, err := stripepay.New(stripepay.Config{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
		APIBaseURL: cfg.StripeAPIBase, Currency: cfg.Prices.Currency}, db)
	if err != nil {
		return nil, nil, err
	}
	return p, p, nil
}

// newStorage connects to the configured S3 (the local one in development,
// whose bucket it makes sure exists).
func newStorage(ctx context.Context, cfg *config.Config, log *slog.Logger) (*s3store.Store, error) {
	st, err := s3store.New(ctx, s3store.Config{Endpoint: cfg.S3Endpoint, Region: cfg.S3Region, Bucket: cfg.S3Bucket,
		AccessKeyID: cfg.S3AccessKey, SecretAccessKey: cfg.S3SecretKey, PathStyle: cfg.S3PathStyle, PublicBaseURL: cfg.S3PublicURL})
	if err != nil {
		return nil, fmt.Errorf("object storage: %w", err)
	}
	// The local S3 is served by the api: a worker of its own may start
	// first, and waits for it rather than exit.
	if cfg.UsesDevS3 && !waitUntil(ctx, log, "the local S3", func() error { return st.EnsureBucket(ctx) }) {
		return nil, ctx.Err()
	}
	return st, nil
}

// waitUntil calls try every two seconds until it succeeds (true) or ctx ends
// (false), logging what it waits for: a development service that another
// process is still starting.
func waitUntil(ctx context.Context, log *slog.Logger, what string, try func() error) bool {
	for {
		err := try()
		if err == nil {
			return true
		}
		log.Warn("waiting for "+what, "err", err)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(2 * time.Second):
		}
	}
}
