// Package workflows holds the Temporal workflow functions of Kudos, their
// input and output types, the task queue, and the workflow-ID helpers. Code
// here is deterministic: time, randomness and I/O go through activities.
package workflows

import (
	"go.temporal.io/sdk/temporal"

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
)

// SearchAttributes lists every custom search attribute (all Keyword).
var SearchAttributes = []string{SearchAccountID, SearchPlan, SearchSubscriptionStatus, SearchPaymentState}

// Typed keys of the search attributes.
var (
	AccountIDKey          = temporal.NewSearchAttributeKeyKeyword(SearchAccountID)
	PlanKey               = temporal.NewSearchAttributeKeyKeyword(SearchPlan)
	SubscriptionStatusKey = temporal.NewSearchAttributeKeyKeyword(SearchSubscriptionStatus)
	PaymentStateKey       = temporal.NewSearchAttributeKeyKeyword(SearchPaymentState)
)

// EmailWorkflowID is the ID of the e-mail workflow for a mail request: one
// workflow, and so one mail, per request.
func EmailWorkflowID(req kudos.MailRequest) string {
	return "email:" + string(req.Purpose) + ":" + req.Key
}
