package store

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kudos"
	"kudos/tracing"
)

// RecordCheckout stores an opened checkout with the price of its invoice
// and the quote it was priced by (idempotent by id) and, for a checkout
// that bills something, its checkout_opened event. A checkout that prices
// a new invoice (a plan, an upgrade) creates that invoice (PROCESSING) in
// the same transaction: the invoice exists only once the provider has
// opened its checkout. A plan checkout is refused (seat_limit) when the
// team has outgrown the plan (planHoldsTeam).
func (db *DB) RecordCheckout(ctx context.Context, c kudos.CheckoutRecord) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return recordCheckout(ctx, tx, c, db.Now()) })
}

func recordCheckout(ctx context.Context, tx pgx.Tx, c kudos.CheckoutRecord, now time.Time) error {
	if c.Purpose.ChangesPlan() && c.Purpose != kudos.CheckoutSeats { // more seats never outgrow the team
		extras := 0
		if c.Purpose.PaysExistingInvoice() && c.Invoice != nil { // a due invoice of a Team plan buys its seats back
			extras = kudos.SeatsBilled(c.Invoice.Lines)
		}
		if err := planHoldsTeam(ctx, tx, c.AccountID, c.Plan, extras, now); err != nil {
			return err
		}
	}
	inv := c.Invoice
	if inv == nil {
		inv = &kudos.Invoice{}
	} else if c.Purpose != kudos.CheckoutPaymentMethod && !c.Purpose.PaysExistingInvoice() {
		if err := insertInvoice(ctx, tx, *inv, now); err != nil {
			return err
		}
	}
	tag, err := tx.Exec(ctx, `INSERT INTO checkouts (id, account_id, purpose, plan, invoice_id, provider, provider_id, url, expires_at,
		invoice_kind, net_amount, vat_amount, vat_rate, total_amount, currency, reverse_charge, vat_outside_eu, seller_vat_id,
		quoted, extra_seats, invoice_lines, `+buyerColumns+`, discount_code, discount_amount, from_plan, from_extra_seats)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULLIF($10, ''), $11, $12, $13, $14, NULLIF($15, ''), $16, NULLIF($17, ''),
			NULLIF($18, ''), $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, NULLIF($32, ''), $33)
		ON CONFLICT (id) DO NOTHING`,
		append(append(append([]any{c.ID, c.AccountID, c.Purpose, c.Plan, c.InvoiceID, c.Provider, c.ProviderID, c.URL, c.ExpiresAt,
			string(inv.Kind), inv.Net, inv.VAT, inv.VATRate, inv.Total, inv.Currency, inv.ReverseCharge, string(inv.OutsideEU),
			inv.SellerVATID, inv.Quoted, c.ExtraSeats, linesValue(inv.Lines)}, buyerValues(inv.Buyer)...), discountValues(inv.Discount)...),
			string(c.FromPlan), c.FromExtraSeats)...)
	if err != nil || tag.RowsAffected() == 0 || c.Purpose == kudos.CheckoutPaymentMethod {
		return wrapErr(err)
	}
	// Paying an invoice takes no use of the code on it: the plan's
	// purchase took it (a forever code's renewals carry its line).
	if !c.Purpose.PaysExistingInvoice() {
		if err := redeemPromotion(ctx, tx, c, c.Invoice, now); err != nil {
			return err
		}
	}
	ev := kudos.BillingEvent{AccountID: c.AccountID, At: now, Type: kudos.EventCheckoutOpened, Plan: c.Plan,
		InvoiceID: c.InvoiceID, Key: string(kudos.EventCheckoutOpened) + ":" + c.ID}
	if c.Invoice != nil {
		ev.Amount, ev.Currency = &c.Invoice.Total, c.Invoice.Currency
	}
	_, err = AppendBillingEvent(ctx, tx, ev)
	return err
}

