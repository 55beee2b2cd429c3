package bench

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"kudos/workflows"
)

// ScaleResult are the figures of the scale benchmark (issue 39), one step
// per number of accounts.
type ScaleResult struct {
	// Workflows is how many of the accounts have a running subscription
	// workflow (a trial; the dev server's in-memory store holds them all
	// in the Temporal process's memory).
	Workflows int         `json:"running_workflows"`
	Steps     []ScaleStep `json:"steps"`
	Notes     []string    `json:"notes,omitempty"`
}

// ScaleStep is what one number of accounts measured.
type ScaleStep struct {
	Accounts    int     `json:"accounts"`
	SeedSeconds float64 `json:"seed_seconds"`
	// The Reconcile workflow's sweep, on the product worker.
	ReconcileSeconds float64 `json:"reconcile_seconds"`
	// ReconcileWaitSeconds is the part of ReconcileSeconds its first
	// workflow task waited for the worker (busy with the workflows just
	// started), not sweeping.
	ReconcileWaitSeconds float64 `json:"reconcile_wait_seconds"`
	ReconcileWalked      int     `json:"reconcile_walked"`
	ReconcileChecked     int     `json:"reconcile_checked"`
	WorkerPeakRSSMiB     float64 `json:"worker_peak_rss_mib"`
	WorkerIdleRSSMiB     float64 `json:"worker_idle_rss_mib"`
	ReadP50Ms            float64 `json:"read_p50_ms"`
	ReadP99Ms            float64 `json:"read_p99_ms"`
	MinimalP99Ms         float64 `json:"minimal_p99_ms"`
	SigninP99Ms          float64 `json:"signin_p99_ms"`
	RelayLagP99Seconds   float64 `json:"relay_lag_p99_seconds"`
	ApplyLagP99Seconds   float64 `json:"apply_lag_p99_seconds"`
	// IntakeError is the intake benchmark's failure at this step (its
	// lags are then not measured).
	IntakeError         string  `json:"intake_error,omitempty"`
	DatabaseBytes       int64   `json:"database_bytes"`
	BytesPerAccount     float64 `json:"bytes_per_account"`
	TableBytesPerAcount float64 `json:"table_bytes_per_account"`
	// Slowest are the slowest hot statements of the step and their plans.
	Slowest []PlanFigure `json:"slowest,omitempty"`
}

// Scale seeds o.ScaleAccounts accounts in steps (each step adds to the
// last: 1 000, then 10 000, then 100 000), o.ScaleWorkflows of them with a
// running subscription workflow, and at each step measures what should not
// grow with the accounts: the reconciliation's sweep (time per run, the
// worker's peak memory), the account read, sign-in, the outbox relay under
// a burst of webhooks, Postgres bytes per account and the plans of the
// slowest hot statements (a sequential scan is named). The read path,
// sign-in and intake are the benchmarks of the same name, shortened.
func Scale(ctx context.Context, e *Env, o Options) (*ScaleResult, []Row, error) {
	res := &ScaleResult{}
	short := o
	short.Duration, short.Rounds = max(4*time.Second, o.Duration/2), 1
	short.Burst, short.Events = min(o.Burst, 50), min(o.Events, 150)
	short.IntakeCheckoutsOnly = true // the relay's lag under a burst of checkouts, as measured before the ledger phase
	statements := resetStatements(ctx, e)
	if !statements {
		res.Notes = append(res.Notes, "pg_stat_statements is not loaded: no plans (bench/run.sh preloads it)")
	}
	seeded, running := 0, 0
	var rows []Row
	for _, n := range o.ScaleAccounts {
		if n <= seeded {
			continue
		}
		step := ScaleStep{Accounts: n}
		wantRunning := min(n, o.ScaleWorkflows)
		d, err := seedScale(ctx, e, seeded, n, wantRunning)
		if err != nil {
			return res, rows, err
		}
		step.SeedSeconds = d.Seconds()
		if err := startScaleWorkflows(ctx, e, running, wantRunning); err != nil {
			return res, rows, err
		}
		seeded, running = n, wantRunning
		res.Workflows = running
		if statements {
			_, _ = e.DB.Pool.Exec(ctx, `SELECT pg_stat_statements_reset()`)
		}

		// The sweep is timed on a settled worker: not behind the first
		// tasks of the workflows just started.
		settle(ctx, e.WorkerPID)
		idle, _ := RSS(e.WorkerPID)
		step.WorkerIdleRSSMiB = mib(idle)
		_ = ResetPeakRSS(e.WorkerPID)
		t0 := time.Now()
		run, err := e.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("bench-reconcile:%s:%d", e.RunID, n),
			TaskQueue: e.TaskQueue}, workflows.Reconcile, workflows.ReconcileProgress{})
		if err != nil {
			return res, rows, err
		}
		firstRun := run.GetRunID() // Get follows the sweep's runs
		var rep workflows.ReconcileReport
		if err := run.Get(ctx, &rep); err != nil {
			return res, rows, fmt.Errorf("reconcile at %d accounts: %w", n, err)
		}
		step.ReconcileSeconds = time.Since(t0).Seconds()
		step.ReconcileWaitSeconds, err = firstTaskWait(ctx, e, run.GetID(), firstRun)
		if err != nil {
			return res, rows, err
		}
		step.ReconcileWalked, step.ReconcileChecked = rep.Walked, rep.Checked
		peak, _ := PeakRSS(e.WorkerPID)
		step.WorkerPeakRSSMiB = mib(peak)

		// The read, sign-in and intake benchmarks make their own users
		// (named after the run id): a step of its own keeps them apart.
		se := *e
		se.RunID = fmt.Sprintf("%s-%d", e.RunID, n)
		read, _, err := ReadPath(ctx, &se, short)
		if err != nil {
			return res, rows, err
		}
		step.ReadP50Ms, step.ReadP99Ms, step.MinimalP99Ms = read.Kudos.P50Ms, read.Kudos.P99Ms, read.Minimal.P99Ms
		signin, _, err := Signin(ctx, &se, short)
		if err != nil {
			return res, rows, err
		}
		step.SigninP99Ms = signin.Saturation.P99Ms
		// The intake's own checks stay strict; a step whose check fails
		// says so in the notes and the table (no lag figure) and the
		// other figures of the step are still measured.
		intake, _, err := Intake(ctx, &se, short)
		if err != nil {
			step.IntakeError = err.Error()
			res.Notes = append(res.Notes, fmt.Sprintf("N=%d: %v", n, err))
		} else {
			step.RelayLagP99Seconds, step.ApplyLagP99Seconds = intake.RelayLagP99, intake.LagP99
		}

		db, tables, accounts, err := bytesPerAccount(ctx, e)
		if err != nil {
			return res, rows, err
		}
		step.DatabaseBytes = db
		step.BytesPerAccount, step.TableBytesPerAcount = float64(db)/float64(accounts), float64(tables)/float64(accounts)
		if statements {
			if step.Slowest, err = slowestStatements(ctx, e, 5, 20); err != nil {
				res.Notes = append(res.Notes, "plans: "+err.Error())
			}
		}
		for _, p := range step.Slowest {
			fmt.Printf("   slowest at N=%d: %.2f ms × %d, seq scan [%s]: %.160s\n", n, p.MeanMs, p.Calls, p.SeqScan, p.Query)
		}
		res.Steps = append(res.Steps, step)
		rows = append(rows, step.rows()...)
		fmt.Printf("   scale N=%d: reconcile %.1f s (walked %d), read p99 %.1f ms, sign-in p99 %.0f ms, relay lag p99 %.2f s, %.0f B/account\n",
			n, step.ReconcileSeconds, step.ReconcileWalked, step.ReadP99Ms, step.SigninP99Ms, step.RelayLagP99Seconds, step.BytesPerAccount)
	}
	return res, rows, nil
}

