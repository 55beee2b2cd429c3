package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// CreditNoteNumberPrefix starts every credit note number, a series of its
// own: KUD-CN-<year>-<6 digits>.
const CreditNoteNumberPrefix = "KUD-CN"

// creditNoteIDs derives a credit note's id from its refund's id, so that
// the one credit note of a refund always has the same id (and PDF key).
var creditNoteIDs = uuid.MustParse("6f1d2c4e-30a0-4c1e-9a52-3c7e0d1f5b30")

// CreditNoteID is the id of the credit note of refund refundID.
func CreditNoteID(refundID string) uuid.UUID { return uuid.NewSHA1(creditNoteIDs, []byte(refundID)) }

// issueCreditNote gives the refund refundID of checkout checkoutID's
// payment its credit note against the invoice invoiceID, in the refund's
// transaction: negative amounts (the refunded share of the invoice's net
// and VAT), its own number, the invoice's buyer, quote and VAT decision
// (its snapshot, quoted_at, reverse charge, outside-EU reason and seller's
// VAT id) and service period, and its credit_note_issued event (the amount
// credited). A credit note only undoes a sale: the refund of a payment
// that did not settle the invoice (a duplicate, paid_by another checkout or
// a renewal charge; an invoice never paid) makes none, and its receipt
// names none. Neither do a refund that has one already (a retry) and a
// refund of nothing invoiced (an invoice without a number, dropped, or
// none: a payment-method verification).
func issueCreditNote(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, refundID, checkoutID string, invoiceID *uuid.UUID,
	amount kudos.Money, now time.Time) error {
	_, _, err := creditSale(ctx, tx, creditSource{id: CreditNoteID(refundID), column: "refund_id", ref: refundID}, accountID, checkoutID,
		invoiceID, amount, now)
	return err
}

// creditSource is what a credit note documents: a refund (refund_id) or a
// lost dispute (dispute_id), ref its id; id is the credit note's own.
type creditSource struct {
	id     uuid.UUID
	column string
	ref    string
}

// creditSale is issueCreditNote for a credit note documenting src: it
// returns the credit note's id when one exists now (made now or before),
// and whether the invoice had been credited in full before (then it makes
// none: nothing is left of the sale to undo).
func creditSale(ctx context.Context, tx pgx.Tx, src creditSource, accountID uuid.UUID, checkoutID string, invoiceID *uuid.UUID,
	amount kudos.Money, now time.Time) (_ *uuid.UUID, creditedBefore bool, _ error) {
	if invoiceID == nil {
		return nil, false, nil
	}
	id := src.id
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM invoices WHERE id = $1)`, id).Scan(&exists); err != nil || exists {
		if exists {
			return &id, false, nil
		}
		return nil, false, wrapErr(err)
	}
	// The invoice's row is locked: its credit notes are added up and
	// issued one at a time.
	inv, err := scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1 AND account_id = $2
		AND paid_by = $3 FOR UPDATE`, *invoiceID, accountID, checkoutID))
	if kudos.ErrorCode(err) == kudos.ENotFound || (err == nil && (inv.Number == "" || inv.IsCreditNote())) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	var before credited
	if err := tx.QueryRow(ctx, creditedSQL, inv.ID, kudos.InvoiceCreditNote).Scan(&before.net, &before.vat); err != nil {
		return nil, false, wrapErr(err)
	}
	net, vat := creditAmounts(*inv, before, amount.Amount)
	if net+vat <= 0 {
		return nil, inv.Total > 0, nil
	}
	number, err := nextNumber(ctx, tx, CreditNoteNumberPrefix, now.UTC().Year())
	if err != nil {
		return nil, false, err
	}
	from, to := inv.Service.Columns()
	if _, err := tx.Exec(ctx, `INSERT INTO invoices (id, account_id, number, kind, plan, description, net_amount, vat_amount,
		vat_rate, total_amount, currency, status, created_at, finalized_at, issued_at, corrects, `+src.column+`, reverse_charge, vat_outside_eu,
		seller_vat_id, service_from, service_to)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $13, $14, $15, $16, NULLIF($17, ''), NULLIF($18, ''), $19, $20)`,
		id, accountID, number, kudos.InvoiceCreditNote, inv.Plan, kudos.InvoiceDescription(kudos.InvoiceCreditNote, inv.Plan),
		-net, -vat, inv.VATRate, -(net + vat), inv.Currency, kudos.InvoiceCredited, now, inv.ID, src.ref, inv.ReverseCharge,
		string(inv.OutsideEU), inv.SellerVATID, from, to); err != nil {
		return nil, false, wrapErr(err)
	}
	// The buyer is the corrected invoice's (its snapshot), never the
	// billing address as it is now: the account may have moved or been
	// erased since, and the credit note undoes that sale to that buyer.
	if _, err := tx.Exec(ctx, `UPDATE invoices c SET (quoted_at, `+buyerColumns+`) = (SELECT quoted_at, `+buyerColumns+`
		FROM invoices i WHERE i.id = c.corrects) WHERE c.id = $1`, id); err != nil {
		return nil, false, wrapErr(err)
	}
	credited := net + vat // the timeline's amounts are what moved, never negative
	_, err = AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventCreditNoteIssued,
		Plan: inv.Plan, Amount: &credited, Currency: inv.Currency, InvoiceID: &id,
		Key: string(kudos.EventCreditNoteIssued) + ":" + id.String()})
	return &id, false, err
}

