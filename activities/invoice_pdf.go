package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/invoicepdf"
	"kudos/workflows"
)

// RenderInvoicePDF renders a finalised invoice (seller, buyer with billing
// address and VAT id, lines, VAT, totals; in the owner's language) and
// stores it in object storage. The same invoice renders the same bytes to
// the same key, so a retry changes nothing. A due invoice not numbered is a
// payment request (issue 34): nothing is stored for it (its download draws
// it), and its PDF is rendered when it is paid.
func (a *Activities) RenderInvoicePDF(ctx context.Context, in workflows.InvoicePDFInput) error {
	inv, err := a.Store.Invoice(ctx, in.AccountID, in.InvoiceID)
	if err != nil {
		return err
	}
	if inv.Number == "" && inv.Status == kudos.InvoiceDue {
		return nil
	}
	pdf, err := invoicepdf.InputFrom(ctx, a.Store, *inv)
	if err != nil {
		return err
	}
	return a.storeInvoicePDF(ctx, pdf)
}

// storeInvoicePDF renders a finalised invoice, stores it and records where.
// An invoice (or credit note) stored before is never drawn again, also
// when it is paid again after its debit came back: its document stays as
// the customer got it, not redrawn from the account as it is now (another
// owner, language or e-mail) under the same number.
func (a *Activities) storeInvoicePDF(ctx context.Context, in invoicepdf.Input) error {
	if in.Invoice.Number == "" {
		return temporal.NewNonRetryableApplicationError("invoice is not final", workflows.ErrTypeInvoiceNotFinal, nil)
	}
	if key, err := a.Store.InvoicePDF(ctx, in.Invoice.AccountID, in.Invoice.ID); err != nil || key != "" {
		return err
	}
	pdf, err := invoicepdf.Render(in)
	if errors.Is(err, invoicepdf.ErrNoNumber) || errors.Is(err, invoicepdf.ErrNoDate) {
		return temporal.NewNonRetryableApplicationError("cannot render invoice", workflows.ErrTypeInvoiceNotFinal, err)
	} else if err != nil {
		return err
	}
	key := invoicepdf.Key(in.Invoice.AccountID, in.Invoice.Number)
	if err := a.Storage.Put(ctx, key, pdf, "application/pdf"); err != nil {
		return err
	}
	return a.Store.SetInvoicePDF(ctx, in.Invoice.ID, key)
}
