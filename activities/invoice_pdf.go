package activities

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"kudos/invoicepdf"
	"kudos/workflows"
)

// InvoicePDFKey is where an invoice's PDF is stored.
func InvoicePDFKey(accountID uuid.UUID, number string) string {
	return fmt.Sprintf("invoices/%s/%s", accountID, number+".pdf")
}

// RenderInvoicePDF renders a finalised invoice (seller, buyer with billing
// address and VAT id, lines, VAT, totals; in the owner's language) and
// stores it in object storage. The same invoice renders the same bytes to
// the same key, so a retry changes nothing.
func (a *Activities) RenderInvoicePDF(ctx context.Context, in workflows.InvoicePDFInput) error {
	inv, err := a.Store.Invoice(ctx, in.AccountID, in.InvoiceID)
	if err != nil {
		return err
	}
	if inv.Number == "" {
		return temporal.NewNonRetryableApplicationError("invoice is not final", workflows.ErrTypeInvoiceNotFinal, nil)
	}
	addr, err := a.Store.BillingAddress(ctx, in.AccountID)
	if err != nil {
		return err
	}
	email, err := a.Store.OwnerEmail(ctx, in.AccountID)
	if err != nil {
		return err
	}
	lang, err := a.Store.OwnerLanguage(ctx, in.AccountID)
	if err != nil {
		return err
	}
	pdf, err := invoicepdf.Render(invoicepdf.Input{Invoice: *inv, Buyer: addr, BuyerEmail: email, Language: lang})
	if err != nil {
		return temporal.NewNonRetryableApplicationError("cannot render invoice", workflows.ErrTypeInvoiceNotFinal, err)
	}
	key := InvoicePDFKey(in.AccountID, inv.Number)
	if err := a.Storage.Put(ctx, key, pdf, "application/pdf"); err != nil {
		return err
	}
	return a.Store.SetInvoicePDF(ctx, in.InvoiceID, key)
}
