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
	// Kudos, not at the provider), dispute_missing (a dispute at the
	// provider that Kudos has not booked though its repair was applied),
	// dispute_status (Kudos booked another status: a decision the provider
	// does not show), dispute_amount (Kudos booked another amount),
	// dispute_unknown (booked by Kudos, not listed by the provider) or
	// event_unreadable (an event the intake refuses).
	Kind      string    `json:"kind"`
	AccountID string    `json:"account_id,omitempty"`
	Reference string    `json:"reference"`
	Amount    int64     `json:"amount,omitempty"`
	Currency  string    `json:"currency,omitempty"`
	At        time.Time `json:"at"`
	// Kudos is what Kudos booked, when it differs (payment_amount,
	// refund_amount, dispute_amount).
	Kudos int64 `json:"kudos,omitempty"`
	// Status and KudosStatus are a dispute's status at the provider and as
	// Kudos booked it ("" : not booked), for the dispute kinds.
	Status      string `json:"status,omitempty"`
	KudosStatus string `json:"kudos_status,omitempty"`
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
	// Events, Payments, Refunds and Disputes are how many of each the
	// provider listed (its disputes from further back: see
	// dispatch.ProviderDisputeOverlap).
	Events   int `json:"events"`
	Payments int `json:"payments"`
	Refunds  int `json:"refunds"`
	Disputes int `json:"disputes"`
	// Repaired lists the events recorded and applied through the webhook's
	// intake: the provider's events never delivered, and the events that
	// book a dispute as the provider's list of disputes shows it
	// (reconcile_<dispute>_<status>).
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
