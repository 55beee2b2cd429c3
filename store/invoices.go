package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// InvoiceNumberPrefix starts every invoice number: KUD-<year>-<6 digits>.
const InvoiceNumberPrefix = "KUD"

// CreateInvoice stores a new invoice; it is idempotent by id (a retried
// activity creates one). A quoted invoice is stored with its quote's buyer
// and VAT decision. A DUE_PAYMENT invoice is a payment request: due at
// once, numbered only when paid (issue 34).
func (db *DB) CreateInvoice(ctx context.Context, inv kudos.Invoice) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertInvoice(ctx, tx, inv, db.Now()) })
}

// insertInvoice is CreateInvoice inside tx.
func insertInvoice(ctx context.Context, tx pgx.Tx, inv kudos.Invoice, now time.Time) error {
	var quotedAt *time.Time
	if inv.Quoted {
		quotedAt = &now
	}
	from, to := inv.Service.Columns()
	tag, err := tx.Exec(ctx, `INSERT INTO invoices (id, account_id, kind, plan, description, net_amount, vat_amount, vat_rate,
		total_amount, currency, status, created_at, reverse_charge, vat_outside_eu, seller_vat_id, service_from, service_to,
		quoted_at, lines, `+buyerColumns+`, discount_code, discount_amount)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'PROCESSING', $11, $12, NULLIF($13, ''), NULLIF($14, ''), $15, $16,
		$17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28)
		ON CONFLICT (id) DO NOTHING`, append(append([]any{inv.ID, inv.AccountID, inv.Kind, inv.Plan, kudos.InvoiceDescription(inv.Kind, inv.Plan),
		inv.Net, inv.VAT, inv.VATRate, inv.Total, inv.Currency, now, inv.ReverseCharge, string(inv.OutsideEU), inv.SellerVATID, from, to,
		quotedAt, linesValue(inv.Lines)}, buyerValues(inv.Buyer)...), discountValues(inv.Discount)...)...)
	if err != nil || tag.RowsAffected() == 0 || inv.Status != kudos.InvoiceDue {
		return wrapErr(err)
	}
	fresh := invoiceRow{id: inv.ID, status: kudos.InvoiceProcessing} // just inserted: no number yet
	_, err = fresh.setStatus(ctx, tx, kudos.InvoiceDue, now)
	return err
}

// SetInvoiceStatus moves an invoice to PAID (giving it its number if it
// has none) or DUE_PAYMENT (a payment request: no number). Setting the
// status it has is a no-op. The billing
// event is written with it: a renewal invoice paid or due is the renewal
// charge succeeding or failing; any other paid invoice (an amount above
// zero) is a payment.
func (db *DB) SetInvoiceStatus(ctx context.Context, id uuid.UUID, status kudos.InvoiceStatus) error {
	return db.setInvoiceStatus(ctx, id, status, "")
}

// InvoicePaidBy reports whether one of the account's invoices was paid by
// payment paidBy (a checkout's id or a renewal charge's key): the payment
// was booked, so a repeat of its event gives nothing back.
func (db *DB) InvoicePaidBy(ctx context.Context, accountID uuid.UUID, paidBy string) (bool, error) {
	var paid bool
	err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM invoices WHERE account_id = $1 AND paid_by = $2 AND kind <> 'CREDIT_NOTE')`,
		accountID, paidBy).Scan(&paid)
	return paid, wrapErr(err)
}

// PaymentTakenBack reports whether the account's payment paidBy (a
// checkout's id, or a renewal charge's key) was taken back after it
// succeeded: a returned debit applied, or a dispute of it lost. The
// provider still reads such a payment as succeeded, so a late or replayed
// "paid" event of it must not settle anything again.
func (db *DB) PaymentTakenBack(ctx context.Context, accountID uuid.UUID, paidBy string) (bool, error) {
	var taken bool
	err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM payment_events WHERE returned->>'payment' = $2 AND returned IS NOT NULL
			AND account_id = $1 AND applied_at IS NOT NULL)
		OR EXISTS (SELECT 1 FROM disputes WHERE account_id = $1 AND payment = $2 AND status = 'lost')`, accountID, paidBy).Scan(&taken)
	return taken, wrapErr(err)
}