// planHoldsTeam refuses (seat_limit) a checkout for plan with extras extra
// seats when the account's members and pending invitations outnumber
// their seats.
// It takes the account's team lock, which every invitation and acceptance
// takes: one that came after the api's check and before this is seen
// here, and once the checkout is recorded the seats are the smaller
// plan's until it closes (payingPlan).
func planHoldsTeam(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, plan kudos.Plan, extras int, now time.Time) error {
	if _, err := lockAccount(ctx, tx, accountID); err != nil {
		return err
	}
	var used int
	if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM memberships WHERE account_id = $1)
		+ (SELECT count(*) FROM invitations WHERE account_id = $1 AND status = 'pending' AND expires_at > $2)`, accountID, now).
		Scan(&used); err != nil {
		return wrapErr(err)
	}
	return kudos.CheckPlanFits(plan, extras, used)
}

// Checkout returns a checkout of the account by our id.
func (db *DB) Checkout(ctx context.Context, accountID uuid.UUID, id string) (*kudos.CheckoutRecord, error) {
	return readCheckout(ctx, db.Pool, accountID, id)
}

// readCheckout is Checkout through q (the pool, or a transaction).
func readCheckout(ctx context.Context, q querier, accountID uuid.UUID, id string) (*kudos.CheckoutRecord, error) {
	var c kudos.CheckoutRecord
	var kind, currency *string
	var net, vat, total *int64
	var rate *float64
	var reverseCharge, quoted bool
	var outsideEU kudos.VATOutsideEU
	var sellerVATID string
	var buyer buyerSnapshot
	var d discountLine
	var rawLines []byte
	err := q.QueryRow(ctx, `SELECT id, provider, provider_id, url, account_id, purpose, coalesce(plan, ''), invoice_id, expires_at,
		status, invoice_kind, net_amount, vat_amount, vat_rate::float8, total_amount, currency, reverse_charge,
		coalesce(vat_outside_eu, ''), coalesce(seller_vat_id, ''), quoted, extra_seats, invoice_lines, `+buyerColumns+`, discount_code, discount_amount,
		coalesce(from_plan, ''), from_extra_seats
		FROM checkouts WHERE id = $1 AND account_id = $2`, id, accountID).
		Scan(append([]any{&c.ID, &c.Provider, &c.ProviderID, &c.URL, &c.AccountID, &c.Purpose, &c.Plan, &c.InvoiceID, &c.ExpiresAt,
			&c.Status, &kind, &net, &vat, &rate, &total, &currency, &reverseCharge, &outsideEU, &sellerVATID, &quoted, &c.ExtraSeats,
			&rawLines}, append(buyer.dest(), &d.code, &d.amount, &c.FromPlan, &c.FromExtraSeats)...)...)
	if err != nil {
		return nil, notFound(err)
	}
	lines, err := scanLines(rawLines)
	if err != nil {
		return nil, err
	}
	if kind != nil && net != nil && vat != nil && rate != nil && total != nil && currency != nil && c.InvoiceID != nil {
		c.Invoice = &kudos.Invoice{ID: *c.InvoiceID, AccountID: accountID, Kind: kudos.InvoiceKind(*kind), Plan: c.Plan,
			Net: *net, VAT: *vat, VATRate: *rate, Total: *total, Currency: *currency, Status: kudos.InvoiceProcessing,
			ReverseCharge: reverseCharge, OutsideEU: outsideEU, SellerVATID: sellerVATID, Quoted: quoted, Buyer: buyer.address(),
			Lines: lines, Discount: d.line()}
	}
	if d.code != nil && !c.Purpose.PaysExistingInvoice() { // priced with a code: its terms, for the renewals after the payment
		p, err := scanPromotion(q.QueryRow(ctx, `SELECT `+promotionColumns+` FROM promotion_codes WHERE code = $1`, *d.code))
		if err != nil {
			return nil, notFound(err)
		}
		terms := p.Discount()
		c.Promotion = &terms
	}
	return &c, nil
}

// RecordRefund stores a refund given through the provider (idempotent by
// id) with its refund event, marks its checkout refunded and, when the
// checkout paid a numbered invoice, issues the refund's one credit note,
// never more than the invoice has left to credit, the rest recorded as
// uncredited (creditRefund), all in one transaction.
func (db *DB) RecordRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, providerID, reason string, amount kudos.Money) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		return recordRefund(ctx, tx, accountID, id, checkoutID, providerID, reason, amount, db.Now())
	})
}

// MarkRefundMade records that an operator made, by hand at the provider,
// a refund the provider had refused, for good or for now (the runbook's
// manual fix): the refund row, its checkout and the customer's timeline, as
// RecordRefund does; a deferred one is then no longer tried (the retry
// finds it refunded). A refund neither refused nor deferred is ENotFound.
func (db *DB) MarkRefundMade(ctx context.Context, id, providerID string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var accountID uuid.UUID
		var checkoutID, currency string
		var amount int64
		err := tx.QueryRow(ctx, `SELECT account_id, checkout_id, amount, currency FROM refunds WHERE id = $1
			AND status IN ('refused', 'deferred') FOR UPDATE`, id).Scan(&accountID, &checkoutID, &amount, &currency)
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.Errorf(kudos.ENotFound, "no refused or deferred refund %q", id)
		} else if err != nil {
			return wrapErr(err)
		}
		return recordRefund(ctx, tx, accountID, id, checkoutID, providerID, "refunded by hand after the provider refused it",
			kudos.Money{Amount: amount, Currency: currency}, db.Now())
	})
}

// recordRefund is RecordRefund in tx.
func recordRefund(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, id, checkoutID, providerID, reason string, amount kudos.Money,
	now time.Time) error {
	if _, err := tx.Exec(ctx, `INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO UPDATE SET status = 'refunded', provider_id = EXCLUDED.provider_id, reason = EXCLUDED.reason,
			created_at = now(), retry_at = NULL WHERE refunds.status IN ('refused', 'deferred')`,
		id, accountID, checkoutID, amount.Amount, amount.Currency, providerID, reason); err != nil {
		return wrapErr(err)
	}
	var plan *string
	var invoiceID *uuid.UUID
	err := tx.QueryRow(ctx, `UPDATE checkouts SET status = 'refunded' WHERE id = $1 AND account_id = $2 RETURNING plan, invoice_id`,
		checkoutID, accountID).Scan(&plan, &invoiceID)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return wrapErr(err)
	}
	ev := kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventRefund, Amount: &amount.Amount,
		Currency: amount.Currency, InvoiceID: invoiceID, Key: string(kudos.EventRefund) + ":" + id}
	if plan != nil {
		ev.Plan = kudos.Plan(*plan)
	}
	if _, err = AppendBillingEvent(ctx, tx, ev); err != nil {
		return err
	}
	return creditRefund(ctx, tx, accountID, id, checkoutID, invoiceID, amount, now)
}

// checkoutEndEvents are the billing events of a checkout ending in a
// status (a paid checkout's event is its invoice's, or, for a payment
// method, payment_method_added).
var checkoutEndEvents = map[string]kudos.BillingEventType{
	"cancelled": kudos.EventCheckoutCancelled,
	"expired":   kudos.EventCheckoutExpired,
	"failed":    kudos.EventPaymentFailed,
}

// RecordRefusedRefund records a refund the provider refused for good (once
// by id, or a deferred one's last try; the checkout stays paid): ops refund
// by hand, or retry it, and a later RecordRefund of the same id turns it
// into a refund.
func (db *DB) RecordRefusedRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, reason string, amount kudos.Money) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason, status)
		VALUES ($1, $2, $3, $4, $5, '', $6, 'refused')
		ON CONFLICT (id) DO UPDATE SET status = 'refused', reason = EXCLUDED.reason, retry_at = NULL WHERE refunds.status = 'deferred'`,
		id, accountID, checkoutID, amount.Amount, amount.Currency, reason)
	return wrapErr(err)
}

