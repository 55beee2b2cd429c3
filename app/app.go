// Package app is the one wiring of Kudos (the habit of wtf's Main): from the
// configuration and the outside services it builds the api's server, the
// dispatcher and relay that hand work to Temporal, and the worker's
// activities. The binary, the api's test harness, the benchmarks and the
// worker tests all build through it, so they run what production runs.
package app

import (
	"context"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/activities"
	"kudos/api"
	"kudos/auth"
	"kudos/config"
	"kudos/dispatch"
	"kudos/mailer"
	"kudos/store"
)

// Services are the configuration and the outside services the app runs on.
// Temporal may be nil for an api without workflows (handler tests).
type Services struct {
	Config   *config.Config
	Log      *slog.Logger
	DB       *store.DB
	Temporal client.Client
	Payments kudos.PaymentProvider
	// Webhooks verifies the provider's webhooks (nil for the sandbox).
	Webhooks api.WebhookParser
	Storage  kudos.ObjectStorage
	// Mailer delivers mail (the worker's SMTP sender).
	Mailer kudos.MailSender
	// VATChecker checks VAT ids (VIES, or the development stand-in).
	VATChecker kudos.VATChecker
}

// Dispatcher is the way into Temporal: workflow starts, signals and the
// subscription updates, on the configured task queue and lifecycle.
func (s Services) Dispatcher() *dispatch.Dispatcher {
	return &dispatch.Dispatcher{Temporal: s.Temporal, TaskQueue: s.Config.TaskQueue, DB: s.DB,
		Period: s.Config.BillingPeriod, CheckoutTTL: s.Config.CheckoutTTL, Lifecycle: s.Config.Lifecycle,
		VATCheckRetry: s.Config.VATCheckRetry, VATCheckLimit: s.Config.VATCheckLimit}
}

// Server is the api's server: the auth services from the configuration,
// the dispatcher, and an outbox relay (started by the caller with Run) that
// delivers through it (and does the api's own queued work: Server.Deliver). The caller adds what only it has (the UI, the
// development stand-ins).
func (s Services) Server() *api.Server {
	srv := &api.Server{
		Config: s.Config, DB: s.DB, Temporal: s.Temporal, Log: s.Log,
		Hasher:   auth.NewHasher(0),
		Sessions: auth.NewSessions(s.Config.JWTSecret, nil, s.Config.JWTPreviousSecrets...),
		Tokens:   auth.NewMailTokens(s.Config.JWTSecret),
		OIDC:     &auth.OIDC{Issuer: s.Config.OIDCIssuer, ClientID: s.Config.GoogleClientID, ClientSecret: s.Config.GoogleClientSecret},
		Payments: s.Payments, Webhooks: s.Webhooks, Storage: s.Storage, VATChecker: s.VATChecker,
	}
	srv.Dispatcher = s.Dispatcher()
	srv.Outbox = dispatch.NewRelay(s.DB, srv.Deliver, s.Log.With("component", "outbox"))
	return srv
}

// Activities are the worker's activities on the services, with the
// reconciliation of subscription workflows (whose starts go through the
// outbox; relayKick, when set, delivers them at once).
func (s Services) Activities(relayKick func()) *activities.Activities {
	reconciler := &dispatch.Reconciler{Temporal: s.Temporal, DB: s.DB, Log: s.Log.With("component", "reconcile"), Kick: relayKick,
		Payments: s.Payments}
	acts := &activities.Activities{
		Store: s.DB, Mailer: s.Mailer, Render: mailer.Render, Payments: s.Payments, Storage: s.Storage,
		Prices: s.Config.Prices, Lifecycle: s.Config.Lifecycle, UIBase: s.Config.UIOrigins[0], Now: time.Now,
		Tokens: auth.NewMailTokens(s.Config.JWTSecret), PublicURL: s.Config.PublicURL,
		Reconciler: reconciler, Subscriptions: reconciler,
		SellerCountry: s.Config.SellerCountry, VATRegistrations: s.Config.VATRegistrations, VATChecker: s.VATChecker, Kick: relayKick,
		QueueMail: func(ctx context.Context, req kudos.MailRequest, ev *kudos.BillingEvent) error {
			var err error
			if ev != nil {
				err = s.DB.EnqueueWithEvent(ctx, dispatch.Mail(req), *ev)
			} else {
				err = s.DB.Enqueue(ctx, dispatch.Mail(req))
			}
			if err != nil {
				return err
			}
			if relayKick != nil {
				relayKick()
			}
			return nil
		},
	}
	reconciler.Refund, reconciler.RefundRetries = acts.RefundCheckout, s.Config.Lifecycle.RefundRetries
	if rec := s.ProviderReconciler(relayKick); rec != nil {
		acts.ProviderReconciler = rec
	}
	return acts
}

// ProviderReconciler is the daily provider reconciliation of the
// configured payment provider (the Schedule's activity and `kudos ops
// reconcile-provider` run the same), or nil when the provider keeps no
// ledger to compare with. relayKick, when set, delivers its repairs at
// once.
func (s Services) ProviderReconciler(relayKick func()) *dispatch.ProviderReconciler {
	ledger, ok := s.Payments.(kudos.ProviderLedger)
	if !ok {
		return nil
	}
	rec := &dispatch.ProviderReconciler{Provider: ledger, Name: s.Payments.Name(), DB: s.DB,
		Log: s.Log.With("component", "reconcile-provider"), Kick: relayKick}
	if limit := s.Config.Lifecycle.PendingLimit; limit > 0 { // a debit settles for up to KUDOS_PENDING_LIMIT, or longer
		rec.PaymentOverlap = dispatch.PaymentOverlapFor(limit)
	}
	return rec
}
