package workflows_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"kudos"
	"kudos/internal/testenv"
	"kudos/workflows"
)

// TestTwentyYearsOfHistoryStayBounded (issue 39 item 3): one subscription
// lives through 20 yearly renewals on the real Temporal server, a year
// shrunk to a few seconds: a declined renewal recovered by its dunning
// retry every fourth year, and two upgrades (Starter to Pro, Pro to Team)
// paid by checkout. Every run of the chain is read back from the server:
// each stays under workflows.HistoryCap events (a run continues as new at
// every paid renewal), whatever the subscription's age.
func TestTwentyYearsOfHistoryStayBounded(t *testing.T) {
	tc := testenv.Temporal(t)
	queue := "test-" + uuid.NewString()
	const years, year = 20, 4 * time.Second
	acts := &fakeActivities{}
	for y := range years {
		if y%4 == 1 {
			acts.renewalResults = append(acts.renewalResults, declined())
		}
		acts.renewalResults = append(acts.renewalResults, workflows.RenewalResult{Paid: true})
	}
	w := worker.New(tc, queue, worker.Options{})
	w.RegisterWorkflow(workflows.Subscription)
	w.RegisterActivity(acts)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	now := time.Now()
	renew := now.Add(year)
	st := kudos.SubscriptionState{AccountID: uuid.New(), Plan: kudos.PlanStarter, Status: kudos.StatusActive, AutoRenew: true,
		Period: year, CheckoutTTL: time.Hour, PeriodStartedAt: &now, RenewalAt: &renew,
		Lifecycle: &kudos.Lifecycle{DunningSchedule: []time.Duration{year / 4}}}
	ctx := context.Background()
	id := workflows.SubscriptionWorkflowID(st.AccountID)
	if _, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, workflows.Subscription, st); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.TerminateWorkflow(context.Background(), id, "", "test over") })

	charges := func() int {
		acts.mu.Lock()
		defer acts.mu.Unlock()
		return len(acts.renewals)
	}
	upgrades := map[int]kudos.Plan{5: kudos.PlanPro, 11: kudos.PlanTeam} // after a paid renewal
	want := years + (years+2)/4                                          // every renewal, and a declined attempt every fourth year
	deadline := time.Now().Add(years*year + 3*time.Minute)
	for done := map[int]bool{}; charges() < want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d renewal charges by the deadline, want %d", charges(), want)
		}
		n := charges()
		plan, ok := upgrades[n]
		if !ok || done[n] {
			continue
		}
		done[n] = true
		upgrade(t, tc, id, plan, acts)
	}
	acts.mu.Lock()
	opened := len(acts.opened)
	acts.mu.Unlock()
	if opened != len(upgrades) {
		t.Fatalf("%d checkouts opened, want one per upgrade (%d)", opened, len(upgrades))
	}

	// Every run of the chain, read back from the server.
	var runs []string
	testenvEventually(t, 30*time.Second, func() bool {
		runs = runsOf(t, tc, id)
		return len(runs) >= years
	})
	largest, largestRun := 0, ""
	for _, run := range runs {
		n := 0
		for it := tc.GetWorkflowHistory(ctx, id, run, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT); it.HasNext(); n++ {
			if _, err := it.Next(); err != nil {
				t.Fatal(err)
			}
		}
		if n > largest {
			largest, largestRun = n, run
		}
		if n >= workflows.HistoryCap {
			t.Errorf("run %s has %d events, at or past the cap of %d", run, n, workflows.HistoryCap)
		}
	}
	testenv.RecordHistory(t, tc, id, largestRun, "subscription_largest_of_twenty_years.json")
	t.Logf("%d years: %d runs, the largest %d events (cap %d, Temporal warns at 10 240)", years, len(runs), largest, workflows.HistoryCap)
}

// upgrade asks the workflow for plan and pays the checkout it opens.
func upgrade(t *testing.T, tc client.Client, id string, plan kudos.Plan, acts *fakeActivities) {
	t.Helper()
	ctx := context.Background()
	h, err := tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: workflows.UpdateUpgradeSubscription,
		UpdateID: uuid.NewString(), Args: []any{workflows.PlanRequest{Plan: plan}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Get(ctx, nil); err != nil {
		t.Fatalf("upgrade to %s: %v", plan, err)
	}
	acts.mu.Lock()
	co := acts.opened[len(acts.opened)-1].CheckoutID
	acts.mu.Unlock()
	ev := kudos.PaymentEvent{EventID: "ev-" + co, CheckoutID: co, Outcome: kudos.PaymentPaid}
	h, err = tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: workflows.UpdatePaymentEvent,
		UpdateID: uuid.NewString(), Args: []any{ev}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		t.Fatalf("paying the upgrade to %s: %v", plan, err)
	}
}

// runsOf lists the runs of workflow id that visibility shows.
func runsOf(t *testing.T, tc client.Client, id string) []string {
	var out []string
	var token []byte
	for {
		res, err := tc.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowId = '%s'", id), PageSize: 100, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range res.GetExecutions() {
			out = append(out, ex.GetExecution().GetRunId())
		}
		if token = res.GetNextPageToken(); len(token) == 0 {
			return out
		}
	}
}

// testenvEventually polls cond until it holds or timeout passes.
func testenvEventually(t *testing.T, timeout time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(timeout); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("condition not met in time")
		}
	}
}
