package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ProviderReconcileScheduleID is the ID of the Temporal Schedule that runs
// ReconcileProvider every day for the workers of taskQueue.
func ProviderReconcileScheduleID(taskQueue string) string { return "reconcile-provider:" + taskQueue }

// LedgerDifference is one difference between Kudos's ledger and the
// payment provider's that the provider reconciliation could not repair.
type LedgerDifference struct {
	// Kind is payment_missing (paid at the provider, unknown to Kudos),
	// payment_amount (Kudos booked another amount), payment_unknown (booked
	// by Kudos, not paid at the provider), refund_missing (refunded at the
	// provider, unknown to Kudos: made in its dashboard), refund_amount
	// (recorded by Kudos at another amount), refund_unknown (recorded by
	// Kudos, not at the provider) or event_unreadable (an event the intake
	// refuses).
	Kind      string    `json:"kind"`
	AccountID string    `json:"account_id,omitempty"`
	Reference string    `json:"reference"`
	Amount    int64     `json:"amount,omitempty"`
	Currency  string    `json:"currency,omitempty"`
	At        time.Time `json:"at"`
	// Kudos is what Kudos booked, when it differs (payment_amount,
	// refund_amount).
	Kudos int64 `json:"kudos,omitempty"`
}

// MaxReportedDifferences bounds the differences a report lists; Drift
// counts them all.
const MaxReportedDifferences = 100

// ProviderReconcileReport is what one provider reconciliation compared,
// repaired and found.
type ProviderReconcileReport struct {
	Provider string `json:"provider"`
	// Since and Until are the window of the provider's lists compared
	// (the last run's Until is this one's Since).
	Since time.Time `json:"since"`
	Until time.Time `json:"until"`
	// Events, Payments and Refunds are how many of each the provider
	// listed.
	Events   int `json:"events"`
	Payments int `json:"payments"`
	Refunds  int `json:"refunds"`
	// Repaired lists the provider's events never delivered that were
	// recorded and applied through the webhook's intake.
	Repaired []string `json:"repaired,omitempty"`
	// Drift counts the differences left; Differences lists the first
	// MaxReportedDifferences.
	Drift       int                `json:"drift"`
	Differences []LedgerDifference `json:"differences,omitempty"`
}

// ReconcileProvider compares Kudos's ledger with the payment provider's
// own lists since the last run (dispatch.ProviderReconciler): events never
// delivered are recorded and applied through the webhook's intake, and
// what cannot be repaired is reported (kudos_ledger_drift, `kudos ops
// reconcile-provider`). A daily Temporal Schedule runs it, never two at
// once; the activity heartbeats its progress.
func ReconcileProvider(ctx workflow.Context) (ProviderReconcileReport, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    30 * time.Minute,
		HeartbeatTimeout:       2 * time.Minute,
		ScheduleToCloseTimeout: 6 * time.Hour,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: 5 * time.Minute},
	})
	var rep ProviderReconcileReport
	err := workflow.ExecuteActivity(ctx, ActivityReconcileProvider).Get(ctx, &rep)
	if err == nil && (rep.Drift > 0 || len(rep.Repaired) > 0) {
		workflow.GetLogger(ctx).Warn("provider reconciliation", "provider", rep.Provider, "repaired", len(rep.Repaired), "drift", rep.Drift)
	}
	return rep, err
}