// rows are the step's lines of the table.
func (s ScaleStep) rows() []Row {
	name := fmt.Sprintf("scale (N=%d)", s.Accounts)
	out := []Row{
		figure(name, "reconciliation: one sweep (its first task's wait excluded)", "s", s.ReconcileSeconds-s.ReconcileWaitSeconds),
		figure(name, "reconciliation: per 1 000 accounts", "ms", 1e6*(s.ReconcileSeconds-s.ReconcileWaitSeconds)/float64(max(1, s.ReconcileWalked))),
		figure(name, "reconciliation: its first task's wait for the worker", "s", s.ReconcileWaitSeconds),
		figure(name, "reconciliation: worker peak RSS", "MiB", s.WorkerPeakRSSMiB),
		compared(name, "GET /v1/accounts/{id} p99 vs minimal", "ms", s.ReadP99Ms, s.MinimalP99Ms).
			target("≤ 1.2× minimal", s.ReadP99Ms <= 1.2*s.MinimalP99Ms),
		figure(name, "GET /v1/accounts/{id} p50", "ms", s.ReadP50Ms),
		figure(name, "sign-in p99 at saturation", "ms", s.SigninP99Ms),
		figure(name, "Postgres bytes per account (database)", "B", s.BytesPerAccount),
		figure(name, "Postgres bytes per account (its tables)", "B", s.TableBytesPerAcount),
	}
	if s.IntakeError == "" {
		out = append(out, figure(name, "outbox relay lag p99 (webhook burst)", "s", s.RelayLagP99Seconds),
			figure(name, "payment apply lag p99 (webhook burst)", "s", s.ApplyLagP99Seconds).target("≤ 2 s", s.ApplyLagP99Seconds <= 2))
	}
	seq := 0
	for _, p := range s.Slowest {
		if p.SeqScan != "" {
			seq++
		}
	}
	if len(s.Slowest) > 0 {
		out = append(out, figure(name, "slowest hot statement: mean", "ms", s.Slowest[0].MeanMs),
			figure(name, "hot statements (top 5) with a Seq Scan", "", float64(seq)).target("0", seq == 0))
	}
	return out
}

// firstTaskWait is how long the first workflow task of run runID of
// workflow id waited
// for a worker (started − scheduled).
func firstTaskWait(ctx context.Context, e *Env, id, runID string) (float64, error) {
	var scheduled, started time.Time
	it := e.Temporal.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() && started.IsZero() {
		ev, err := it.Next()
		if err != nil {
			return 0, err
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
			if scheduled.IsZero() {
				scheduled = ev.GetEventTime().AsTime()
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			started = ev.GetEventTime().AsTime()
		}
	}
	if started.IsZero() {
		return 0, nil
	}
	return started.Sub(scheduled).Seconds(), nil
}
