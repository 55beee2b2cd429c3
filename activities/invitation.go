package activities

import (
	"bytes"
	"context"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/auth"
	"kudos/workflows"
)

// QueueInvitationMail queues an invitation's mail (or its reminder) in the
// outbox, from which the e-mail workflow delivers it: to the invited
// address, in the inviter's language, naming the account, the inviter and
// the role. The request carries the key of the token, never the token: the
// mail activity derives the link when it sends. An invitation no longer
// pending, or whose token a resend replaced since (the hash Postgres keeps
// is not this key's), is not mailed.
func (a *Activities) QueueInvitationMail(ctx context.Context, in workflows.InvitationMailInput) (workflows.InvitationMailResult, error) {
	f, err := a.Store.InvitationMail(ctx, in.InvitationID)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return workflows.InvitationMailResult{}, nil
	} else if err != nil {
		return workflows.InvitationMailResult{}, err
	}
	if a.Tokens == nil {
		return workflows.InvitationMailResult{}, temporal.NewNonRetryableApplicationError("no token secret configured", workflows.ErrTypeBadMail, nil)
	}
	if !bytes.Equal(auth.HashToken(a.Tokens.Token(kudos.TokenInvitation, in.Key)), f.TokenHash) {
		return workflows.InvitationMailResult{}, nil
	}
	if a.QueueMail == nil {
		return workflows.InvitationMailResult{}, temporal.NewNonRetryableApplicationError("no mail queue configured", workflows.ErrTypeBadMail, nil)
	}
	purpose := kudos.MailTeamInvitation
	if in.Reminder {
		purpose = kudos.MailTeamInvitationReminder
	}
	inv := f.Invitation
	expires := inv.ExpiresAt
	req := kudos.MailRequest{Key: in.MailKey, Purpose: purpose, To: inv.Email, Language: f.Language,
		Team: &kudos.MailTeam{AccountID: inv.AccountID, AccountName: f.AccountName, Inviter: inv.InvitedBy, Role: inv.Role,
			ExpiresAt: &expires, TokenKey: in.Key}}
	if err := a.QueueMail(ctx, req, nil); err != nil {
		return workflows.InvitationMailResult{}, err
	}
	return workflows.InvitationMailResult{Queued: true}, nil
}

// ExpireInvitation marks an invitation expired in Postgres once its expiry
// has passed, and says how it stands.
func (a *Activities) ExpireInvitation(ctx context.Context, in workflows.InvitationRef) (workflows.InvitationExpiry, error) {
	status, expiresAt, err := a.Store.ExpireInvitation(ctx, in.InvitationID)
	if kudos.ErrorCode(err) == kudos.ENotFound { // the account was deleted with it
		return workflows.InvitationExpiry{Status: kudos.InvitationExpired}, nil
	}
	return workflows.InvitationExpiry{Status: status, ExpiresAt: expiresAt}, err
}
