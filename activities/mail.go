package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// SendMail renders and sends one mail, once per request key: a key already
// recorded as sent is skipped, and the key is recorded right after SMTP
// accepts the message. The Message-ID is derived from the key too, so that
// even the narrow window between the two (a crash right after SMTP accepted)
// yields a duplicate that mail clients recognise as one. The link (and its
// token) is derived here from the request, so that it is stored nowhere.
//
// A billing mail whose situation changed before it went out (the store's
// BillingMailCurrent) is not sent and is recorded as done, so that its
// retries stop. A mail that cannot be linked or rendered (a missing fact, a
// payment page that is not an http(s) URL) fails for good (ErrTypeBadMail).
func (a *Activities) SendMail(ctx context.Context, req kudos.MailRequest) (workflows.SendMailResult, error) {
	sent, err := a.Store.MailSent(ctx, req.Key)
	if err != nil {
		return workflows.SendMailResult{}, err
	}
	if sent {
		return workflows.SendMailResult{AlreadySent: true}, nil
	}
	if req.Link, err = a.Tokens.MailLink(a.PublicURL, req); err != nil {
		return workflows.SendMailResult{}, badMail("cannot link mail", err)
	}
	msg, err := a.Render(req)
	if err != nil {
		return workflows.SendMailResult{}, badMail("cannot render mail", err)
	}
	if req.Purpose.IsBilling() {
		current, err := a.Store.BillingMailCurrent(ctx, req)
		if kudos.ErrorCode(err) == kudos.EInvalid {
			return workflows.SendMailResult{}, badMail("cannot check billing mail", err)
		}
		if err != nil {
			return workflows.SendMailResult{}, err
		}
		if !current {
			return workflows.SendMailResult{Skipped: true}, a.Store.MarkMailSent(ctx, req.Key)
		}
	}
	if err := a.Mailer.Send(ctx, msg); err != nil {
		return workflows.SendMailResult{}, err
	}
	return workflows.SendMailResult{}, a.Store.MarkMailSent(ctx, req.Key)
}

// badMail is a mail request that no retry can fix.
func badMail(msg string, err error) error {
	return temporal.NewNonRetryableApplicationError(msg, workflows.ErrTypeBadMail, err)
}
