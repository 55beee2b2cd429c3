package activities

import (
	"context"
	"errors"
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
	pdf, err := invoicepdf.RenderFrom(ctx, a.Store, *inv)
	if errors.Is(err, invoicepdf.ErrNoNumber) || errors.Is(err, invoicepdf.ErrNoDate) {
		return temporal.NewNonRetryableApplicationError("cannot render invoice", workflows.ErrTypeInvoiceNotFinal, err)
	} else if err != nil {
		return err
	}
	key := InvoicePDFKey(in.AccountID, inv.Number)
	if err := a.Storage.Put(ctx, key, pdf, "application/pdf"); err != nil {
		return err
	}
	return a.Store.SetInvoicePDF(ctx, in.InvoiceID, key)
}