// RefusedRefunds counts the refunds the provider refused that no one has
// made since (the kudos_refunds_refused gauge).
func (db *DB) RefusedRefunds(ctx context.Context) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM refunds WHERE status = 'refused'`).Scan(&n)
	return n, wrapErr(err)
}

// SetCheckoutStatus records how a checkout ended, with its billing event
// when the status changed.
func (db *DB) SetCheckoutStatus(ctx context.Context, id, status string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var old, purpose string
		var plan, currency *string
		var total *int64
		ev := kudos.BillingEvent{At: db.Now()}
		err := tx.QueryRow(ctx, `SELECT account_id, status, purpose, plan, invoice_id, total_amount, currency FROM checkouts
			WHERE id = $1 FOR UPDATE`, id).Scan(&ev.AccountID, &old, &purpose, &plan, &ev.InvoiceID, &total, &currency)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // as before: nothing to record
		} else if err != nil {
			return wrapErr(err)
		}
		if old == status {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE checkouts SET status = $2 WHERE id = $1`, id, status); err != nil {
			return wrapErr(err)
		}
		var ok bool
		if purpose == string(kudos.CheckoutPaymentMethod) {
			ev.Type, ok, ev.InvoiceID = kudos.EventPaymentMethodAdded, status == string(kudos.PaymentPaid), nil
		} else {
			ev.Type, ok = checkoutEndEvents[status]
		}
		if !ok {
			return nil
		}
		if plan != nil {
			ev.Plan = kudos.Plan(*plan)
		}
		if total != nil && currency != nil && ev.Type != kudos.EventPaymentMethodAdded {
			ev.Amount, ev.Currency = total, *currency
		}
		ev.Key = string(ev.Type) + ":" + id
		_, err = AppendBillingEvent(ctx, tx, ev)
		return err
	})
}

