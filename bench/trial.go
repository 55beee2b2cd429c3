package bench

import (
	"context"
	"fmt"
	"kudos/dispatch"
	"slices"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"kudos"
	kworker "kudos/worker"
	"kudos/workflows"
)

// TrialResult are the figures of the trial-expiry benchmark.
type TrialResult struct {
	Accounts         int           `json:"accounts"`
	LeadSeconds      float64       `json:"lead_seconds"`
	Kudos            ExpiryFigures `json:"kudos"`
	Baseline         ExpiryFigures `json:"baseline"`
	Ratio            float64       `json:"ratio"`
	WorkerPeakRSSMiB float64       `json:"worker_peak_rss_mib"`
	WorkerIdleRSSMiB float64       `json:"worker_idle_rss_mib"`
	Notes            []string      `json:"notes,omitempty"`
}

// ExpiryFigures describe N workflows whose deadline is one instant: how fast
// they were started (set-up), and how late after the instant each one's
// row showed the outcome in Postgres.
type ExpiryFigures struct {
	StartSeconds    float64 `json:"start_seconds"`
	StartsPerSecond float64 `json:"starts_per_second"`
	// StartOverrun is how long after the instant the last start was made
	// (0 when every workflow was started in time; else lags include it).
	StartOverrun float64 `json:"start_overrun_seconds"`
	// StartRetries counts starts tried again after the frontend timed out
	// (a loaded machine; each start is idempotent by its workflow id).
	StartRetries int `json:"start_retries,omitempty"`
	// SettleOverrun is how long after the instant the last started
	// workflow had run its first task (waitSettled; 0 when all had before
	// it, else lags include it).
	SettleOverrun float64 `json:"settle_overrun_seconds,omitempty"`
	LagP50        float64 `json:"lag_p50_seconds"`
	LagP99        float64 `json:"lag_p99_seconds"`
	LagMax        float64 `json:"lag_max_seconds"`
	// PerSecond is N divided by the max lag: outcomes per second from the
	// instant until the last one.
	PerSecond float64 `json:"per_second"`
	// CPU is where the CPU went from the instant until the last one fired,
	// per workflow.
	CPU CPUShare `json:"cpu_per_workflow"`
	// Split is where a sample of the workflows spent their lag, from their
	// histories (lagSplit).
	Split string `json:"lag_split,omitempty"`
}

// expiry is one side of the benchmark: how to prepare N workflows for an
// instant, start one, count those that fired, and read when each fired.
type expiry struct {
	prepare func(ctx context.Context, at time.Time) error
	start   func(ctx context.Context, i int, at time.Time) error
	fired   func(ctx context.Context) (int, error)
	firedAt func(ctx context.Context) ([]time.Time, error)
	// temporal and id, when set, name the i-th workflow: the instant waits
	// for their first tasks (waitSettled), and their histories are read
	// after the run for the lag split (lagSplit).
	temporal client.Client
	id       func(i int) string
}

// startConcurrency is how many workflow starts are in flight during set-up.
const startConcurrency = 16

