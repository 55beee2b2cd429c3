package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// LogoWorkflowID is the ID of an account's logo workflow: one upload is
// processed at a time per account.
func LogoWorkflowID(accountID uuid.UUID) string { return "logo:" + accountID.String() }

// LogoTaskQueue is the task queue of logo workflows and their activities
// beside the main queue taskQueue: image work is CPU-heavy, and billing must
// never wait behind it.
func LogoTaskQueue(taskQueue string) string { return taskQueue + "-logo" }

// LogoProcessingWindow is how long processing of one upload is retried (a
// storage outage shorter than this loses nothing); after it the upload is
// refused as kudos.LogoFailed.
const LogoProcessingWindow = 30 * time.Minute

// LogoHeartbeat is how soon a processing attempt on a worker that died is
// given to another worker.
const LogoHeartbeat = 10 * time.Second

var logoRetry = &temporal.RetryPolicy{
	InitialInterval:        time.Second,
	BackoffCoefficient:     2,
	MaximumInterval:        time.Minute,
	MaximumAttempts:        1000, // the window ends retries first
	NonRetryableErrorTypes: []string{ErrTypeBadLogoKey},
}

// LogoResult tells how an upload ended: its public key, or why it was
// refused. Superseded is true when the logo was deleted while processing.
type LogoResult struct {
	PublicKey  string
	Refused    string
	Superseded bool
}

// Logo processes one uploaded logo (ARCHITECTURE §5): validate and re-encode
// it into a public object, point the account's img_url at it, delete the
// temporary object. A refused upload sets the placeholder with its reason.
// Every step is idempotent and keyed by the upload, so a crash anywhere ends
// in exactly one public logo or a recorded refusal. If the account's img_url
// moved on meanwhile (the logo was deleted), the public object is removed
// again and the account is left alone.
func Logo(ctx workflow.Context, in LogoInput) (LogoResult, error) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, AccountIDKey.ValueSet(in.AccountID.String())); err != nil {
		return LogoResult{}, err
	}
	processCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    2 * time.Minute,
		HeartbeatTimeout:       LogoHeartbeat,
		ScheduleToCloseTimeout: LogoProcessingWindow,
		RetryPolicy:            logoRetry,
	})
	// Bookkeeping steps retry for as long as it takes: Postgres or storage
	// being down delays them, and they must happen.
	stepCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})

	var out LogoProcessed
	if err := workflow.ExecuteActivity(processCtx, ActivityProcessLogo, in).Get(ctx, &out); err != nil {
		workflow.GetLogger(ctx).Error("logo processing gave up", "account", in.AccountID, "err", err)
		out = LogoProcessed{Refused: kudos.LogoFailed}
	}
	pub := LogoPublication{AccountID: in.AccountID, TempKey: in.TempKey, PublicKey: out.PublicKey, Reason: out.Refused}
	res := LogoResult{PublicKey: out.PublicKey, Refused: out.Refused}
	var applied bool
	if out.Refused != "" {
		if err := workflow.ExecuteActivity(stepCtx, ActivityRefuseLogo, pub).Get(ctx, &applied); err != nil {
			return res, err
		}
	} else {
		if err := workflow.ExecuteActivity(stepCtx, ActivityPublishLogo, pub).Get(ctx, &applied); err != nil {
			return res, err
		}
		if !applied {
			if err := workflow.ExecuteActivity(stepCtx, ActivityDeleteObject, out.PublicKey).Get(ctx, nil); err != nil {
				return res, err
			}
		}
	}
	res.Superseded = !applied
	return res, workflow.ExecuteActivity(stepCtx, ActivityDeleteObject, in.TempKey).Get(ctx, nil)
}
