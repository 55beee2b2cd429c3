// Command bench runs the benchmarks of package bench against a running
// Kudos (api, worker, Postgres, Temporal), prints the table and writes the
// figures as JSON. bench/run.sh (make bench) starts those services and
// passes their addresses; flags after `make bench ARGS=…` or
// `bench/run.sh …` reach this program. It exits non-zero only when
// something is broken, never because of a figure.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kudos/bench"
)

// benchmark is one entry of the run: its name (for -only) and its code.
type benchmark struct {
	name string
	run  func(context.Context, *bench.Env, bench.Options) (any, []bench.Row, error)
}

// adapt turns a typed benchmark function into a benchmark.
func adapt[T any](name string, f func(context.Context, *bench.Env, bench.Options) (*T, []bench.Row, error)) benchmark {
	return benchmark{name, func(ctx context.Context, e *bench.Env, o bench.Options) (any, []bench.Row, error) {
		return f(ctx, e, o)
	}}
}

var benchmarks = []benchmark{
	adapt("read", bench.ReadPath),
	adapt("signin", bench.Signin),
	adapt("trial", bench.Trial),
	adapt("intake", bench.Intake),
	adapt("ui", bench.UI),
	adapt("scale", bench.Scale),
	adapt("renewal", bench.Renewal),
	adapt("lighthouse", bench.Lighthouse),
}