// PayInvoice is SetInvoiceStatus to PAID by the payment paidBy (the
// checkout, or the renewal charge's key, that settled it): recorded on the
// invoice (paid_by), so that only that payment's refund credits it.
func (db *DB) PayInvoice(ctx context.Context, id uuid.UUID, paidBy string) error {
	return db.setInvoiceStatus(ctx, id, kudos.InvoicePaid, paidBy)
}

// setInvoiceStatus is SetInvoiceStatus, with the payment that pays it.
func (db *DB) setInvoiceStatus(ctx context.Context, id uuid.UUID, status kudos.InvoiceStatus, paidBy string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		r, err := readInvoiceRow(ctx, tx, id, true)
		if err != nil || !r.moves(status) {
			return err
		}
		r.paidBy = paidBy
		if _, err := r.setStatus(ctx, tx, status, now); err != nil {
			return err
		}
		switch {
		case r.kind == kudos.InvoiceRenewal && status == kudos.InvoicePaid:
			return r.event(ctx, tx, kudos.EventRenewalSucceeded, now)
		case r.kind == kudos.InvoiceRenewal:
			return r.event(ctx, tx, kudos.EventRenewalFailed, now)
		case status == kudos.InvoicePaid:
			return r.paymentEvent(ctx, tx, now)
		}
		return nil
	})
}

// invoiceRow is what changing an invoice's status and recording its events
// need of its row.
type invoiceRow struct {
	id        uuid.UUID
	number    *string
	status    kudos.InvoiceStatus
	kind      kudos.InvoiceKind
	accountID uuid.UUID
	plan      kudos.Plan
	total     int64
	currency  string
	// paidBy is the payment that settles it, set by whoever pays it (""
	// : none, a waived invoice).
	paidBy string
}

// readInvoiceRow reads invoice id in tx, locking its row when forUpdate.
func readInvoiceRow(ctx context.Context, tx pgx.Tx, id uuid.UUID, forUpdate bool) (invoiceRow, error) {
	r := invoiceRow{id: id}
	query := `SELECT number, status, kind, account_id, plan, total_amount, currency FROM invoices WHERE id = $1`
	if forUpdate {
		query += ` FOR UPDATE`
	}
	err := tx.QueryRow(ctx, query, id).
		Scan(&r.number, &r.status, &r.kind, &r.accountID, &r.plan, &r.total, &r.currency)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, kudos.Errorf(kudos.ENotFound, "no invoice %s", id)
	}
	return r, wrapErr(err)
}

// event appends the billing event typ of the invoice.
func (r invoiceRow) event(ctx context.Context, tx pgx.Tx, typ kudos.BillingEventType, now time.Time) error {
	amount, id := r.total, r.id
	_, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: r.accountID, At: now, Type: typ, Plan: r.plan,
		Amount: &amount, Currency: r.currency, InvoiceID: &id, Key: fmt.Sprintf("%s:%s", typ, id)})
	return err
}

// paymentEvent appends payment_succeeded, unless the invoice was waived
// (zero: nothing was paid).
func (r invoiceRow) paymentEvent(ctx context.Context, tx pgx.Tx, now time.Time) error {
	if r.total == 0 {
		return nil
	}
	return r.event(ctx, tx, kudos.EventPaymentSucceeded, now)
}

// moves reports whether setting status changes the invoice: a status it
// has is a no-op, and a paid invoice stays paid.
func (r invoiceRow) moves(status kudos.InvoiceStatus) bool {
	return r.status != status && r.status != kudos.InvoicePaid
}

