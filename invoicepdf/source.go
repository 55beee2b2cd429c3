package invoicepdf

import (
	"context"

	"github.com/google/uuid"

	"kudos"
)

// Source is where the buyer's details of an invoice come from (*store.DB).
type Source interface {
	BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error)
	// MailRecipient is the account's owner: the buyer's e-mail and the
	// invoice's language (one read for both).
	MailRecipient(ctx context.Context, accountID uuid.UUID) (email, name, language string, err error)
}

// RenderFrom renders inv made out to its account's billing address and
// owner, in the owner's language: the one way invoices (and pro-formas) are
// drawn, by the worker at finalisation and by the api on demand.
func RenderFrom(ctx context.Context, src Source, inv kudos.Invoice) ([]byte, error) {
	in, err := InputFrom(ctx, src, inv)
	if err != nil {
		return nil, err
	}
	return Render(in)
}

// InputFrom is what Render needs to draw inv: its account's billing address
// and owner, read from src.
func InputFrom(ctx context.Context, src Source, inv kudos.Invoice) (Input, error) {
	addr, err := src.BillingAddress(ctx, inv.AccountID)
	if err != nil {
		return Input{}, err
	}
	email, _, lang, err := src.MailRecipient(ctx, inv.AccountID)
	if err != nil {
		return Input{}, err
	}
	return Input{Invoice: inv, Buyer: addr, BuyerEmail: email, Language: lang}, nil
}
