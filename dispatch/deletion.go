package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// Outbox kinds of account deletion (issue 28).
const (
	// KindDeletionStart starts a scheduled deletion's workflow.
	KindDeletionStart = "deletion_start"
	// KindDeletionCancel tells a deletion's workflow that it was cancelled.
	KindDeletionCancel = "deletion_cancel"
	// KindUserDeletionStart starts a user's scheduled deletion.
	KindUserDeletionStart = "user_deletion_start"
	// KindUserDeletionCancel tells a user deletion's workflow that it was
	// cancelled.
	KindUserDeletionCancel = "user_deletion_cancel"
	// KindDeletionUnlock tells the account's subscription workflow that
	// its deletion was cancelled: money requests are taken again.
	KindDeletionUnlock = "deletion_unlock"
)

// deletionPayload is the payload of a KindDeletionCancel entry (AccountID)
// or a KindUserDeletionCancel one (UserID).
type deletionPayload struct {
	AccountID uuid.UUID `json:"account_id,omitempty"`
	UserID    uuid.UUID `json:"user_id,omitempty"`
	At        time.Time `json:"at"`
	// AutoRenewal (an unlock's) turns back on the auto-renewal the
	// deletion stopped.
	AutoRenewal bool `json:"auto_renewal,omitempty"`
}

// UserDeletion is the outbox of a user's own deletion.
func UserDeletion() store.UserDeletionOutbox {
	return store.UserDeletionOutbox{
		Start: func(userID uuid.UUID, at time.Time) store.OutboxEntry {
			id := workflows.UserDeletionWorkflowID(userID, at)
			return store.OutboxEntry{Key: "start:" + id, Kind: KindUserDeletionStart, WorkflowID: id,
				Payload: workflows.UserDeletionInput{UserID: userID, At: at}}
		},
		Cancel: func(userID uuid.UUID, at time.Time) store.OutboxEntry {
			id := workflows.UserDeletionWorkflowID(userID, at)
			return store.OutboxEntry{Key: "cancel:" + id, Kind: KindUserDeletionCancel, WorkflowID: id,
				Payload: deletionPayload{UserID: userID, At: at}}
		},
	}
}

// Deletion is the outbox of account deletion: the workflow's start and
// cancel, and the members' mails.
func Deletion() store.DeletionOutbox {
	return store.DeletionOutbox{
		Start: func(accountID uuid.UUID, at time.Time) store.OutboxEntry {
			id := workflows.AccountDeletionWorkflowID(accountID, at)
			return store.OutboxEntry{Key: "start:" + id, Kind: KindDeletionStart, WorkflowID: id,
				Payload: workflows.AccountDeletionInput{AccountID: accountID, At: at}}
		},
		Cancel: func(accountID uuid.UUID, at time.Time) store.OutboxEntry {
			id := workflows.AccountDeletionWorkflowID(accountID, at)
			return store.OutboxEntry{Key: "cancel:" + id, Kind: KindDeletionCancel, WorkflowID: id,
				Payload: deletionPayload{AccountID: accountID, At: at}}
		},
		Unlock: func(accountID uuid.UUID, at time.Time, autoRenewal bool) store.OutboxEntry {
			return store.OutboxEntry{Key: DeletionUnlockKey(accountID, at), Kind: KindDeletionUnlock,
				WorkflowID: workflows.SubscriptionWorkflowID(accountID), Payload: deletionPayload{AccountID: accountID, At: at, AutoRenewal: autoRenewal}}
		},
		Mail: func(accountID uuid.UUID, accountName string, at time.Time, to store.DeletionRecipient) store.OutboxEntry {
			t := at.UTC()
			return Mail(kudos.MailRequest{Key: fmt.Sprintf("deletion:%s:%d:%s", accountID, at.Unix(), to.UserID),
				Purpose: kudos.MailAccountDeletionScheduled, To: to.Email, Language: to.Language, Name: to.Name,
				Team: &kudos.MailTeam{AccountID: accountID, AccountName: accountName, Role: to.Role, ExpiresAt: &t}})
		},
	}
}

// DeletionUnlockKey is the outbox key of the unlock of the account's
// deletion scheduled for at, and the id of the update it sends: the api's
// own call sends the same update under the same id, so that the two apply
// once (whichever comes second is answered from the first).
func DeletionUnlockKey(accountID uuid.UUID, at time.Time) string {
	return "unlock:" + workflows.AccountDeletionWorkflowID(accountID, at)
}

// deliverDeletion starts a deletion's workflow once, or tells it of its
// cancel (a workflow that has ended has nothing left to hear: it re-reads
// Postgres before erasing anything).
func (d *Dispatcher) deliverDeletion(ctx context.Context, row store.OutboxRow) error {
	switch row.Kind {
	case KindDeletionStart:
		var in workflows.AccountDeletionInput
		if err := json.Unmarshal(row.Payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
		}
		return d.startOnce(ctx, workflows.AccountDeletionWorkflowID(in.AccountID, in.At),
			temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(in.AccountID.String())), workflows.AccountDeletion, in)
	case KindUserDeletionStart:
		var in workflows.UserDeletionInput
		if err := json.Unmarshal(row.Payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
		}
		return d.startOnce(ctx, workflows.UserDeletionWorkflowID(in.UserID, in.At), temporal.SearchAttributes{}, workflows.UserDeletion, in)
	}
	var p deletionPayload
	if err := json.Unmarshal(row.Payload, &p); err != nil {
		return Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
	}
	if row.Kind == KindDeletionUnlock { // a subscription workflow that does not run is rebuilt from Postgres, which says no deletion
		return d.tell(ctx, row.WorkflowID, row.Key, workflows.UpdateDeletionCancelled, workflows.DeletionCancelRequest{AutoRenewal: p.AutoRenewal})
	}
	id := workflows.AccountDeletionWorkflowID(p.AccountID, p.At)
	if row.Kind == KindUserDeletionCancel {
		id = workflows.UserDeletionWorkflowID(p.UserID, p.At)
	}
	return d.tell(ctx, id, row.Key, workflows.UpdateDeletionCancelled)
}