// RecordPaymentEvent stores a verified payment event once by its id and, in
// the same transaction, queues its delivery to the subscription workflow. It
// reports whether the event was new; a duplicate changes nothing.
func (db *DB) RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) OutboxEntry) (bool, error) {
	var isNew bool
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		isNew, err = RecordPaymentEventTx(ctx, tx, ev, delivery)
		return err
	})
	return isNew, err
}

// RecordPaymentEventTx is RecordPaymentEvent inside tx (see InTx): the
// sandbox settles its checkout and records the event in one transaction.
// The event keeps the id of the trace it came in with (ops find the
// payment's trace from it).
func RecordPaymentEventTx(ctx context.Context, tx pgx.Tx, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) OutboxEntry) (bool, error) {
	m := ev.LedgerMovement
	var amount *int64
	var currency *string
	if m.Amount != nil {
		amount, currency = &m.Amount.Amount, &m.Amount.Currency
	}
	tag, err := tx.Exec(ctx, `INSERT INTO payment_events (event_id, provider, account_id, checkout_id, outcome, occurred_at,
		movement, charge_id, payment_id, refund_id, provider_refund_id, invoice_id, amount, currency, reason, dispute, returned, trace_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT (event_id) DO NOTHING`,
		ev.EventID, ev.Provider, ev.AccountID, ev.CheckoutID, ev.Outcome, ev.OccurredAt,
		m.Movement, m.ChargeID, m.PaymentID, m.RefundID, m.ProviderRefundID, m.InvoiceID, amount, currency, m.Reason,
		ev.Dispute, ev.Return, tracing.TraceID(ctx))
	if err != nil || tag.RowsAffected() == 0 {
		return false, wrapErr(err)
	}
	return true, insertOutbox(ctx, tx, delivery(ev))
}

