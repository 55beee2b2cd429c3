package api_test

import (
	"context"

	"kudos/internal/testenv"
)

// recordHistory records a run of a workflow for the replay tests
// (testenv.RecordHistory).
func (h *harness) recordHistory(workflowID, runID, name string) {
	testenv.RecordHistory(h.t, h.srv.Temporal, workflowID, runID, name)
}

// currentRun returns the run id of the workflow's current run.
func (h *harness) currentRun(workflowID string) string {
	d, err := h.srv.Temporal.DescribeWorkflowExecution(context.Background(), workflowID, "")
	if err != nil {
		h.t.Fatal(err)
	}
	return d.WorkflowExecutionInfo.Execution.RunId
}