// setStatus writes status, numbering a paid invoice if it has no number
// yet (which locks the year's counter until the transaction ends), and
// returns the invoice as written. A due invoice is a payment request, not a
// sale: it is numbered when it is paid (issue 34), so that a request that
// lapses leaves no numbered invoice behind. Its buyer is decided by the
// same rule as any invoice's (snapshotBuyer): a quoted due invoice (every
// one priced since migration 00075) keeps the buyer of the quote it was
// priced by when it was made, even if it is paid after the address
// changed — the amount paid carries the VAT decided for that buyer, and
// naming another would print a VAT decision made for someone else (the
// bug of issue 34 item 4); the payment request shows that buyer too. Only a
// due invoice priced before quotes takes the buyer as it is at payment.
func (r *invoiceRow) setStatus(ctx context.Context, tx pgx.Tx, status kudos.InvoiceStatus, now time.Time) (*kudos.Invoice, error) {
	if r.number == nil && status == kudos.InvoicePaid {
		n, err := nextNumber(ctx, tx, InvoiceNumberPrefix, now.UTC().Year())
		if err != nil {
			return nil, err
		}
		r.number = &n
		if err := snapshotBuyer(ctx, tx, r.id); err != nil {
			return nil, err
		}
	}
	var paidAt *time.Time
	var paidBy *string
	if status == kudos.InvoicePaid {
		paidAt = &now
		if r.paidBy != "" {
			paidBy = &r.paidBy
		}
	}
	// Numbered now: issued now (the right-hand sides read the row as it was).
	inv, err := scanInvoice(tx.QueryRow(ctx, `UPDATE invoices SET status = $2, number = $3, finalized_at = COALESCE(finalized_at, $4), paid_at = $5,
		paid_by = COALESCE(paid_by, $6), issued_at = CASE WHEN number IS NULL AND $3::text IS NOT NULL THEN $4 ELSE issued_at END
		WHERE id = $1 RETURNING `+invoiceColumns, r.id, status, r.number, now, paidAt, paidBy))
	if err != nil {
		return nil, err
	}
	r.status = status
	if paidBy != nil { // credits only an invoice that payment settled (creditSale checks paid_by)
		// Paid again after a return: what its failed refunds owed is owed
		// again, first, so that a refund of this payment booked before
		// repays it as it would have in the other order.
		if err = oweAgain(ctx, tx, r.accountID, r.id, *paidBy); err == nil {
			err = creditEarlierRefunds(ctx, tx, r.accountID, r.id, *paidBy, now)
		}
		if err == nil {
			err = settleEarlierDisputes(ctx, tx, r.accountID, r.id, *paidBy, now)
		}
	}
	return inv, err
}

// settleEarlierDisputes gives the disputes of payment paidBy booked before
// it settled invoice id (the payment's own event lost and replayed later)
// that invoice, as they would have had in the other order: one still open
// is decided against it later (its credit note, the period it paid); one
// lost already gets its credit note now, as a refund booked first does
// (creditEarlierRefunds): the provider has the money back; and settles
// the payment's refunds that failed (settleByDisputes). One indexed
// look-up per payment.
func settleEarlierDisputes(ctx context.Context, tx pgx.Tx, accountID, id uuid.UUID, paidBy string, now time.Time) error {
	rows, err := tx.Query(ctx, `UPDATE disputes SET invoice_id = $3 WHERE account_id = $1 AND payment = $2 AND invoice_id IS NULL
		RETURNING id, status, amount, currency`, accountID, paidBy, id)
	if err != nil {
		return wrapErr(err)
	}
	type dispute struct {
		id     string
		status kudos.DisputeStatus
		amount kudos.Money
	}
	earlier, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (dispute, error) {
		var d dispute
		return d, row.Scan(&d.id, &d.status, &d.amount.Amount, &d.amount.Currency)
	})
	if err != nil {
		return wrapErr(err)
	}
	for _, d := range earlier {
		if d.status != kudos.DisputeLost {
			continue
		}
		src := creditSource{id: DisputeCreditNoteID(d.id), column: "dispute_id", ref: d.id}
		if _, _, err := creditSale(ctx, tx, src, accountID, paidBy, &id, d.amount, now); err != nil {
			return err
		}
		// And settles the payment's failed refunds as in that order.
		if err := settleByDisputes(ctx, tx, accountID, paidBy); err != nil {
			return err
		}
	}
	return nil
}

