package api_test

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

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

// historyOf returns the events of a run of the workflow ("": the current).
func (h *harness) historyOf(workflowID, runID string) []*historypb.HistoryEvent {
	h.t.Helper()
	it := h.srv.Temporal.GetWorkflowHistory(context.Background(), workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			h.t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}
