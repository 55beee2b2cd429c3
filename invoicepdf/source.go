package invoicepdf

import (
	"context"

	"github.com/google/uuid"

	"kudos"
)

// Source is where the buyer's details of an invoice come from (*store.DB).
type Source interface {
	BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error)
	OwnerEmail(ctx context.Context, accountID uuid.UUID) (string, error)
	OwnerLanguage(ctx context.Context, accountID uuid.UUID) (string, error)
}

// RenderFrom renders inv made out to its account's billing address and
// owner, in the owner's language: the one way invoices (and pro-formas) are
// drawn, by the worker at finalisation and by the api on demand.
func RenderFrom(ctx context.Context, src Source, inv kudos.Invoice) ([]byte, error) {
	addr, err := src.BillingAddress(ctx, inv.AccountID)
	if err != nil {
		return nil, err
	}
	email, err := src.OwnerEmail(ctx, inv.AccountID)
	if err != nil {
		return nil, err
	}
	lang, err := src.OwnerLanguage(ctx, inv.AccountID)
	if err != nil {
		return nil, err
	}
	return Render(Input{Invoice: inv, Buyer: addr, BuyerEmail: email, Language: lang})
}