// creditEarlierRefunds gives the refunds of payment paidBy that were
// booked before it settled invoice id (the provider reported the refund
// first: the payment's own event was lost and replayed later) the credit
// notes they would have had in the other order. Such a refund corrected
// no invoice when it was booked: none was paid by that payment yet. A
// refund that repays a failed one (its credit is that one's credit note)
// and a refund credited already make none; one that the payment's failed
// refunds owe from it now (owed again, oweAgain: the invoice paid again
// after a return) repays them first, as BookRefund would have, and only
// the rest is credited. A refund beyond what the
// invoice has left to credit (after a returned debit, paid again by this
// payment) is credited what is left, the rest recorded as uncredited, as
// BookRefund does (creditRefund). One indexed look-up per payment;
// nothing more unless the payment was refunded.
func creditEarlierRefunds(ctx context.Context, tx pgx.Tx, accountID, id uuid.UUID, paidBy string, now time.Time) error {
	rows, err := tx.Query(ctx, `SELECT id, amount, currency FROM refunds WHERE checkout_id = $1 AND account_id = $2
		AND status IN ('refunded', 'failed', 'settled_by_dispute', 'settled_by_return') AND repays IS NULL ORDER BY created_at, id`, paidBy, accountID)
	if err != nil {
		return wrapErr(err)
	}
	type refund struct {
		id     string
		amount kudos.Money
	}
	earlier, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (refund, error) {
		var r refund
		return r, row.Scan(&r.id, &r.amount.Amount, &r.amount.Currency)
	})
	if err != nil {
		return wrapErr(err)
	}
	for _, r := range earlier {
		credit, err := repayFirst(ctx, tx, accountID, paidBy, r.id, r.amount)
		if err != nil {
			return err
		}
		if credit.Amount == 0 {
			continue
		}
		if err := creditRefund(ctx, tx, accountID, r.id, paidBy, &id, credit, now); err != nil {
			return err
		}
	}
	return nil
}

// repayFirst makes the refund refundID of payment paidBy, booked before
// paidBy paid its invoice and not credited yet, repay what the failed
// refunds owed from paidBy still owe (owed again: oweAgain), as BookRefund
// would have made it in the other order, and returns what is left of
// amount to credit (all of it when nothing is owed, when it was credited
// already: its credit note stands as it is, or when it failed in its
// turn: it repaid nothing).
func repayFirst(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, paidBy, refundID string, amount kudos.Money) (kudos.Money, error) {
	var credited, made bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM invoices WHERE account_id = $1 AND refund_id = $2),
		EXISTS (SELECT 1 FROM refunds WHERE account_id = $1 AND id = $2 AND status = 'refunded')`,
		accountID, refundID).Scan(&credited, &made); err != nil || credited || !made {
		return amount, wrapErr(err)
	}
	repays, owed, err := owedAfterFailure(ctx, tx, accountID, paidBy)
	if err != nil || owed == 0 {
		return amount, err
	}
	repaid := min(owed, amount.Amount)
	if _, err := tx.Exec(ctx, `UPDATE refunds SET repays = $2, repaid_amount = $3 WHERE id = $1`, refundID, repays, repaid); err != nil {
		return amount, wrapErr(err)
	}
	amount.Amount -= repaid
	return amount, nil
}

// paidPeriod is the service period of an invoice of kind paid now, that
// moved the subscription to sub: an upgrade's or extra seats' from now
// (they apply at their payment) to the renewal date, any other's the
// period sub begins (a plan started, a due invoice reactivating, a renewal
// paid in dunning); nil when sub has no period.
func paidPeriod(kind kudos.InvoiceKind, sub kudos.Subscription, now time.Time) *kudos.ServicePeriod {
	from := sub.PeriodStartedAt
	if kind == kudos.InvoiceUpgrade || kind == kudos.InvoiceSeats {
		from = &now
	}
	if from == nil || sub.PlanRenewalAt == nil || sub.PlanRenewalAt.Before(*from) {
		return nil
	}
	return &kudos.ServicePeriod{From: *from, To: *sub.PlanRenewalAt}
}

// setServicePeriod gives the invoice its service period p (issue 34),
// unless it has one (a renewal's, set when it was billed) or p is nil;
// replace gives it p over the one it has (a renewal's invoice paid after
// the plan expired: it pays the period its payment starts), unless it was
// numbered before: an issued invoice (paid once, its debit returned since)
// is never rewritten, its document stays as the customer got it.
func (r invoiceRow) setServicePeriod(ctx context.Context, tx pgx.Tx, p *kudos.ServicePeriod, replace bool) error {
	if p == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE invoices SET service_from = $2, service_to = $3 WHERE id = $1
		AND (service_from IS NULL OR ($4 AND number IS NULL))`, r.id, p.From, p.To, replace)
	return wrapErr(err)
}