// Trial measures trial expiry at scale: o.Accounts accounts whose trials end
// at one instant, each with its subscription workflow started as the outbox
// relay starts it (api.Dispatcher, from the read model), and the time from
// that instant until Postgres shows each one trial_expired. The baseline is
// the same number of TimerWorkflows (one timer, one small write) on a task
// queue of their own, run by a worker in this process, on the same Temporal.
func Trial(ctx context.Context, e *Env, o Options) (*TrialResult, []Row, error) {
	n := o.Accounts
	res := &TrialResult{Accounts: n}
	// Starting, and each workflow's first task, must end before the
	// instant: 10 s plus 25 ms a workflow leaves room for 40 started and
	// settled a second (a quiet 2-core machine does 70–110 starts a second,
	// and the dev server runs their first tasks behind them).
	lead := 10*time.Second + time.Duration(n)*25*time.Millisecond
	res.LeadSeconds = lead.Seconds()

	base, err := timerBaseline(ctx, e, "trial", n, lead)
	if err != nil {
		return res, nil, fmt.Errorf("trial expiry baseline: %w", err)
	}
	res.Baseline = base

	var members []Member
	idle, _ := RSS(e.WorkerPID)
	res.WorkerIdleRSSMiB = mib(idle)
	_ = ResetPeakRSS(e.WorkerPID)
	prod, err := runExpiry(ctx, e.CPU(), n, lead, expiry{
		prepare: func(ctx context.Context, at time.Time) (err error) {
			members, err = e.CreateAccounts(ctx, AccountSpec{Prefix: "trial", N: n, TrialExpiresAt: at})
			return err
		},
		start: func(ctx context.Context, i int, _ time.Time) error {
			id := members[i].AccountID
			row, err := dispatch.RowOf(dispatch.SubscriptionStart(id))
			if err != nil {
				return err
			}
			return e.Dispatcher.Deliver(ctx, row)
		},
		fired: func(ctx context.Context) (c int, err error) {
			err = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM subscriptions WHERE account_id = ANY($1) AND show_status = $2`,
				accountIDs(members), kudos.StatusTrialExpired).Scan(&c)
			return c, err
		},
		firedAt: func(ctx context.Context) ([]time.Time, error) {
			return queryTimes(ctx, e, `SELECT updated_at FROM subscriptions WHERE account_id = ANY($1)`, accountIDs(members))
		},
		temporal: e.Temporal,
		id:       func(i int) string { return workflows.SubscriptionWorkflowID(members[i].AccountID) },
	})
	peak, _ := PeakRSS(e.WorkerPID)
	res.WorkerPeakRSSMiB = mib(peak)
	if err != nil {
		return res, nil, fmt.Errorf("trial expiry: %w", err)
	}
	res.Kudos = prod
	res.Notes = expiryNotes(base, prod)

	name := fmt.Sprintf("trial expiry (N=%d)", n)
	rate := compared(name, "expiries/s (N ÷ max lag)", "/s", prod.PerSecond, base.PerSecond)
	res.Ratio = *rate.Ratio
	rows := []Row{
		rate.target("ratio ≥ 0.9", res.Ratio >= 0.9),
		perCPU(name, "expiries per CPU-second (neighbours excluded)", prod.CPU, base.CPU),
		compared(name, "lag p50", "s", prod.LagP50, base.LagP50),
		compared(name, "lag p99", "s", prod.LagP99, base.LagP99),
		compared(name, "max lag", "s", prod.LagMax, base.LagMax),
		figure(name, "worker peak RSS", "MiB", res.WorkerPeakRSSMiB),
		compared(name, "set-up: workflow starts/s", "/s", prod.StartsPerSecond, base.StartsPerSecond),
		compared(name, "CPU/workflow: Temporal server", "ms", prod.CPU.TemporalMs, base.CPU.TemporalMs),
		compared(name, "CPU/workflow: worker", "ms", prod.CPU.WorkerMs, base.CPU.BenchMs),
		compared(name, "CPU/workflow: Postgres", "ms", prod.CPU.PostgresMs, base.CPU.PostgresMs),
		compared(name, "CPU taken by other work on the machine", "%", prod.CPU.OtherPercent(), base.CPU.OtherPercent()),
	}
	return res, rows, nil
}

// timerBaseline runs (as name) the baseline of the expiry benchmarks: n
// TimerWorkflows (one timer to one instant, one small write) on a task
// queue of their own, run by a worker in this process with the product
// worker's options, on the same Temporal.
func timerBaseline(ctx context.Context, e *Env, name string, n int, lead time.Duration) (ExpiryFigures, error) {
	runID := e.RunID + "-" + name // the trial's and the renewal's baselines apart
	queue := "bench-timer-" + runID
	// The product worker's options (eight workflow-task polls, not the
	// SDK's two), so that the baseline differs from Kudos only in what its
	// workflows do, not in how many tasks its worker can be handed at once.
	w := worker.New(e.Temporal, queue, kworker.MainOptions)
	w.RegisterWorkflowWithOptions(TimerWorkflow, workflow.RegisterOptions{Name: TimerWorkflowName})
	w.RegisterActivity(&TimerActivities{Pool: e.DB.Pool})
	if err := w.Start(); err != nil {
		return ExpiryFigures{}, err
	}
	base, err := runExpiry(ctx, e.CPU(), n, lead, expiry{
		prepare: func(ctx context.Context, _ time.Time) error {
			_, err := e.DB.Pool.Exec(ctx, timerTable)
			return err
		},
		start: func(ctx context.Context, i int, at time.Time) error {
			_, err := e.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
				ID: fmt.Sprintf("bench-timer:%s:%d", runID, i), TaskQueue: queue,
			}, TimerWorkflowName, TimerInput{RunID: runID, Index: i, FireAt: at})
			return err
		},
		fired: func(ctx context.Context) (c int, err error) {
			err = e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM bench_timer_fires WHERE run_id = $1`, runID).Scan(&c)
			return c, err
		},
		firedAt: func(ctx context.Context) ([]time.Time, error) {
			return queryTimes(ctx, e, `SELECT fired_at FROM bench_timer_fires WHERE run_id = $1`, runID)
		},
		temporal: e.Temporal,
		id:       func(i int) string { return fmt.Sprintf("bench-timer:%s:%d", runID, i) },
	})
	w.Stop()
	return base, err
}

