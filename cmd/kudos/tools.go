package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"kudos/app"
	"kudos/config"
	"kudos/ops"
	"kudos/store"
	"kudos/worker"
)

// errUsage is a tool called with the wrong arguments.
var errUsage = errors.New("usage")

// runTool runs an operator's tool: `temporal setup`, `ops account`,
// `ops refund-made`, `ops refund`, `ops promo` or `ops reconcile-provider`. Its
// output goes to out, its logs to stderr.
func runTool(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	level := max(cfg.LogLevel, slog.LevelWarn)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	switch {
	case len(args) == 2 && args[0] == "temporal" && args[1] == "setup":
		return temporalSetup(ctx, cfg, log, out)
	case (len(args) == 3 || len(args) == 4) && args[0] == "ops" && args[1] == "account":
		asJSON := false
		var who string
		for _, a := range args[2:] {
			switch {
			case a == "--json":
				asJSON = true
			case who == "":
				who = a
			default:
				return errUsage
			}
		}
		if who == "" {
			return errUsage
		}
		return opsAccount(ctx, cfg, log, who, asJSON, out)
	case len(args) == 4 && args[0] == "ops" && args[1] == "refund-made":
		return opsRefundMade(ctx, cfg, args[2], args[3], out)
	case len(args) >= 3 && args[0] == "ops" && args[1] == "refund":
		a, err := refundArgs(args[2:])
		if err != nil {
			return err
		}
		return opsRefund(ctx, cfg, a, out)
	case len(args) >= 3 && args[0] == "ops" && args[1] == "promo":
		db, err := store.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer db.Close()
		return ops.Promo(ctx, db, cfg.Prices, args[2:], out)
	case len(args) >= 2 && len(args) <= 3 && args[0] == "ops" && args[1] == "reconcile-provider":
		if len(args) == 3 && args[2] != "--json" {
			return errUsage
		}
		return opsReconcileProvider(ctx, cfg, log, len(args) == 3, out)
	}
	return errUsage
}

// refundArgsOf is what `ops refund` was asked: an invoice's refund, or,
// with --failed, a failed refund's refund again.
type refundArgsOf struct {
	invoice, failed, reason string
	amount                  *int64
}

// refundArgs reads `ops refund <invoice id or number> [--amount 12.34]
// --reason "…"` or `ops refund --failed <refund id> [--amount 12.34]
// --reason "…"` (flags before or after the invoice, --flag=value too).
func refundArgs(args []string) (refundArgsOf, error) {
	var a refundArgsOf
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, inline := strings.Cut(arg, "=")
		switch name {
		case "--amount", "--reason", "--failed":
			if !inline {
				if i+1 >= len(args) {
					return refundArgsOf{}, errUsage
				}
				i++
				value = args[i]
			}
			switch name {
			case "--reason":
				a.reason = value
			case "--failed":
				a.failed = value
			default:
				v, err := ops.ParseAmount(value)
				if err != nil {
					return refundArgsOf{}, err
				}
				a.amount = &v
			}
		default:
			if a.invoice != "" || strings.HasPrefix(arg, "-") {
				return refundArgsOf{}, errUsage
			}
			a.invoice = arg
		}
	}
	if (a.invoice == "") == (a.failed == "") || strings.TrimSpace(a.reason) == "" {
		return refundArgsOf{}, errUsage
	}
	return a, nil
}

// opsRefund refunds an invoice's payment, in full or in part, or a failed
// refund again from its own payment, and prints the refund and its credit
// note (issue 36; docs/runbook-payments.md).
func opsRefund(ctx context.Context, cfg *config.Config, a refundArgsOf, out io.Writer) error {
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	payments, _, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	r := &ops.Refunder{Store: db, Payments: payments}
	var res *ops.RefundResult
	if a.failed != "" {
		res, err = r.RefundFailed(ctx, a.failed, a.amount, a.reason)
	} else {
		res, err = r.Refund(ctx, a.invoice, a.amount, a.reason)
	}
	if err != nil {
		return err
	}
	return ops.WriteRefund(out, res)
}

// opsRefundMade records a refund an operator made by hand after the
// provider refused it (docs/runbook-payments.md).
func opsRefundMade(ctx context.Context, cfg *config.Config, refundID, providerRefundID string, out io.Writer) error {
	if refundID == "" || providerRefundID == "" {
		return errUsage
	}
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.MarkRefundMade(ctx, refundID, providerRefundID); err != nil {
		return err
	}
	fmt.Fprintf(out, "refund %s recorded as made (%s): its checkout is refunded and the customer's timeline shows it\n", refundID, providerRefundID)
	return nil
}

// opsReconcileProvider runs the provider reconciliation now, as its daily
// Schedule does (the same window since the last run, the same repairs,
// refused while the Schedule's run works), and prints the comparison.
func opsReconcileProvider(ctx context.Context, cfg *config.Config, log *slog.Logger, asJSON bool, out io.Writer) error {
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	payments, _, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	// No relay kick: the api's relay polls the outbox and delivers the
	// repaired events.
	rec := app.Services{Config: cfg, Log: log, DB: db, Payments: payments}.ProviderReconciler(nil)
	if rec == nil {
		return fmt.Errorf("the payment provider %s keeps no ledger to compare with", payments.Name())
	}
	rep, err := rec.Reconcile(ctx, nil)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return ops.WriteProviderReport(out, rep)
}

// temporalSetup registers the namespace and the search attributes.
func temporalSetup(ctx context.Context, cfg *config.Config, log *slog.Logger, out io.Writer) error {
	opts, err := app.TemporalOptions(cfg)
	if err != nil {
		return err
	}
	opts.Logger = tlog.NewStructuredLogger(log)
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := client.DialContext(dctx, opts)
	if err != nil {
		return fmt.Errorf("temporal at %s: %w", cfg.TemporalAddress, err)
	}
	defer c.Close()
	return worker.Setup(ctx, c, cfg.TemporalNamespace, func(msg string, args ...any) {
		fmt.Fprintln(out, append([]any{msg}, args...)...)
	})
}

// opsAccount prints the report of every account idOrEmail names.
func opsAccount(ctx context.Context, cfg *config.Config, log *slog.Logger, idOrEmail string, asJSON bool, out io.Writer) error {
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	opts, err := app.TemporalOptions(cfg)
	if err != nil {
		return err
	}
	opts.Logger = tlog.NewStructuredLogger(log)
	// Lazy: with Temporal away the report still shows the read model.
	tc, err := client.NewLazyClient(opts)
	if err != nil {
		return err
	}
	defer tc.Close()
	in := &ops.Inspector{Store: db, Temporal: tc, Timeline: ops.StoreTimeline(db)}
	ids, err := in.Resolve(ctx, idOrEmail)
	if err != nil {
		return err
	}
	reports := make([]*ops.Report, 0, len(ids))
	for _, id := range ids {
		r, err := in.Account(ctx, id)
		if err != nil {
			return fmt.Errorf("account %s: %w", id, err)
		}
		reports = append(reports, r)
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(reports)
	}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(out)
		}
		if err := ops.WriteText(out, r); err != nil {
			return err
		}
	}
	return nil
}
