package api_test

import (
	"context"
	"os"
	"path/filepath"

	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// recordHistory writes the history of one run of a workflow to
// workflows/testdata/name when KUDOS_RECORD_HISTORIES is set: histories
// recorded from real runs are what the replay tests guard (ARCHITECTURE §5).
// Record again (and review the diff) only when a change is meant to be
// incompatible and is guarded by workflow.GetVersion.
func (h *harness) recordHistory(workflowID, runID, name string) {
	if os.Getenv("KUDOS_RECORD_HISTORIES") == "" {
		return
	}
	t := h.t
	ctx := context.Background()
	it := h.srv.Temporal.GetWorkflowHistory(ctx, workflowID, runID, false, 0)
	var hist historypb.History
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	raw, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(&hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "workflows", "testdata", name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s (%d events)", name, len(hist.Events))
}

// currentRun returns the run id of the workflow's current run.
func (h *harness) currentRun(workflowID string) string {
	d, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), workflowID, "")
	if err != nil {
		h.t.Fatal(err)
	}
	return d.WorkflowExecutionInfo.Execution.RunId
}
