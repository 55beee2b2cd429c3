// Package workflows holds the Temporal workflow functions of Kudos, their
// input and output types, the task queue, and the workflow-ID helpers. Code
// here is deterministic: time, randomness and I/O go through activities.
package workflows

import (
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// TaskQueue is the default task queue of the Kudos worker (KUDOS_TASK_QUEUE
// overrides it in deployments that run several environments side by side).
const TaskQueue = "kudos"

// Search attributes that the workflows keep current, so that ops can find an
// account's workflows and stuck payments in the Temporal Web UI.
const (
	SearchAccountID          = "AccountId"
	SearchPlan               = "Plan"
	SearchSubscriptionStatus = "SubscriptionStatus"
	SearchPaymentState       = "PaymentState"
	// SearchPaymentStateSince (Datetime) is when PaymentState last changed.
	SearchPaymentStateSince = "PaymentStateSince"
	// SearchDisputeOpen (Bool) is whether the account has a dispute
	// (chargeback) open: DisputeOpen = true lists them (issue 36).
	SearchDisputeOpen = "DisputeOpen"
)

// SearchAttributes lists every custom search attribute with its type: what
// `temporal server start-dev --search-attribute`, the development worker and
// `kudos temporal setup` register.
var SearchAttributes = []SearchAttribute{
	{SearchAccountID, enumspb.INDEXED_VALUE_TYPE_KEYWORD},
	{SearchPlan, enumspb.INDEXED_VALUE_TYPE_KEYWORD},
	{SearchSubscriptionStatus, enumspb.INDEXED_VALUE_TYPE_KEYWORD},
	{SearchPaymentState, enumspb.INDEXED_VALUE_TYPE_KEYWORD},
	{SearchPaymentStateSince, enumspb.INDEXED_VALUE_TYPE_DATETIME},
	{SearchDisputeOpen, enumspb.INDEXED_VALUE_TYPE_BOOL},
}

// SearchAttribute is a custom search attribute: its name and type.
type SearchAttribute struct {
	Name string
	Type enumspb.IndexedValueType
}

// Typed keys of the search attributes.
var (
	AccountIDKey          = temporal.NewSearchAttributeKeyKeyword(SearchAccountID)
	PlanKey               = temporal.NewSearchAttributeKeyKeyword(SearchPlan)
	SubscriptionStatusKey = temporal.NewSearchAttributeKeyKeyword(SearchSubscriptionStatus)
	PaymentStateKey       = temporal.NewSearchAttributeKeyKeyword(SearchPaymentState)
	PaymentStateSinceKey  = temporal.NewSearchAttributeKeyTime(SearchPaymentStateSince)
	DisputeOpenKey        = temporal.NewSearchAttributeKeyBool(SearchDisputeOpen)
)

// EmailWorkflowID is the ID of the e-mail workflow for a mail request: one
// workflow, and so one mail, per request.
func EmailWorkflowID(req kudos.MailRequest) string {
	return "email:" + string(req.Purpose) + ":" + req.Key
}

// toldVersion is the version of the change changeID that a run takes: told,
// the version its input names (set by whoever started the run, so that it
// records no version marker and no TemporalChangeVersion upsert: issue 39),
// or, for an input from before that (0), the run's marker. A version above
// maxSupported was named by a newer deployment: the task fails, and a worker
// that knows the version takes it.
func toldVersion(ctx workflow.Context, told int, changeID string, maxSupported workflow.Version) workflow.Version {
	v := workflow.Version(told)
	switch {
	case v == 0:
		return workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, maxSupported)
	case v > maxSupported:
		panic(fmt.Sprintf("%s: version %d on a worker that knows up to %d", changeID, v, maxSupported))
	}
	return v
}
