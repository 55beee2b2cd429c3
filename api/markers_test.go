package api_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"kudos/internal/testenv"
	"kudos/workflows"
)

// TestRunsRecordNoVersionMarkers (issue 39): the subscription runs the
// dispatcher starts, the runs they continue as new into and the mails they
// send are told their version, so they record no version marker, and with
// it no TemporalChangeVersion upsert (a visibility write each); a renewal's
// new run starts with the search attributes of the run it continues and
// upserts none in its first task.
func TestRunsRecordNoVersionMarkers(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(4 * time.Second)
	_, account := h.paidWith("no-markers@example.com", "STARTER", "4242424242424242")
	wf := "subscription:" + account
	first := h.currentRun(wf)
	eventuallyWithin(t, 30*time.Second, "the renewal's new run", func() bool { return h.currentRun(wf) != first })
	renewed := h.currentRun(wf)
	time.Sleep(time.Second) // its first task done
	h.recordHistory(wf, first, "subscription_v4_first_run.json")

	ctx := context.Background()
	for _, run := range []string{first, renewed} {
		for _, ev := range testenv.History(t, h.tc, wf, run) {
			if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "Version" {
				t.Errorf("run %s recorded a version marker: %v", run, ev)
			}
			if _, ok := ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes().GetIndexedFields()["TemporalChangeVersion"]; ok {
				t.Errorf("run %s upserted TemporalChangeVersion: %v", run, ev)
			}
			if run == renewed && ev.GetEventType() == enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES {
				t.Errorf("the renewal's new run upserted search attributes it started with: %v", ev)
			}
		}
	}
	d, err := h.tc.DescribeWorkflowExecution(ctx, wf, renewed)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, p := range d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields() {
		var v any
		if err := converter.GetDefaultDataConverter().FromPayload(p, &v); err != nil {
			t.Fatal(err)
		}
		got[k] = fmt.Sprint(v)
	}
	for k, want := range map[string]string{workflows.SearchAccountID: account, workflows.SearchPlan: "STARTER",
		workflows.SearchSubscriptionStatus: "active", workflows.SearchPaymentState: "none"} {
		if got[k] != want {
			t.Errorf("the new run's %s is %q, want %q (all: %v)", k, got[k], want, got)
		}
	}

	// Every mail of the account (the first payment's receipt and the
	// renewal's, at least), once delivered.
	var mails []*workflowpb.WorkflowExecutionInfo
	eventually(t, "the receipt mails' runs", func() bool {
		res, err := h.tc.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: "default",
			Query: fmt.Sprintf("%s = %q AND WorkflowType = 'Email' AND ExecutionStatus = 'Completed'", workflows.SearchAccountID, account)})
		if err != nil {
			t.Fatal(err)
		}
		mails = res.GetExecutions()
		return len(mails) >= 2
	})
	for _, m := range mails {
		for _, ev := range testenv.History(t, h.tc, m.GetExecution().GetWorkflowId(), m.GetExecution().GetRunId()) {
			if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "Version" || ev.GetEventType() == enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES {
				t.Errorf("mail %s recorded %v", m.GetExecution().GetWorkflowId(), ev)
			}
		}
	}
	h.recordHistory(mails[0].GetExecution().GetWorkflowId(), mails[0].GetExecution().GetRunId(), "email_told_its_version.json")
}
