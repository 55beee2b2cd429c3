package app_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"regexp"
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
	"go.yaml.in/yaml/v3"

	"kudos/app"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/ops"
	"kudos/store"
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
	// A provider reconciliation that finished: its age is exported then.
	reconciled, err := db.BeginProviderReconciliation(context.Background(), "sandbox", time.Now().UTC(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.FinishProviderReconciliation(context.Background(), reconciled.ID, 0, nil); err != nil {
		t.Fatal(err)
	}
	// A subscription sweep that finished: its age is exported then.
	if err := db.FinishSweep(context.Background(), store.SweepSubscriptions, time.Now()); err != nil {
		t.Fatal(err)
	}
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
	reg.MustRegister(ops.NewPaymentStateCollector(c, fmt.Sprintf("TaskQueue = %q", queue), 0))
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
		`kudos_disputes_open `,
		`kudos_ledger_drift 0`,
		`kudos_payment_state_workflows{state="retrying"} 0`,
		`kudos_checkouts_stuck 0`,
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
	checkAlerts(t, body)
}

// checkAlerts: the rules of docs/alerts.md parse, and every metric they
// name is on the endpoint (the api's own kudos_http_* aside).
func checkAlerts(t *testing.T, body string) {
	raw, err := os.ReadFile("../docs/alerts.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindSubmatch(raw)
	if block == nil {
		t.Fatal("docs/alerts.md has no yaml block")
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr, For string
			}
		}
	}
	if err := yaml.Unmarshal(block[1], &rules); err != nil {
		t.Fatalf("docs/alerts.md: %v", err)
	}
	n := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert == "" || r.Expr == "" || r.For == "" {
				t.Errorf("incomplete rule %+v", r)
			}
			for _, name := range regexp.MustCompile(`\b(?:kudos|temporal)_[a-z0-9_]+`).FindAllString(r.Expr, -1) {
				if !strings.Contains(body, "\n"+name) && !strings.HasPrefix(name, "kudos_http_") {
					t.Errorf("alert %s uses %s, which the metrics endpoint does not export", r.Alert, name)
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("%d alert rules in docs/alerts.md", n)
	}
}
