package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"kudos"
)

// ErrTypeBadMail marks a mail request that can never be sent (no template,
// bad address): retrying it is pointless.
const ErrTypeBadMail = "BadMail"

// SendMailResult tells whether the mail had already been sent.
type SendMailResult struct {
	AlreadySent bool
}

// SendMail renders and sends one mail, once per request key: a key already
// recorded as sent is skipped, and the key is recorded right after SMTP
// accepts the message. The Message-ID is derived from the key too, so that
// even the narrow window between the two (a crash right after SMTP accepted)
// yields a duplicate that mail clients recognise as one.
func (a *Activities) SendMail(ctx context.Context, req kudos.MailRequest) (SendMailResult, error) {
	sent, err := a.Store.MailSent(ctx, req.Key)
	if err != nil {
		return SendMailResult{}, err
	}
	if sent {
		return SendMailResult{AlreadySent: true}, nil
	}
	msg, err := a.Render(req)
	if err != nil {
		return SendMailResult{}, temporal.NewNonRetryableApplicationError("cannot render mail", ErrTypeBadMail, err)
	}
	if err := a.Mailer.Send(ctx, msg); err != nil {
		return SendMailResult{}, err
	}
	return SendMailResult{}, a.Store.MarkMailSent(ctx, req.Key)
}
