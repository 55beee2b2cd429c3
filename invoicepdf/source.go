package invoicepdf

import (
	"context"
	"fmt"

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

// InputFrom is what Render needs to draw inv: the buyer it was priced or
// numbered for (BuyerOf) and its account's owner, read from src. An
// account without an owner (erased: its members are gone, its numbered
// invoices and credit notes are kept as documents) has inv drawn for its
// buyer snapshot alone, with no e-mail, in English.
func InputFrom(ctx context.Context, src Source, inv kudos.Invoice) (Input, error) {
	addr, err := BuyerOf(ctx, src, inv)
	if err != nil {
		return Input{}, err
	}
	email, _, lang, err := src.MailRecipient(ctx, inv.AccountID)
	if kudos.ErrorCode(err) == kudos.ENotFound && inv.Number != "" {
		email, lang, err = "", "en", nil
	}
	if err != nil {
		return Input{}, err
	}
	return Input{Invoice: inv, Buyer: addr, BuyerEmail: email, Language: lang}, nil
}

// BuyerOf is the buyer inv is made out to: a numbered or quoted invoice's
// snapshot (the buyer its VAT was decided for; a due invoice's payment
// request too), never the live billing address (a later edit never
// changes an issued invoice); the live address for a pro-forma or payment
// request priced before quotes.
func BuyerOf(ctx context.Context, src Source, inv kudos.Invoice) (*kudos.BillingAddress, error) {
	if inv.Number != "" || inv.Quoted {
		return inv.Buyer, nil
	}
	return src.BillingAddress(ctx, inv.AccountID)
}

// Key is where the PDF of the account's numbered invoice or credit note
// is stored.
func Key(accountID uuid.UUID, number string) string {
	return fmt.Sprintf("invoices/%s/%s", accountID, number+".pdf")
}
