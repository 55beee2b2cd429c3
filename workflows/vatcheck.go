package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// VATCheckWorkflowID is the ID of an account's VAT-id check: one at a time
// per account; a newer save's check replaces a running one (the dispatcher
// starts it terminating the older run).
func VATCheckWorkflowID(accountID uuid.UUID) string { return "vatcheck:" + accountID.String() }

// Limits of a pending check's retries.
const (
	// VATCheckFirstRetry is the first wait after VIES was unavailable; each
	// next wait doubles, up to VATCheckMaxRetry.
	VATCheckFirstRetry = time.Minute
	VATCheckMaxRetry   = time.Hour
	// VATCheckLimit is how long VIES is asked before the id counts as
	// invalid (VAT charged; saving the address again checks anew).
	VATCheckLimit = 24 * time.Hour
)

// VATCheckInput starts the check of the VAT id an address was saved with:
// the account, the address's version and its country and id. Retry, when
// set, replaces VATCheckFirstRetry, and Limit VATCheckLimit (tests; runs
// from before Limit have none: the constant).
type VATCheckInput struct {
	AccountID uuid.UUID
	Country   string
	VATID     string
	Version   int
	Retry     time.Duration `json:",omitempty"`
	Limit     time.Duration `json:",omitempty"`
}

// VATCheckOutcome is what ActivityCheckVATID found: the address changed
// since (Stale: the check ends, writing nothing), or VIES's answer
// (Answered, Valid), or neither (VIES unavailable).
type VATCheckOutcome struct {
	Stale    bool
	Answered bool
	Valid    bool
}

// RecordVATCheckInput is the result to write for a check: the status and
// whether the check gave up after VATCheckLimit.
type RecordVATCheckInput struct {
	VATCheckInput
	Status kudos.VATIDStatus
	GaveUp bool
}

// VATCheckResult tells how a check ended: the status it found (empty when
// stale) and whether it was written (false when a later save superseded it).
type VATCheckResult struct {
	Status  kudos.VATIDStatus
	Written bool
}

// vatCheckSteps retry for as long as it takes: Postgres being away delays
// the result, never loses it. VIES being away is not an error of the
// activity: the workflow waits and asks again.
var vatCheckSteps = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
}

// VATCheck asks VIES about a saved VAT id until it answers (waits of 1 min
// doubling up to 1 h, for at most 24 h), then writes verified or invalid
// (invalid too when VIES never answered) if the address still has that id
// and version, which also has the owner told by mail (vat_id_checked) and
// the timeline record it.
func VATCheck(ctx workflow.Context, in VATCheckInput) (VATCheckResult, error) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, AccountIDKey.ValueSet(in.AccountID.String())); err != nil {
		return VATCheckResult{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, vatCheckSteps)
	wait := in.Retry
	if wait <= 0 {
		wait = VATCheckFirstRetry
	}
	limit := in.Limit
	if limit <= 0 {
		limit = VATCheckLimit
	}
	start := workflow.Now(ctx)
	rec := RecordVATCheckInput{VATCheckInput: in}
	for {
		var out VATCheckOutcome
		if err := workflow.ExecuteActivity(ctx, ActivityCheckVATID, in).Get(ctx, &out); err != nil {
			return VATCheckResult{}, err
		}
		if out.Stale {
			return VATCheckResult{}, nil
		}
		if out.Answered {
			rec.Status = kudos.VATIDInvalid
			if out.Valid {
				rec.Status = kudos.VATIDVerified
			}
			break
		}
		if workflow.Now(ctx).Add(wait).Sub(start) > limit {
			rec.Status, rec.GaveUp = kudos.VATIDInvalid, true
			break
		}
		if err := workflow.Sleep(ctx, wait); err != nil {
			return VATCheckResult{}, err
		}
		wait = min(2*wait, VATCheckMaxRetry)
	}
	var written bool
	if err := workflow.ExecuteActivity(ctx, ActivityRecordVATCheck, rec).Get(ctx, &written); err != nil {
		return VATCheckResult{}, err
	}
	return VATCheckResult{Status: rec.Status, Written: written}, nil
}
