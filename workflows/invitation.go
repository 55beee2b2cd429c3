package workflows

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"kudos"
)

// Updates of the invitation workflow. Each tells of a change the api has
// already made in Postgres (delivered through the outbox, in order), so
// that the invitation is always what Postgres says, Temporal up or down.
const (
	// UpdateInvitationAccepted: the invitation was accepted; the workflow ends.
	UpdateInvitationAccepted = "invitation_accepted"
	// UpdateInvitationRevoked: the invitation was revoked; the workflow ends.
	UpdateInvitationRevoked = "invitation_revoked"
	// UpdateInvitationResent: the invitation has a new token and expiry
	// (InvitationResend); the workflow mails it and starts its timers over.
	UpdateInvitationResent = "invitation_resent"
)

// Outcomes of an invitation (InvitationResult.Outcome).
const (
	InvitationOutcomeAccepted = "accepted"
	InvitationOutcomeRevoked  = "revoked"
	InvitationOutcomeExpired  = "expired"
)

// InvitationWorkflowID is the ID of an invitation's workflow.
func InvitationWorkflowID(id uuid.UUID) string { return "invitation:" + id.String() }

// InvitationInput starts an invitation's workflow: the invitation, the key
// its token derives from (the token itself is never in the history), when
// it expires, and how long after a mail its reminder goes out.
type InvitationInput struct {
	InvitationID uuid.UUID
	AccountID    uuid.UUID
	Key          string
	ExpiresAt    time.Time
	Reminder     time.Duration
}

// InvitationResend is the argument of UpdateInvitationResent.
type InvitationResend struct {
	Key       string
	ExpiresAt time.Time
}

// InvitationResult tells how an invitation ended.
type InvitationResult struct {
	Outcome string
	// Mails counts the mails it queued (invitation, reminders, resends).
	Mails int
}

// invitationSteps retry for as long as it takes: Postgres being away
// delays a mail or the expiry, never loses it.
var invitationSteps = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Second,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
}

// invitation is the state of one invitation's workflow.
type invitation struct {
	in        InvitationInput
	key       string
	expiresAt time.Time
	// sentAt is when the last mail went out; reminded whether its
	// reminder did.
	sentAt   time.Time
	reminded bool
	// resend is set by a resend until its mail is queued.
	resend  bool
	outcome string
	mails   int
}

// Invitation is the durable life of one invitation (issue 26): it mails the
// invitation through the outbox and the e-mail workflow, reminds once
// in.Reminder later, and expires it at its expiry; the api's changes arrive
// as updates (accepted, revoked: it ends; resent: a new mail, and its
// timers start over).
func Invitation(ctx workflow.Context, in InvitationInput) (InvitationResult, error) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, AccountIDKey.ValueSet(in.AccountID.String())); err != nil {
		return InvitationResult{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, invitationSteps)
	w := &invitation{in: in, key: in.Key, expiresAt: in.ExpiresAt}
	if err := w.handleUpdates(ctx); err != nil {
		return InvitationResult{}, err
	}
	if err := w.mail(ctx, false); err != nil {
		return InvitationResult{}, err
	}
	for w.outcome == "" {
		if w.resend {
			w.resend, w.reminded = false, false
			if err := w.mail(ctx, false); err != nil {
				return InvitationResult{}, err
			}
			continue
		}
		now := workflow.Now(ctx)
		remindAt := w.sentAt.Add(in.Reminder)
		remind := !w.reminded && in.Reminder > 0 && remindAt.Before(w.expiresAt)
		next := w.expiresAt
		if remind {
			next = remindAt
		}
		if wait := next.Sub(now); wait > 0 {
			changed, err := workflow.AwaitWithTimeout(ctx, wait, func() bool { return w.outcome != "" || w.resend })
			if err != nil {
				return InvitationResult{}, err
			}
			if changed {
				continue
			}
		}
		if remind {
			w.reminded = true
			if err := w.mail(ctx, true); err != nil {
				return InvitationResult{}, err
			}
			continue
		}
		if err := w.expire(ctx); err != nil {
			return InvitationResult{}, err
		}
	}
	return InvitationResult{Outcome: w.outcome, Mails: w.mails}, nil
}

// handleUpdates registers the updates: each records what Postgres already
// holds, and the main loop acts on it.
func (w *invitation) handleUpdates(ctx workflow.Context) error {
	end := func(outcome string) func(workflow.Context) error {
		return func(workflow.Context) error {
			if w.outcome == "" {
				w.outcome = outcome
			}
			return nil
		}
	}
	if err := workflow.SetUpdateHandler(ctx, UpdateInvitationAccepted, end(InvitationOutcomeAccepted)); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandler(ctx, UpdateInvitationRevoked, end(InvitationOutcomeRevoked)); err != nil {
		return err
	}
	return workflow.SetUpdateHandler(ctx, UpdateInvitationResent, func(_ workflow.Context, r InvitationResend) error {
		w.key, w.expiresAt, w.resend = r.Key, r.ExpiresAt, true
		return nil
	})
}

// mail queues the invitation's mail (or its reminder) with the current
// key; an invitation no longer pending, or whose key a resend replaced
// meanwhile, is not mailed.
func (w *invitation) mail(ctx workflow.Context, reminder bool) error {
	in := InvitationMailInput{InvitationID: w.in.InvitationID, Key: w.key, Reminder: reminder,
		MailKey: fmt.Sprintf("%s:%d", w.in.InvitationID, w.mails)}
	var res InvitationMailResult
	if err := workflow.ExecuteActivity(ctx, ActivityQueueInvitationMail, in).Get(ctx, &res); err != nil {
		return err
	}
	w.mails++
	w.sentAt = workflow.Now(ctx)
	return nil
}

// expire marks the invitation expired in Postgres. One that Postgres says
// was renewed meanwhile (its resend not yet delivered here) waits for its
// new expiry; one that ended otherwise ends the workflow as it ended.
func (w *invitation) expire(ctx workflow.Context) error {
	var res InvitationExpiry
	if err := workflow.ExecuteActivity(ctx, ActivityExpireInvitation, InvitationRef{InvitationID: w.in.InvitationID}).Get(ctx, &res); err != nil {
		return err
	}
	switch res.Status {
	case kudos.InvitationPending:
		if !res.ExpiresAt.After(w.expiresAt) { // cannot happen: Postgres expires what has expired
			return temporal.NewNonRetryableApplicationError("invitation pending past its expiry", "InvitationNotExpired", nil)
		}
		w.expiresAt = res.ExpiresAt
	case kudos.InvitationAccepted:
		w.outcome = InvitationOutcomeAccepted
	case kudos.InvitationRevoked:
		w.outcome = InvitationOutcomeRevoked
	default:
		w.outcome = InvitationOutcomeExpired
	}
	return nil
}