// StripeCustomer returns the account's Stripe customer id, or "".
func (db *DB) StripeCustomer(ctx context.Context, accountID uuid.UUID) (string, error) {
	var id string
	err := db.Pool.QueryRow(ctx, `SELECT customer_id FROM payment_customers WHERE account_id = $1 AND provider = 'stripe'`, accountID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return id, wrapErr(err)
}

// SaveStripeCustomer remembers the account's Stripe customer id and the
// e-mail address it was made with ("" : none).
func (db *DB) SaveStripeCustomer(ctx context.Context, accountID uuid.UUID, customerID, email string) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO payment_customers (account_id, provider, customer_id, email) VALUES ($1, 'stripe', $2, NULLIF($3, ''))
		ON CONFLICT (account_id) DO UPDATE SET customer_id = $2, provider = 'stripe', email = NULLIF($3, '')`, accountID, customerID, email)
	return wrapErr(err)
}

// StripeCustomerEmail is the e-mail address last sent to the account's
// Stripe customer ("" : none, or not known).
func (db *DB) StripeCustomerEmail(ctx context.Context, accountID uuid.UUID) (string, error) {
	var email *string
	err := db.Pool.QueryRow(ctx, `SELECT email FROM payment_customers WHERE account_id = $1 AND provider = 'stripe'`, accountID).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) || email == nil {
		return "", nil
	}
	return *email, wrapErr(err)
}

// SaveStripeCustomerEmail records the e-mail address sent to the account's
// Stripe customer.
func (db *DB) SaveStripeCustomerEmail(ctx context.Context, accountID uuid.UUID, email string) error {
	_, err := db.Pool.Exec(ctx, `UPDATE payment_customers SET email = $2 WHERE account_id = $1 AND provider = 'stripe'`, accountID, email)
	return wrapErr(err)
}

// Settlement says how SettlePaidCheckout applies a paid checkout.
type Settlement struct {
	// Revive: an invoice dropped (its checkout closed before the payment
	// arrived) is billed again first, at the price the checkout was opened
	// at.
	Revive bool
	// NewPeriod: the payment starts the period of the subscription row (an
	// expired plan's due invoice, reactivating it from now), and the
	// invoice is for that period, not for the one it was billed for (a
	// renewal that never started).
	NewPeriod bool
}

// SettlePaidCheckout applies a paid checkout in one transaction: the
// checkout paid, its invoice PAID and numbered, and the workflow-owned
// columns of the subscription row set to sub, as how says. It returns the
// invoice as settled. Retried, it changes nothing twice.
//
// applied are the payment events the settlement applies: marked applied in
// the same transaction.
func (db *DB) SettlePaidCheckout(ctx context.Context, accountID uuid.UUID, checkoutID string, invoiceID uuid.UUID,
	how Settlement, sub kudos.Subscription, applied ...string) (*kudos.Invoice, error) {
	var settled *kudos.Invoice
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		if err := markApplied(ctx, tx, accountID, applied, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE checkouts SET status = 'paid' WHERE id = $1 AND account_id = $2`, checkoutID, accountID); err != nil {
			return wrapErr(err)
		}
		inv, err := readInvoiceRow(ctx, tx, invoiceID, true)
		if kudos.ErrorCode(err) == kudos.ENotFound && how.Revive {
			if inv, err = reviveInvoice(ctx, tx, accountID, checkoutID, invoiceID, now); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		if !inv.moves(kudos.InvoicePaid) { // paid already (a retry): the row only
			if err := writeSubscription(ctx, tx, accountID, sub, now, nil); err != nil {
				return err
			}
			settled, err = scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1`, invoiceID))
			return err
		}
		if err := inv.paymentEvent(ctx, tx, now); err != nil {
			return err
		}
		inv.paidBy = checkoutID
		if err := writeSubscription(ctx, tx, accountID, sub, now, &inv); err != nil {
			return err
		}
		if err := inv.setServicePeriod(ctx, tx, paidPeriod(inv.kind, sub, now), how.NewPeriod); err != nil {
			return err
		}
		// Numbering locks the year's invoice counter until commit, and every
		// payment waits for it: last, so that it is held for one statement.
		settled, err = inv.setStatus(ctx, tx, kudos.InvoicePaid, now)
		return err
	})
	return settled, err
}

// reviveInvoice bills a dropped checkout invoice again, at the price its
// checkout was opened at, and reads it back locked.
func reviveInvoice(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, checkoutID string, invoiceID uuid.UUID, now time.Time) (invoiceRow, error) {
	c, err := readCheckout(ctx, tx, accountID, checkoutID)
	if err != nil {
		return invoiceRow{}, err
	}
	if c.Invoice == nil || c.Invoice.ID != invoiceID {
		return invoiceRow{}, kudos.Errorf(kudos.ENotFound, "no invoice %s, and checkout %s has no price to bill it again", invoiceID, checkoutID)
	}
	if err := insertInvoice(ctx, tx, *c.Invoice, now); err != nil {
		return invoiceRow{}, err
	}
	// Its promotion code's use, given back when the checkout closed, is
	// taken again: the payment was made at that price, so it is counted even
	// if the code's last use went meanwhile.
	if _, err := tx.Exec(ctx, `WITH r AS (UPDATE promotion_redemptions SET released_at = NULL WHERE checkout_id = $1 AND account_id = $2
		AND released_at IS NOT NULL RETURNING code)
		UPDATE promotion_codes p SET redeemed = redeemed + 1 FROM r WHERE p.code = r.code`, checkoutID, accountID); err != nil {
		return invoiceRow{}, wrapErr(err)
	}
	return readInvoiceRow(ctx, tx, invoiceID, true)
}

// paymentEventColumns are the columns of a kudos.PaymentEvent, in the order
// scanPaymentEvent reads them.
const paymentEventColumns = `event_id, provider, account_id, checkout_id, outcome, occurred_at,
	movement, charge_id, payment_id, refund_id, provider_refund_id, invoice_id, amount, currency, reason, dispute, returned`

// scanPaymentEvent reads one row of paymentEventColumns.
func scanPaymentEvent(row pgx.CollectableRow) (kudos.PaymentEvent, error) {
	var ev kudos.PaymentEvent
	var amount *int64
	var currency *string
	m := &ev.LedgerMovement
	err := row.Scan(&ev.EventID, &ev.Provider, &ev.AccountID, &ev.CheckoutID, &ev.Outcome, &ev.OccurredAt,
		&m.Movement, &m.ChargeID, &m.PaymentID, &m.RefundID, &m.ProviderRefundID, &m.InvoiceID, &amount, &currency, &m.Reason,
		&ev.Dispute, &ev.Return)
	if amount != nil && currency != nil {
		m.Amount = &kudos.Money{Amount: *amount, Currency: *currency}
	}
	ev.OccurredAt = ev.OccurredAt.UTC()
	return ev, err
}

// MarkPaymentEventsApplied records that the account's subscription workflow
// has applied the payment events ids (a repeat changes nothing).
func (db *DB) MarkPaymentEventsApplied(ctx context.Context, accountID uuid.UUID, ids []string) error {
	return markApplied(ctx, db.Pool, accountID, ids, db.Now())
}

// markApplied is MarkPaymentEventsApplied through q.
func markApplied(ctx context.Context, q interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, accountID uuid.UUID, ids []string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := q.Exec(ctx, `UPDATE payment_events SET applied_at = $3 WHERE account_id = $1 AND event_id = ANY($2) AND applied_at IS NULL`,
		accountID, ids, now)
	return wrapErr(err)
}

// StaleUnappliedEvents lists the payment events that were delivered to
// their workflow (or never queued) more than age ago and are still not
// applied: their run was lost (terminated) while holding them. The
// reconciliation delivers them again.
func (db *DB) StaleUnappliedEvents(ctx context.Context, age time.Duration) ([]kudos.PaymentEvent, error) {
	rows, err := db.Pool.Query(ctx, `SELECT `+paymentEventColumns+` FROM payment_events e WHERE applied_at IS NULL
		AND received_at < $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'payment_event' AND o.payload->>'event_id' = e.event_id
			AND (o.delivered_at IS NULL OR o.delivered_at >= $1) AND o.dead_at IS NULL)
		ORDER BY received_at, event_id LIMIT 1000`, db.Now().Add(-age))
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, scanPaymentEvent)
	return out, wrapErr(err)
}

// AbandonedCheckouts lists the open checkouts of purpose that expired
// before before (at most 500, oldest first).
func (db *DB) AbandonedCheckouts(ctx context.Context, purpose kudos.CheckoutPurpose, before time.Time) ([]kudos.CheckoutRecord, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, provider, provider_id, url, account_id, purpose, coalesce(plan, ''), invoice_id, expires_at, status
		FROM checkouts WHERE status = 'open' AND purpose = $1 AND expires_at < $2 ORDER BY expires_at LIMIT 500`, purpose, before)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.CheckoutRecord, error) {
		var c kudos.CheckoutRecord
		err := row.Scan(&c.ID, &c.Provider, &c.ProviderID, &c.URL, &c.AccountID, &c.Purpose, &c.Plan, &c.InvoiceID, &c.ExpiresAt, &c.Status)
		return c, err
	})
	return out, wrapErr(err)
}

// PaymentMethodsStamp changes whenever an account's payment methods may
// have changed: a payment event received (a checkout paid saves a method)
// or a billing event recorded (a method added or removed, a plan paid). A
// cache of the provider's list is good while the stamp stays the same.
func (db *DB) PaymentMethodsStamp(ctx context.Context, accountID uuid.UUID) (string, error) {
	var received *time.Time
	var seq *int64
	err := db.Pool.QueryRow(ctx, `SELECT (SELECT max(received_at) FROM payment_events WHERE account_id = $1),
		(SELECT max(seq) FROM billing_events WHERE account_id = $1)`, accountID).Scan(&received, &seq)
	if err != nil {
		return "", wrapErr(err)
	}
	s := ""
	if received != nil {
		s = received.UTC().Format(time.RFC3339Nano)
	}
	if seq != nil {
		s += "/" + strconv.FormatInt(*seq, 10)
	}
	return s, nil
}
