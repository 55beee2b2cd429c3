// Package activities holds the Temporal activities of Kudos: one Activities
// struct carries the dependencies (store, mail sender, clock), and each
// activity is a method on it. Activities do the I/O the workflows decide on
// and write the resulting state into Postgres, the read model.
package activities

import (
	"context"
	"time"

	"kudos"
)

// Store is the part of the store the activities use.
type Store interface {
	MailSent(ctx context.Context, key string) (bool, error)
	MarkMailSent(ctx context.Context, key string) error
}

// Activities holds the dependencies of every activity.
type Activities struct {
	Store  Store
	Mailer kudos.MailSender
	// Render turns a mail request into a message (mail.Render).
	Render func(kudos.MailRequest) (kudos.Message, error)
	Now    func() time.Time
}