// snapshotBuyer copies the account's billing address as it is now onto
// invoice id (all NULL when it has none): the buyer its document shows for
// good. A quoted invoice has its buyer already, the one its VAT was decided
// for, and keeps it (a due one too, numbered at its payment: setStatus).
func snapshotBuyer(ctx context.Context, tx pgx.Tx, id uuid.UUID) error {
	_, err := tx.Exec(ctx, `UPDATE invoices i SET (`+buyerColumns+`) = (SELECT organization_name, street_and_number,
		street_additional, postal_code, city, region, country, vat_id FROM billing_addresses b WHERE b.account_id = i.account_id)
		WHERE i.id = $1 AND i.quoted_at IS NULL`, id)
	return wrapErr(err)
}

// buyerValues are the values of buyerColumns for buyer (all NULL when nil).
func buyerValues(buyer *kudos.BillingAddress) []any {
	if buyer == nil {
		return make([]any, 8)
	}
	b := buyer
	return []any{b.OrganizationName, b.StreetAndNumber, b.StreetAdditional, b.PostalCode, b.City, b.Region, b.Country, b.VATID}
}

// nextNumber takes the next number of series (InvoiceNumberPrefix,
// CreditNoteNumberPrefix) in year: "<series>-<year>-<6 digits>". The
// counter row stays locked until the transaction ends, so concurrent
// numberings queue and numbers are unique and gap-free (a rolled-back
// transaction gives its number back). Every numbered document takes its
// number here.
func nextNumber(ctx context.Context, tx pgx.Tx, series string, year int) (string, error) {
	var n int
	err := tx.QueryRow(ctx, `INSERT INTO invoice_counters (series, year, last) VALUES ($1, $2, 1)
		ON CONFLICT (series, year) DO UPDATE SET last = invoice_counters.last + 1 RETURNING last`, series, year).Scan(&n)
	if err != nil {
		return "", wrapErr(err)
	}
	return fmt.Sprintf("%s-%d-%06d", series, year, n), nil
}

// DeleteDraftInvoice drops an invoice whose checkout failed before it was
// finalised (it has no number, so no gap appears).
func (db *DB) DeleteDraftInvoice(ctx context.Context, id uuid.UUID) error {
	_, err := db.Pool.Exec(ctx, `DELETE FROM invoices WHERE id = $1 AND status = 'PROCESSING' AND number IS NULL`, id)
	return wrapErr(err)
}

// buyerColumns are an invoice's buyer snapshot, in kudos.BillingAddress's
// field order.
const buyerColumns = `buyer_organization_name, buyer_street_and_number, buyer_street_additional, buyer_postal_code,
	buyer_city, buyer_region, buyer_country, buyer_vat_id`

const invoiceColumns = `id, account_id, COALESCE(number, ''), kind, plan, description, net_amount, vat_amount, vat_rate::float8,
	total_amount, currency, status, created_at, ` + buyerColumns + `, corrects,
	COALESCE((SELECT c.number FROM invoices c WHERE c.id = invoices.corrects), ''), reverse_charge, COALESCE(vat_outside_eu, ''),
	COALESCE(seller_vat_id, ''), service_from, service_to, quoted_at IS NOT NULL, lines, discount_code, discount_amount,
	CASE WHEN number IS NULL THEN NULL ELSE COALESCE(issued_at, created_at) END`

