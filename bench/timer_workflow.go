package bench

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TimerWorkflowName is the registered name of TimerWorkflow.
const TimerWorkflowName = "BenchTimer"

// TimerInput is the input of TimerWorkflow.
type TimerInput struct {
	RunID  string
	Index  int
	FireAt time.Time
}

// TimerWorkflow is the baseline of the trial-expiry benchmark: the least a
// workflow can do to turn a deadline into a row in Postgres, one timer to
// FireAt and one activity with one small write, with the retry policy of
// the subscription workflow's activities.
func TimerWorkflow(ctx workflow.Context, in TimerInput) error {
	if d := in.FireAt.Sub(workflow.Now(ctx)); d > 0 {
		if err := workflow.Sleep(ctx, d); err != nil {
			return err
		}
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	var a *TimerActivities
	return workflow.ExecuteActivity(ctx, a.RecordFired, in).Get(ctx, nil)
}

// TimerActivities holds the one activity of TimerWorkflow.
type TimerActivities struct {
	Pool *pgxpool.Pool
}

// timerTable is where TimerWorkflow records that it fired (bench only; the
// bench database is thrown away with the cluster).
const timerTable = `CREATE TABLE IF NOT EXISTS bench_timer_fires (
	run_id text NOT NULL, index integer NOT NULL, fired_at timestamptz NOT NULL, PRIMARY KEY (run_id, index))`

// RecordFired writes the firing time, as WriteSubscription writes
// updated_at: from the worker's clock, idempotently.
func (a *TimerActivities) RecordFired(ctx context.Context, in TimerInput) error {
	_, err := a.Pool.Exec(ctx, `INSERT INTO bench_timer_fires (run_id, index, fired_at) VALUES ($1, $2, $3)
		ON CONFLICT DO NOTHING`, in.RunID, in.Index, time.Now())
	return err
}
