package workflows_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/vatcheck"
	"kudos/workflows"
)

// vatEnv runs the VAT-id check workflow on the time-skipping test server
// against an address kept in memory (its id, version and status, written
// as store.RecordVATCheck does: only while id and version still match and
// it is pending) and a checker on the workflow's clock.
type vatEnv struct {
	*testsuite.TestWorkflowEnvironment
	in      workflows.VATCheckInput
	addr    kudos.BillingAddress
	checker kudos.VATChecker
	asked   []time.Duration
	records []workflows.RecordVATCheckInput
}

func newVATEnv(t *testing.T, vatID string) *vatEnv {
	var suite testsuite.WorkflowTestSuite
	e := &vatEnv{TestWorkflowEnvironment: suite.NewTestWorkflowEnvironment()}
	start := e.Now()
	e.checker = &vatcheck.StandIn{Now: e.Now}
	e.in = workflows.VATCheckInput{AccountID: uuid.New(), Country: "nl_BE", VATID: vatID, Version: 3}
	e.addr = kudos.BillingAddress{Country: "nl_BE", VATID: vatID, Version: 3, VATIDStatus: kudos.VATIDPending}
	e.RegisterWorkflow(workflows.VATCheck)
	e.RegisterActivityWithOptions(func(ctx context.Context, in workflows.VATCheckInput) (workflows.VATCheckOutcome, error) {
		if e.addr.VATID != in.VATID || e.addr.Version != in.Version || e.addr.VATIDStatus != kudos.VATIDPending {
			return workflows.VATCheckOutcome{Stale: true}, nil
		}
		e.asked = append(e.asked, e.Now().Sub(start))
		valid, err := e.checker.Check(ctx, in.Country, in.VATID)
		if errors.Is(err, kudos.ErrVATCheckUnavailable) {
			return workflows.VATCheckOutcome{}, nil
		}
		return workflows.VATCheckOutcome{Answered: true, Valid: valid}, err
	}, activity.RegisterOptions{Name: workflows.ActivityCheckVATID})
	e.RegisterActivityWithOptions(func(_ context.Context, in workflows.RecordVATCheckInput) (bool, error) {
		if e.addr.VATID != in.VATID || e.addr.Version != in.Version || e.addr.VATIDStatus != kudos.VATIDPending {
			return false, nil
		}
		e.addr.VATIDStatus = in.Status
		e.records = append(e.records, in)
		return true, nil
	}, activity.RegisterOptions{Name: workflows.ActivityRecordVATCheck})
	return e
}

// run runs the check to its end and returns its result.
func (e *vatEnv) run(t *testing.T) workflows.VATCheckResult {
	t.Helper()
	e.ExecuteWorkflow(workflows.VATCheck, e.in)
	if !e.IsWorkflowCompleted() || e.GetWorkflowError() != nil {
		t.Fatalf("completed %v, error %v", e.IsWorkflowCompleted(), e.GetWorkflowError())
	}
	var res workflows.VATCheckResult
	if err := e.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestVATCheckOutageThenVerified: the stand-in's VIES is down for 60 s for
// an id ending in 999 from the first question; the pending check asks at
// once, waits 1 min, asks again (the outage is over) and writes verified,
// once.
func TestVATCheckOutageThenVerified(t *testing.T) {
	e := newVATEnv(t, "BE0123456999")
	res := e.run(t)
	if res.Status != kudos.VATIDVerified || !res.Written || e.addr.VATIDStatus != kudos.VATIDVerified {
		t.Fatalf("result %+v, address %s", res, e.addr.VATIDStatus)
	}
	if len(e.asked) != 2 || e.asked[0] != 0 || e.asked[1] != time.Minute {
		t.Errorf("VIES asked at %v, want at 0 and 1m", e.asked)
	}
	if len(e.records) != 1 || e.records[0].GaveUp {
		t.Errorf("records %+v", e.records)
	}
}

// TestVATCheckInvalidAnswer: VIES answers that the id is unknown: invalid.
func TestVATCheckInvalidAnswer(t *testing.T) {
	e := newVATEnv(t, "BE0123456000")
	if res := e.run(t); res.Status != kudos.VATIDInvalid || !res.Written || len(e.asked) != 1 {
		t.Fatalf("result %+v, asked %v", res, e.asked)
	}
}

// downChecker is a VIES that never answers.
type downChecker struct{}

func (downChecker) Check(context.Context, string, string) (bool, error) {
	return false, kudos.ErrVATCheckUnavailable
}

// TestVATCheckGivesUpAfter24h: VIES never answers: the waits double from
// 1 min up to 1 h, the last question is within 24 h, and the id is then
// written invalid (GaveUp, which the mail tells).
func TestVATCheckGivesUpAfter24h(t *testing.T) {
	e := newVATEnv(t, "BE0123456789")
	e.checker = downChecker{}
	res := e.run(t)
	if res.Status != kudos.VATIDInvalid || !res.Written || len(e.records) != 1 || !e.records[0].GaveUp {
		t.Fatalf("result %+v, records %+v", res, e.records)
	}
	last := e.asked[len(e.asked)-1]
	if last > workflows.VATCheckLimit || last < workflows.VATCheckLimit-workflows.VATCheckMaxRetry {
		t.Errorf("last question at %v", last)
	}
	for i := 1; i < len(e.asked); i++ {
		if gap := e.asked[i] - e.asked[i-1]; gap > workflows.VATCheckMaxRetry || (i < 6 && gap != time.Minute<<(i-1)) {
			t.Errorf("wait %d: %v", i, gap)
		}
	}
}

// TestVATCheckSupersededWritesNothing: during the outage the owner saves
// another id (a new version): the check finds its address stale and ends
// without writing, so the newer id's status is not overwritten.
func TestVATCheckSupersededWritesNothing(t *testing.T) {
	e := newVATEnv(t, "BE0123456999")
	e.RegisterDelayedCallback(func() {
		e.addr = kudos.BillingAddress{Country: "nl_BE", VATID: "BE0123456000", Version: 4, VATIDStatus: kudos.VATIDInvalid}
	}, 30*time.Second)
	res := e.run(t)
	if res.Written || res.Status != "" || len(e.records) != 0 || e.addr.VATIDStatus != kudos.VATIDInvalid {
		t.Fatalf("result %+v, records %+v, address %+v", res, e.records, e.addr)
	}
}