func scanInvoice(row pgx.Row) (*kudos.Invoice, error) {
	var i kudos.Invoice
	var b buyerSnapshot
	var from, to *time.Time
	var lines []byte
	var d discountLine
	var issued *time.Time
	err := row.Scan(append([]any{&i.ID, &i.AccountID, &i.Number, &i.Kind, &i.Plan, &i.Description, &i.Net, &i.VAT, &i.VATRate,
		&i.Total, &i.Currency, &i.Status, &i.CreatedAt}, append(b.dest(), &i.Corrects, &i.CorrectsNumber, &i.ReverseCharge,
		&i.OutsideEU, &i.SellerVATID, &from, &to, &i.Quoted, &lines, &d.code, &d.amount, &issued)...)...)
	if issued != nil {
		i.IssuedAt = *issued
	}
	if err == nil {
		if i.Lines, err = scanLines(lines); err != nil {
			return nil, err
		}
	}
	i.Buyer, i.Discount = b.address(), d.line()
	if from != nil && to != nil {
		i.Service = &kudos.ServicePeriod{From: *from, To: *to}
	}
	return &i, notFound(err)
}

// buyerSnapshot scans buyerColumns (each NULL when there is no snapshot).
type buyerSnapshot [8]*string

// dest is where Scan writes buyerColumns.
func (b *buyerSnapshot) dest() []any {
	out := make([]any, len(b))
	for i := range b {
		out[i] = &b[i]
	}
	return out
}

// address is the snapshot as a billing address, nil when there is none.
func (b *buyerSnapshot) address() *kudos.BillingAddress {
	if b[0] == nil {
		return nil
	}
	v := func(i int) string {
		if b[i] == nil {
			return ""
		}
		return *b[i]
	}
	return &kudos.BillingAddress{OrganizationName: v(0), StreetAndNumber: v(1), StreetAdditional: v(2), PostalCode: v(3),
		City: v(4), Region: v(5), Country: v(6), VATID: v(7)}
}

// Invoice returns the account's invoice id; another account's is ENotFound.
func (db *DB) Invoice(ctx context.Context, accountID, id uuid.UUID) (*kudos.Invoice, error) {
	return scanInvoice(db.Pool.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1 AND account_id = $2`, id, accountID))
}

// LatestUnpaidInvoice returns the account's newest DUE_PAYMENT invoice, or
// ENotFound.
func (db *DB) LatestUnpaidInvoice(ctx context.Context, accountID uuid.UUID) (*kudos.Invoice, error) {
	return scanInvoice(db.Pool.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE account_id = $1 AND status = 'DUE_PAYMENT'
		ORDER BY created_at DESC, number DESC LIMIT 1`, accountID))
}

// Invoices returns the account's invoices, newest first.
func (db *DB) Invoices(ctx context.Context, accountID uuid.UUID) ([]kudos.Invoice, error) {
	rows, err := db.Pool.Query(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE account_id = $1 ORDER BY created_at DESC, number DESC NULLS FIRST`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	defer rows.Close()
	out := []kudos.Invoice{}
	for rows.Next() {
		i, err := scanInvoice(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *i)
	}
	return out, wrapErr(rows.Err())
}

// SetInvoicePDF records where the invoice's PDF is stored.
func (db *DB) SetInvoicePDF(ctx context.Context, id uuid.UUID, key string) error {
	_, err := db.Pool.Exec(ctx, `UPDATE invoices SET pdf_key = $2 WHERE id = $1`, id, key)
	return wrapErr(err)
}

// InvoicePDF returns where the account's invoice PDF is stored ("" while it
// is being rendered); another account's invoice is ENotFound.
func (db *DB) InvoicePDF(ctx context.Context, accountID, id uuid.UUID) (string, error) {
	var key *string
	err := db.Pool.QueryRow(ctx, `SELECT pdf_key FROM invoices WHERE id = $1 AND account_id = $2`, id, accountID).Scan(&key)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", kudos.NotFound()
	}
	if key == nil {
		return "", wrapErr(err)
	}
	return *key, wrapErr(err)
}