// credited is what an invoice's credit notes gave back so far (positive
// minor units).
type credited struct{ net, vat int64 }

// creditAmounts splits a refund of refunded (minor units) of inv, of which
// before was credited already, into the net and VAT it gives back: never
// more than is left of the invoice; all that is left of its net and VAT
// when the refund reaches its total (the parts of a refund made in pieces
// then add up to the invoice's own amounts); else the VAT in the invoice's
// proportion (rounded half up) and the rest net.
func creditAmounts(inv kudos.Invoice, before credited, refunded int64) (net, vat int64) {
	left := inv.Total - before.net - before.vat
	if refunded >= left || inv.Total == 0 {
		return inv.Net - before.net, inv.VAT - before.vat
	}
	vat = (refunded*inv.VAT*2 + inv.Total) / (2 * inv.Total)
	// Parts rounded up many times must not give back more VAT (or net)
	// than the invoice has left.
	vat = max(min(vat, inv.VAT-before.vat), refunded-(inv.Net-before.net))
	return refunded - vat, vat
}

// CreditNoteOfRefund returns the credit note of the account's refund
// refundID, or ENotFound (the refund corrected no invoice). A refund made
// again for one that failed, which issued none of its own, answers the
// failed refund's credit note: the one it pays out against.
func (db *DB) CreditNoteOfRefund(ctx context.Context, accountID uuid.UUID, refundID string) (*kudos.Invoice, error) {
	cn, err := db.Invoice(ctx, accountID, CreditNoteID(refundID))
	if kudos.ErrorCode(err) != kudos.ENotFound {
		return cn, err
	}
	var repays *string
	if qerr := db.Pool.QueryRow(ctx, `SELECT repays FROM refunds WHERE id = $1 AND account_id = $2`, refundID, accountID).
		Scan(&repays); qerr != nil || repays == nil {
		return nil, err
	}
	return db.Invoice(ctx, accountID, CreditNoteID(*repays))
}

// creditedSQL adds up what the credit notes ($2: their kind) of the
// invoice $1 credited (net, VAT), while its row is locked: an index on
// corrects finds them (migration 00107).
const creditedSQL = `SELECT COALESCE(-sum(net_amount), 0), COALESCE(-sum(vat_amount), 0) FROM invoices
	WHERE corrects = $1 AND kind = $2`
