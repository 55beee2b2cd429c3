package activities

import (
	"context"
	"kudos/workflows"

	"go.temporal.io/sdk/temporal"

	"kudos"
)

// SendMail renders and sends one mail, once per request key: a key already
// recorded as sent is skipped, and the key is recorded right after SMTP
// accepts the message. The Message-ID is derived from the key too, so that
// even the narrow window between the two (a crash right after SMTP accepted)
// yields a duplicate that mail clients recognise as one. The link (and its
// token) is derived here from the key, so that it is stored nowhere.
func (a *Activities) SendMail(ctx context.Context, req kudos.MailRequest) (workflows.SendMailResult, error) {
	sent, err := a.Store.MailSent(ctx, req.Key)
	if err != nil {
		return workflows.SendMailResult{}, err
	}
	if sent {
		return workflows.SendMailResult{AlreadySent: true}, nil
	}
	if a.Tokens != nil {
		req.Link = a.Tokens.Link(a.PublicURL, req.Purpose, req.Key)
	}
	msg, err := a.Render(req)
	if err != nil {
		return workflows.SendMailResult{}, temporal.NewNonRetryableApplicationError("cannot render mail", workflows.ErrTypeBadMail, err)
	}
	if err := a.Mailer.Send(ctx, msg); err != nil {
		return workflows.SendMailResult{}, err
	}
	return workflows.SendMailResult{}, a.Store.MarkMailSent(ctx, req.Key)
}