// onlyWhenNamed are the benchmarks a run without -only leaves out: scale and
// renewal take many minutes (100 000 accounts, 10 000 renewals); lighthouse
// needs Lighthouse from the tools cache and about a minute per page load.
var onlyWhenNamed = []string{"scale", "renewal", "lighthouse"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	var e bench.Env
	var o bench.Options
	var only, out, temporalCLI, scale string
	var serveMinimal bool
	flag.StringVar(&e.BaseURL, "base", "http://127.0.0.1:18280", "origin of the Kudos api")
	flag.StringVar(&e.DatabaseURL, "db", "postgres://kudos@127.0.0.1:54359/kudos?sslmode=disable", "Postgres URL of the api's database")
	flag.StringVar(&e.TemporalAddress, "temporal", "127.0.0.1:7263", "Temporal frontend host:port")
	flag.StringVar(&e.TaskQueue, "task-queue", "kudos-bench", "task queue of the Kudos worker (its KUDOS_TASK_QUEUE)")
	flag.StringVar(&e.JWTSecret, "jwt-secret", os.Getenv("KUDOS_JWT_SECRET"), "the api's KUDOS_JWT_SECRET")
	flag.StringVar(&e.StripeAddr, "stripe-addr", "127.0.0.1:18284", "address for the fake Stripe API (the api's KUDOS_STRIPE_API_BASE)")
	flag.StringVar(&e.StripeWebhookSecret, "stripe-webhook-secret", os.Getenv("STRIPE_WEBHOOK_SECRET"), "the api's STRIPE_WEBHOOK_SECRET")
	flag.IntVar(&e.APIPID, "api-pid", 0, "process id of the kudos api process (memory and CPU figures)")
	flag.IntVar(&e.WorkerPID, "worker-pid", 0, "process id of the kudos worker process (memory and CPU figures)")
	flag.IntVar(&e.PostgresPID, "pg-pid", 0, "process id of the postmaster (CPU figures)")
	flag.IntVar(&e.TemporalPID, "temporal-pid", 0, "process id of the Temporal server (CPU figures)")
	flag.DurationVar(&e.Period, "period", 8760*time.Hour, "the api's KUDOS_BILLING_PERIOD")
	flag.DurationVar(&e.CheckoutTTL, "checkout-ttl", 24*time.Hour, "the api's KUDOS_CHECKOUT_TTL")
	flag.StringVar(&e.UIScript, "ui-script", "bench/ui/ui-bench.mjs", "the UI benchmark's Node program")
	flag.StringVar(&e.Chromium, "chromium", "/usr/bin/chromium", "Chromium executable")
	flag.StringVar(&e.LighthouseScript, "lighthouse-script", "bench/ui/lighthouse-bench.mjs", "the Lighthouse benchmark's Node program")
	flag.IntVar(&o.LighthouseRuns, "lighthouse-runs", 3, "Lighthouse runs per page (lighthouse)")
	flag.StringVar(&o.LighthouseCPU, "lighthouse-cpu", "", `Lighthouse's CPU slowdown: empty for the mobile preset's 4x, "calibrated" for this machine's measured speed (lighthouse)`)
	flag.StringVar(&temporalCLI, "temporal-cli-version", "", "version of the Temporal CLI serving Temporal (for the report)")
	flag.DurationVar(&o.Duration, "duration", 10*time.Second, "how long each load (read path, sign-in) runs")
	flag.IntVar(&o.Rounds, "rounds", 2, "the read path alternates with its baseline in this many rounds")
	flag.IntVar(&o.Concurrency, "concurrency", 32, "concurrent clients of the read path")
	flag.IntVar(&o.SigninConcurrency, "signin-concurrency", 8, "concurrent clients of the sign-in saturation")
	flag.IntVar(&o.Burst, "burst", 200, "concurrent sign-ins of the burst")
	flag.IntVar(&o.Accounts, "accounts", 2000, "accounts whose trials expire at one instant (try 10000)")
	flag.IntVar(&o.Events, "events", 300, "distinct payment events (plus one repeat per four)")
	flag.IntVar(&o.EventConcurrency, "event-concurrency", 16, "concurrent webhook senders (and signal senders)")
	flag.IntVar(&o.LCPRuns, "lcp-runs", 5, "page loads per LCP figure")
	flag.StringVar(&only, "only", "", "comma-separated benchmarks to run (read,signin,trial,intake,ui,scale,renewal,lighthouse); empty runs all but scale, renewal and lighthouse")
	flag.StringVar(&scale, "scale", "1000,10000,100000", "the scale benchmark's steps: accounts seeded in all, comma-separated")
	flag.IntVar(&o.Renewals, "renewals", 10000, "renewals falling due at one instant (renewal)")
	flag.IntVar(&o.ScaleWorkflows, "scale-workflows", 2000, "accounts of the scale benchmark with a running subscription workflow")
	flag.StringVar(&out, "out", "bench/results/latest.json", "where the JSON report goes (the Markdown table goes beside it, .md)")
	flag.BoolVar(&serveMinimal, "serve-minimal", false, "serve the read path's minimal baseline on file descriptor 3 (internal: the read benchmark starts it)")
	var otlpSink string
	flag.StringVar(&otlpSink, "otlp-sink", "", "serve an OTLP/HTTP trace sink on this address that discards what it gets (internal: the tracing benchmark's backend)")
	flag.Parse()
	if otlpSink != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return bench.ServeOTLPSink(ctx, otlpSink, func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) })
	}
	if serveMinimal {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return bench.ServeMinimal(ctx, e.DatabaseURL, e.JWTSecret)
	}
	for _, v := range strings.Split(scale, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			return fmt.Errorf("-scale: %q is not a number of accounts", v)
		}
		o.ScaleAccounts = append(o.ScaleAccounts, n)
	}
	if o.Rounds < 1 {
		o.Rounds = 1
	}
	selected := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			if !slices.ContainsFunc(benchmarks, func(b benchmark) bool { return b.name == n }) {
				return fmt.Errorf("-only: unknown benchmark %q", n)
			}
			selected[n] = true
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := e.Open(ctx); err != nil {
		return err
	}
	defer e.Close()
	report := bench.NewReport(o)
	e.Versions(ctx, &report.Machine)
	report.Machine.TemporalCLI = strings.TrimPrefix(temporalCLI, "temporal version ")

	var failed []error
	for _, b := range benchmarks {
		if len(selected) > 0 && !selected[b.name] || len(selected) == 0 && slices.Contains(onlyWhenNamed, b.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "── %s\n", b.name)
		start := time.Now()
		details, rows, err := b.run(ctx, &e, o)
		report.Add(b.name, details, rows, err)
		if err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", b.name, err))
			fmt.Fprintf(os.Stderr, "   FAILED after %s: %v\n", time.Since(start).Round(time.Second), err)
		} else {
			fmt.Fprintf(os.Stderr, "   done in %s\n", time.Since(start).Round(time.Second))
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Println()
	report.PrintMachine(os.Stdout)
	fmt.Println()
	report.PrintTable(os.Stdout)
	md := strings.TrimSuffix(out, ".json") + ".md"
	if err := errors.Join(report.WriteJSON(out), report.WriteMarkdown(md)); err != nil {
		failed = append(failed, err)
	} else {
		fmt.Printf("\nfigures written to %s (and the table to %s)\n", out, md)
	}
	return errors.Join(failed...)
}
