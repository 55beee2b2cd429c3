package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ExportWorkflowID is the ID of a data export's workflow.
func ExportWorkflowID(id uuid.UUID) string { return "export:" + id.String() }

// ExportInput starts a data export's workflow: the export, and how long its
// file can be downloaded once built (KUDOS_EXPORT_TTL).
type ExportInput struct {
	ExportID uuid.UUID
	TTL      time.Duration
}

// ExportResult tells how an export's workflow ended: its file built (and
// how many files it held) and deleted at its expiry, or Gone when the
// export was deleted with its user or account before it was built, or was
// void (its requester no longer owned the account: issue 35).
type ExportResult struct {
	Files int
	Gone  bool `json:",omitempty"`
}

// ExportHeartbeat is how long BuildExport may go silent before Temporal
// counts its worker dead and runs it again elsewhere (the activity
// heartbeats far more often while its process lives).
const ExportHeartbeat = 10 * time.Second

// exportBuild may take minutes for an account with years of invoices; its
// heartbeat tells a dead worker from a slow build within ExportHeartbeat.
var exportBuild = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Minute,
	HeartbeatTimeout:    ExportHeartbeat,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
}

// exportSteps are the short steps: retried for as long as it takes, so
// that storage or Postgres being away delays an export, never loses it (nor
// leaves a file past its expiry).
var exportSteps = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
}

// DataExport is the durable life of one data export (issue 28): build the
// ZIP into object storage, mark it ready and mail its user (the link opens
// the export's page; the download itself needs the user signed in), then
// delete the file when the TTL has passed, by the workflow's timer. A
// worker that dies while building is replaced by another that builds it
// again (the same object key: nothing is left behind).
func DataExport(ctx workflow.Context, in ExportInput) (ExportResult, error) {
	var built ExportBuilt
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, exportBuild), ActivityBuildExport,
		ExportRef{ExportID: in.ExportID}).Get(ctx, &built); err != nil {
		return ExportResult{}, err
	}
	if built.Gone {
		return ExportResult{Gone: true}, nil
	}
	steps := workflow.WithActivityOptions(ctx, exportSteps)
	expiresAt := workflow.Now(ctx).Add(in.TTL)
	if err := workflow.ExecuteActivity(steps, ActivityPublishExport,
		ExportPublish{ExportID: in.ExportID, Key: built.Key, Size: built.Size, ExpiresAt: expiresAt}).Get(ctx, nil); err != nil {
		return ExportResult{}, err
	}
	if err := workflow.Sleep(ctx, expiresAt.Sub(workflow.Now(ctx))); err != nil {
		return ExportResult{}, err
	}
	if err := workflow.ExecuteActivity(steps, ActivityExpireExport,
		ExportExpiry{ExportID: in.ExportID, Key: built.Key}).Get(ctx, nil); err != nil {
		return ExportResult{}, err
	}
	return ExportResult{Files: built.Files}, nil
}
