package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"kudos/app"
	"kudos/dispatch"
	"kudos/internal/testenv"
)

var (
	flakyTaskFailures atomic.Int32
	flakyActivityRuns atomic.Int32
)

// flakyWorkflow fails its first workflow task (a bug fixed by a deploy) and
// runs an activity that fails once.
func flakyWorkflow(ctx workflow.Context) error {
	if flakyTaskFailures.Add(1) == 1 {
		panic("a bug in the workflow (test)")
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}})
	return workflow.ExecuteActivity(ctx, flakyActivity).Get(ctx, nil)
}

func flakyActivity(context.Context) error {
	if flakyActivityRuns.Add(1) == 1 {
		return errors.New("the provider is away (test)")
	}
	return nil
}

// TestTemporalMetricsOnTheMetricsEndpoint: the SDK's workflow-task and
// activity metrics (failures, latencies, schedule-to-start) reach the
// Prometheus endpoint beside the outbox gauges, as the worker serves them.
func TestTemporalMetricsOnTheMetricsEndpoint(t *testing.T) {
	db := testenv.DB(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(dispatch.NewOutboxCollector(db))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	handler, flush := app.TemporalMetrics(reg, quiet)
	defer flush.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: testenv.TemporalAddress(t), MetricsHandler: handler,
		Logger: tlog.NewStructuredLogger(quiet)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	queue := "test-" + uuid.NewString()
	w := sdkworker.New(c, queue, sdkworker.Options{})
	w.RegisterWorkflow(flakyWorkflow)
	w.RegisterActivity(flakyActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, flakyWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	want := []string{
		`temporal_workflow_task_execution_failed_total{`,
		`temporal_activity_execution_failed_total{`,
		`temporal_activity_schedule_to_start_latency_seconds_bucket{`,
		`temporal_activity_execution_latency_seconds_bucket{`,
		`temporal_workflow_task_schedule_to_start_latency_seconds_bucket{`,
		`temporal_workflow_completed_total{`,
		`kudos_outbox_pending `,
		`kudos_outbox_dead_letters `,
	}
	var body string
	for {
		res, err := srv.Client().Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body = string(raw)
		missing := []string{}
		for _, m := range want {
			if !strings.Contains(body, m) {
				missing = append(missing, m)
			}
		}
		if len(missing) == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("metrics missing %v from:\n%s", missing, body)
		}
		time.Sleep(300 * time.Millisecond) // the scope reports every second
	}
	if !strings.Contains(body, `task_queue="`+queue+`"`) {
		t.Errorf("metrics are not labelled with the task queue")
	}
}
