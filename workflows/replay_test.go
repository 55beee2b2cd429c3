package workflows_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"kudos/tracing"
	"kudos/workflows"
)

// TestReplayRecordedHistories replays every history recorded from real runs
// (workflows/testdata, made by the api's integration tests with
// KUDOS_RECORD_HISTORIES=1) against today's workflow code: a change that
// would break running workflows fails here, and must go through
// workflow.GetVersion.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories in workflows/testdata")
	}
	logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			// With the tracing interceptor production's workers have
			// (issue 40): it must not change what a replay does.
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
				Interceptors: []interceptor.WorkerInterceptor{tracing.TemporalInterceptor()}})
			if err != nil {
				t.Fatal(err)
			}
			r.RegisterWorkflow(workflows.Subscription)
			r.RegisterWorkflow(workflows.Email)
			r.RegisterWorkflow(workflows.Logo)
			r.RegisterWorkflow(workflows.Reconcile)
			r.RegisterWorkflow(workflows.Invitation)
			r.RegisterWorkflow(workflows.DataExport)
			r.RegisterWorkflow(workflows.AccountDeletion)
			r.RegisterWorkflow(workflows.UserDeletion)
			r.RegisterWorkflow(workflows.VATCheck)
			r.RegisterWorkflow(workflows.ErasedPayment)
			r.RegisterWorkflow(workflows.ReconcileProvider)
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEveryWorkflowTypeHasARecordedHistory: a workflow type without a
// recorded history is a workflow whose changes nothing guards.
func TestEveryWorkflowTypeHasARecordedHistory(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Events []struct {
				Attrs *struct {
					WorkflowType struct{ Name string } `json:"workflowType"`
				} `json:"workflowExecutionStartedEventAttributes"`
			} `json:"events"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(h.Events) > 0 && h.Events[0].Attrs != nil {
			seen[h.Events[0].Attrs.WorkflowType.Name] = true
		}
	}
	for _, name := range []string{"Subscription", "Email", "Logo", "Reconcile", "Invitation", "DataExport", "AccountDeletion", "UserDeletion", "VATCheck", "ErasedPayment", "ReconcileProvider"} {
		if !seen[name] {
			t.Errorf("no recorded history of workflow type %s in workflows/testdata", name)
		}
	}
}