// runExpiry prepares and starts n workflows due at one instant, waits for
// all of them to fire, and returns the figures.
func runExpiry(ctx context.Context, meter CPUMeter, n int, lead time.Duration, x expiry) (ExpiryFigures, error) {
	var f ExpiryFigures
	at := time.Now().Add(lead).Truncate(time.Second)
	if err := x.prepare(ctx, at); err != nil {
		return f, err
	}
	var retries atomic.Int64
	starts := RunN(ctx, startConcurrency, n, func(ctx context.Context, i int) error {
		return startRetrying(ctx, &retries, func() error { return x.start(ctx, i, at) })
	})
	f.StartRetries = int(retries.Load())
	if starts.Errors > 0 {
		return f, fmt.Errorf("%d of %d workflow starts failed (%d retries): %s", starts.Errors, n, f.StartRetries, starts.FirstError)
	}
	f.StartSeconds, f.StartsPerSecond = starts.Elapsed.Seconds(), starts.Rate()
	f.StartOverrun = max(0, time.Since(at).Seconds())
	// The CPU is sampled at the instant, whether or not the set-up has
	// settled by then.
	cpuAt := make(chan CPUSample, 1)
	go func() {
		select {
		case <-time.After(time.Until(at)):
		case <-ctx.Done():
		}
		cpuAt <- meter.Sample()
	}()
	var ids, runs []string
	if x.id != nil {
		ids = make([]string, n)
		for i := range ids {
			ids[i] = x.id(i)
		}
		var err error
		if f.SettleOverrun, runs, err = waitSettled(ctx, x.temporal, ids, at); err != nil {
			return f, err
		}
	}
	select {
	case <-time.After(time.Until(at)):
	case <-ctx.Done():
		return f, ctx.Err()
	}
	cpu0 := <-cpuAt
	// No fixed deadline: a loaded machine fires slower, and only a firing
	// that stopped is broken (expiry_wait.go).
	if err := waitFired(ctx, n, at, 500*time.Millisecond, firedStall, 0, x.fired); err != nil {
		return f, err
	}
	f.CPU = meter.Sample().Sub(cpu0).Share(n)
	times, err := x.firedAt(ctx)
	if err != nil {
		return f, err
	}
	lags := make([]time.Duration, len(times))
	for i, t := range times {
		lags[i] = t.Sub(at)
	}
	slices.Sort(lags)
	f.LagP50, f.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	f.LagMax = percentile(lags, 1).Seconds()
	if f.LagMax > 0 {
		f.PerSecond = float64(n) / f.LagMax
	}
	if x.id != nil {
		if f.Split, err = lagSplit(ctx, x.temporal, ids, runs, at); err != nil {
			return f, err
		}
	}
	return f, nil
}

// queryTimes returns the one timestamp column of a query.
func queryTimes(ctx context.Context, e *Env, sql string, args ...any) ([]time.Time, error) {
	rows, err := e.DB.Pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[time.Time])
}
