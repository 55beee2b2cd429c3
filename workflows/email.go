package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// EmailDeliveryWindow is how long delivery of one mail is retried (SMTP down
// for less than this loses nothing).
const EmailDeliveryWindow = 24 * time.Hour

// emailRetry backs off exponentially from one second to ten minutes. The
// delivery window (ScheduleToClose) ends retries after about 150 attempts;
// the attempt cap only sits above that, and being finite it keeps Temporal's
// test environment from substituting its own default of 10, so the policy
// under test is the production policy.
var emailRetry = &temporal.RetryPolicy{
	InitialInterval:        time.Second,
	BackoffCoefficient:     2,
	MaximumInterval:        10 * time.Minute,
	MaximumAttempts:        1000,
	NonRetryableErrorTypes: []string{ErrTypeBadMail},
}

// EmailResult tells how delivery of a mail ended.
type EmailResult struct {
	// AlreadySent is true when an earlier attempt had delivered it.
	AlreadySent bool
	// Skipped is true for a billing mail that was no longer true when it
	// was to go out (the trial bought, the failed payment settled, …).
	Skipped bool `json:",omitempty"`
}

// EmailVersion is the newest version of the e-mail workflow: 1 sends in
// the workflow's first task (a local activity). The dispatcher starts runs
// at it (MailRequest.WorkflowVersion), so that a mail records no version
// marker: a marker is a TemporalChangeVersion upsert, a write to the
// visibility store beside the run's start and close (issue 39).
const EmailVersion = 1

// Email delivers one mail: render and send through SMTP, retried with
// backoff for up to EmailDeliveryWindow. The send activity is idempotent by
// the request key, so a retry after a crash sends nothing twice.
func Email(ctx workflow.Context, req kudos.MailRequest) (EmailResult, error) {
	var res SendMailResult
	var err error
	if toldVersion(ctx, req.WorkflowVersion, "send-local", EmailVersion) == 1 {
		// In the workflow's first task: a mail is one task, not three
		// (the SDK spaces out long retries on timers).
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout:    time.Minute,
			ScheduleToCloseTimeout: EmailDeliveryWindow,
			RetryPolicy:            emailRetry,
		})
		err = workflow.ExecuteLocalActivity(ctx, ActivitySendMail, req).Get(ctx, &res)
	} else {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout:    time.Minute,
			ScheduleToCloseTimeout: EmailDeliveryWindow,
			RetryPolicy:            emailRetry,
		})
		err = workflow.ExecuteActivity(ctx, ActivitySendMail, req).Get(ctx, &res)
	}
	if err != nil {
		return EmailResult{}, err
	}
	return EmailResult{AlreadySent: res.AlreadySent, Skipped: res.Skipped}, nil
}
