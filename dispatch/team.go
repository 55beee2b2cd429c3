package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// Outbox kinds of the teams (issue 26).
const (
	// KindInvitationStart starts an invitation's workflow, which mails it.
	KindInvitationStart = "invitation_start"
	// KindInvitationUpdate tells an invitation's workflow of a change the
	// api made (accepted, revoked, resent), as an update.
	KindInvitationUpdate = "invitation_update"
)

// invitationUpdatePayload is the payload of a KindInvitationUpdate entry.
type invitationUpdatePayload struct {
	InvitationID uuid.UUID                   `json:"invitation_id"`
	Update       string                      `json:"update"`
	Resend       *workflows.InvitationResend `json:"resend,omitempty"`
}

// invitationUpdates are the workflow's update of each kind of change.
var invitationUpdates = map[string]string{
	store.InvitationAccepted: workflows.UpdateInvitationAccepted,
	store.InvitationRevoked:  workflows.UpdateInvitationRevoked,
	store.InvitationResent:   workflows.UpdateInvitationResent,
}

// Team is the outbox of team changes: mails, and the invitation
// workflows' starts and updates; timing gives a new invitation's workflow
// its reminder.
func Team(timing kudos.InvitationTiming) store.TeamOutbox {
	return store.TeamOutbox{
		Mail: Mail,
		InvitationStart: func(inv kudos.Invitation, key string) store.OutboxEntry {
			return store.OutboxEntry{Key: "invitation_start:" + inv.ID.String(), Kind: KindInvitationStart,
				WorkflowID: workflows.InvitationWorkflowID(inv.ID),
				Payload: workflows.InvitationInput{InvitationID: inv.ID, AccountID: inv.AccountID, Key: key, ExpiresAt: inv.ExpiresAt,
					Reminder: timing.Reminder}}
		},
		InvitationUpdate: func(id uuid.UUID, ch store.InvitationChange) store.OutboxEntry {
			p := invitationUpdatePayload{InvitationID: id, Update: invitationUpdates[ch.Kind]}
			key := "invitation:" + id.String() + ":" + ch.Kind
			if ch.Kind == store.InvitationResent {
				p.Resend = &workflows.InvitationResend{Key: ch.Key, ExpiresAt: ch.ExpiresAt}
				key += ":" + ch.Key
			}
			return store.OutboxEntry{Key: key, Kind: KindInvitationUpdate, WorkflowID: workflows.InvitationWorkflowID(id), Payload: p}
		},
	}
}

// deliverInvitation delivers the entries of an invitation's workflow: its
// start (a second delivery finds it started, or ended, and is done), and
// its updates, each waited for until the workflow accepted it (the update
// id is the outbox key: a retried delivery is answered, not applied
// again). An update for a workflow that has ended has nothing left to
// tell: Postgres already holds the change.
func (d *Dispatcher) deliverInvitation(ctx context.Context, row store.OutboxRow) error {
	switch row.Kind {
	case KindInvitationStart:
		var in workflows.InvitationInput
		if err := json.Unmarshal(row.Payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
		}
		return d.startOnce(ctx, workflows.InvitationWorkflowID(in.InvitationID),
			temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(in.AccountID.String())), workflows.Invitation, in)
	default:
		var p invitationUpdatePayload
		if err := json.Unmarshal(row.Payload, &p); err != nil || p.Update == "" {
			return Permanent(fmt.Errorf("outbox %s: bad invitation update: %v", row.Key, err))
		}
		var args []any
		if p.Resend != nil {
			args = []any{*p.Resend}
		}
		_, err := d.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.InvitationWorkflowID(p.InvitationID),
			UpdateID: row.Key, UpdateName: p.Update, Args: args, WaitForStage: client.WorkflowUpdateStageAccepted})
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			return nil
		}
		return err
	}
}
