package testenv

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
)

// RecordHistory writes the history of one run of a workflow (runID "" is
// the current one) to workflows/testdata/name when KUDOS_RECORD_HISTORIES is
// set: histories recorded from real runs are what the replay tests guard
// (ARCHITECTURE §5). Record again (and review the diff) only when a change
// is guarded by workflow.GetVersion, keeping the older files beside them.
func RecordHistory(t testing.TB, c client.Client, workflowID, runID, name string) {
	t.Helper()
	if os.Getenv("KUDOS_RECORD_HISTORIES") == "" {
		return
	}
	hist := historypb.History{Events: History(t, c, workflowID, runID)}
	raw, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(&hist)
	if err != nil {
		t.Fatal(err)
	}
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "workflows", "testdata")
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s (%d events)", name, len(hist.Events))
}

// History returns the events of one run of a workflow (runID "" is the
// current one), every page of them.
func History(t testing.TB, c client.Client, workflowID, runID string) []*historypb.HistoryEvent {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}
