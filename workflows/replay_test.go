package workflows_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

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
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(workflows.Subscription)
			r.RegisterWorkflow(workflows.Email)
			r.RegisterWorkflow(workflows.Logo)
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Fatal(err)
			}
		})
	}
}
