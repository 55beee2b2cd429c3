package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// OpsRecentRows is how many rows of each history (invoices, checkouts,
// payment events, refunds) an ops report shows, newest first.
const OpsRecentRows = 20

// OpsAccount is what the read model holds about one account, as `kudos ops
// account` shows it: the rows an operator would otherwise SELECT one by one
// following docs/runbook-payments.md.
type OpsAccount struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// DeletionAt is when a scheduled deletion erases the account (issue
	// 28); DeletedAt when it was erased.
	DeletionAt   *time.Time          `json:"deletion_at"`
	DeletedAt    *time.Time          `json:"deleted_at"`
	Subscription *kudos.Subscription `json:"subscription"`
	Members      []OpsMember         `json:"members"`
	Invoices     []OpsInvoice        `json:"invoices"`
	Checkouts    []OpsCheckout       `json:"checkouts"`
	Events       []OpsPaymentEvent   `json:"payment_events"`
	Refunds      []OpsRefund         `json:"refunds"`
	// Disputes are the account's disputes (chargebacks), newest first.
	Disputes []OpsDispute `json:"disputes"`
	// Outbox are the account's entries not delivered yet or parked as dead
	// letters (its workflows' entries and the mails to its members).
	Outbox []OpsOutboxEntry `json:"outbox"`
}

// OpsMember is a user of the account.
type OpsMember struct {
	UserID    uuid.UUID `json:"user_id" db:"user_id"`
	Email     string    `json:"email" db:"email"`
	Role      string    `json:"role" db:"role"`
	Activated bool      `json:"activated" db:"activated"`
	// DeletionAt is when the member's own deletion is due (nil: none);
	// DeletionBlockedBy the account they own that keeps it waiting.
	DeletionAt        *time.Time `json:"deletion_at" db:"deletion_at"`
	DeletionBlockedBy *string    `json:"deletion_blocked_by" db:"deletion_blocked_by"`
}

// OpsInvoice is an invoice row.
type OpsInvoice struct {
	ID        uuid.UUID  `json:"id" db:"id"`
	Number    *string    `json:"number" db:"number"`
	Kind      string     `json:"kind" db:"kind"`
	Plan      string     `json:"plan" db:"plan"`
	Status    string     `json:"status" db:"status"`
	Total     int64      `json:"total_amount" db:"total_amount"`
	Currency  string     `json:"currency" db:"currency"`
	CreatedAt time.Time  `json:"created_at" db:"created_at"`
	PaidAt    *time.Time `json:"paid_at" db:"paid_at"`
	// VATRate and VATRule are its VAT and the rule of kudos.DecideVAT it
	// came from (standard, reverse_charge, outside_eu_business,
	// outside_eu_consumer).
	VATRate float64 `json:"vat_rate" db:"vat_rate"`
	VATRule string  `json:"vat_rule" db:"vat_rule"`
}

// OpsCheckout is a checkout row.
type OpsCheckout struct {
	ID         string    `json:"id" db:"id"`
	Purpose    string    `json:"purpose" db:"purpose"`
	Plan       string    `json:"plan" db:"plan"`
	Provider   string    `json:"provider" db:"provider"`
	ProviderID string    `json:"provider_id" db:"provider_id"`
	Status     string    `json:"status" db:"status"`
	ExpiresAt  time.Time `json:"expires_at" db:"expires_at"`
	CreatedAt  time.Time `json:"created_at" db:"created_at"`
	// Quote is what the checkout was priced by (issue 34): the buyer's
	// country and VAT id and the VAT decided for them (the rate, reverse
	// charge, why a buyer outside the EU pays none, the seller's
	// registration it is charged under); "" for a checkout opened before
	// quotes, or one that bills nothing new.
	Quote string `json:"quote" db:"quote"`
}

// OpsPaymentEvent is a stored payment event (webhook, sandbox button).
type OpsPaymentEvent struct {
	EventID    string    `json:"event_id" db:"event_id"`
	Provider   string    `json:"provider" db:"provider"`
	CheckoutID string    `json:"checkout_id" db:"checkout_id"`
	Outcome    string    `json:"outcome" db:"outcome"`
	OccurredAt time.Time `json:"occurred_at" db:"occurred_at"`
	ReceivedAt time.Time `json:"received_at" db:"received_at"`
	// AppliedAt is when the subscription workflow applied it (nil: not
	// yet; the reconciliation delivers it again after a while).
	AppliedAt *time.Time `json:"applied_at" db:"applied_at"`
	// Movement is what an event of money moved outside a checkout says
	// (issue 36): "charge <charge id>" or "refund <provider refund id>
	// <amount>"; "" for a checkout's event.
	Movement string `json:"movement,omitempty" db:"movement"`
	// Ledger says what a dispute's or a returned debit's event says
	// ("dispute lost dp_…", "returned <payment>"; "" for a checkout's).
	Ledger string `json:"ledger,omitempty" db:"ledger"`
	// TraceID is the trace the event came in with: its webhook, its
	// delivery, the workflow's update and activities ("" before issue 40,
	// or when the provider's call carried none and tracing is off).
	TraceID string `json:"trace_id" db:"trace_id"`
}

// OpsDispute is a disputes row, with the credit note of a lost one.
type OpsDispute struct {
	ID           string     `json:"id" db:"id"`
	InvoiceID    *uuid.UUID `json:"invoice_id" db:"invoice_id"`
	Payment      string     `json:"payment" db:"payment"`
	Amount       int64      `json:"amount" db:"amount"`
	Currency     string     `json:"currency" db:"currency"`
	Status       string     `json:"status" db:"status"`
	Reason       string     `json:"reason" db:"reason"`
	OpenedAt     time.Time  `json:"opened_at" db:"opened_at"`
	ClosedAt     *time.Time `json:"closed_at" db:"closed_at"`
	CreditNoteID *uuid.UUID `json:"credit_note_id" db:"credit_note_id"`
}

// OpsRefund is a refund row.
type OpsRefund struct {
	ID         string `json:"id" db:"id"`
	CheckoutID string `json:"checkout_id" db:"checkout_id"`
	Amount     int64  `json:"amount" db:"amount"`
	Currency   string `json:"currency" db:"currency"`
	Reason     string `json:"reason" db:"reason"`
	// Status is refunded, refused (by the provider: an operator refunds by
	// hand), deferred (refused for now: tried again at RetryAt), failed
	// (at the provider, after it was made: refund again), or
	// settled_by_dispute (failed, then given back by a lost dispute), or
	// settled_by_return (failed, its payment returned by the bank).
	Status    string    `json:"status" db:"status"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	// RetryAt is a deferred refund's next try (nil otherwise).
	RetryAt *time.Time `json:"retry_at,omitempty" db:"retry_at"`
	// FailedAt and FailureReason tell when and why a refund failed at the
	// provider after it was made (status failed: the customer is owed
	// the money; its credit note stands). Repays names the failed refund
	// a refund made again pays out against (no credit note of its own).
	FailedAt      *time.Time `json:"failed_at,omitempty" db:"failed_at"`
	FailureReason string     `json:"failure_reason,omitempty" db:"failure_reason"`
	Repays        *string    `json:"repays,omitempty" db:"repays"`
	// SettledBy names the lost dispute of the payment that gave the
	// customer back SettledAmount of a failed refund through the card
	// network (status settled_by_dispute when that is all of it: nothing
	// is owed any more).
	SettledBy     *string `json:"settled_by,omitempty" db:"settled_by"`
	SettledAmount int64   `json:"settled_amount,omitempty" db:"settled_amount"`
	// SettledByReturn names the return of the payment (the bank took the
	// debit back: the customer has all of it) that settled a failed
	// refund (status settled_by_return: nothing is owed any more).
	SettledByReturn *string `json:"settled_by_return,omitempty" db:"settled_by_return"`
	// OwedFrom names the payment a failed refund is owed from when it is
	// not its own: its own was returned and that one paid its invoice
	// again (owed again: refund it again from there).
	OwedFrom *string `json:"owed_from,omitempty" db:"owed_from"`
	// Owed is what a failed refund still owes the customer: its own part
	// (its amount less what it repaid of earlier failures and what it paid
	// beyond its credit note) less what a lost dispute settled and what
	// refunds made again repaid, oldest failure first (owedSQL; 0 for any
	// other refund, and for a failed one repaid in full).
	Owed int64 `json:"owed,omitempty" db:"owed"`
	// Uncredited is what the refund paid out beyond what its invoice had
	// left to credit: money out with no credit note (a dashboard refund
	// after a returned debit was paid again, say).
	Uncredited int64 `json:"uncredited,omitempty" db:"uncredited"`
}

// OpsOutboxEntry is an outbox entry waiting for delivery or parked.
type OpsOutboxEntry struct {
	ID            int64      `json:"id" db:"id"`
	Key           string     `json:"key" db:"key"`
	Kind          string     `json:"kind" db:"kind"`
	WorkflowID    string     `json:"workflow_id" db:"workflow_id"`
	Attempts      int        `json:"attempts" db:"attempts"`
	LastError     *string    `json:"last_error" db:"last_error"`
	CreatedAt     time.Time  `json:"created_at" db:"created_at"`
	NextAttemptAt time.Time  `json:"next_attempt_at" db:"next_attempt_at"`
	DeadAt        *time.Time `json:"dead_at" db:"dead_at"`
	// LeasedUntil is set while a relay delivers the entry (store.OutboxLease).
	LeasedUntil *time.Time `json:"leased_until" db:"leased_until"`
}

// AccountIDsByEmail returns the accounts the user with this e-mail belongs
// to (owned first); none when no user has it.
func (db *DB) AccountIDsByEmail(ctx context.Context, email string) ([]uuid.UUID, error) {
	rows, _ := db.Pool.Query(ctx, `SELECT m.account_id FROM users u JOIN memberships m ON m.user_id = u.id
		WHERE lower(u.email) = lower($1) ORDER BY (m.role = 'owner') DESC, m.created_at`, email)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	return ids, wrapErr(err)
}

// OpsAccount reads everything the ops report shows of one account, in one
// read-only snapshot; kudos.NotFound when there is no such account.
func (db *DB) OpsAccount(ctx context.Context, accountID uuid.UUID) (*OpsAccount, error) {
	a := OpsAccount{ID: accountID}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT name, created_at, deletion_at, deleted_at FROM accounts WHERE id = $1`, accountID).
			Scan(&a.Name, &a.CreatedAt, &a.DeletionAt, &a.DeletedAt); err != nil {
			return notFound(err)
		}
		var sub kudos.Subscription
		err := tx.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions s WHERE account_id = $1`, accountID).
			Scan(subscriptionFields(&sub)...)
		switch {
		case err == nil:
			a.Subscription = &sub
		case !errors.Is(err, pgx.ErrNoRows):
			return wrapErr(err)
		}
		var errs [7]error
		a.Members, errs[0] = collect[OpsMember](ctx, tx, `SELECT u.id AS user_id, u.email, m.role, u.activated,
			u.deletion_at, `+deletionBlockedBy+` AS deletion_blocked_by
			FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1
			ORDER BY (m.role = 'owner') DESC, m.created_at`, accountID)
		a.Invoices, errs[1] = collect[OpsInvoice](ctx, tx, `SELECT id, number, kind, plan, status, total_amount, currency,
			created_at, paid_at, vat_rate::float8 AS vat_rate, CASE WHEN reverse_charge THEN 'reverse_charge'
			WHEN vat_outside_eu IS NOT NULL THEN 'outside_eu_' || vat_outside_eu ELSE 'standard' END AS vat_rule FROM invoices WHERE account_id = $1 ORDER BY created_at DESC LIMIT $2`, accountID, OpsRecentRows)
		a.Checkouts, errs[2] = collect[OpsCheckout](ctx, tx, `SELECT id, purpose, coalesce(plan, '') AS plan, provider,
			provider_id, status, expires_at, created_at, CASE WHEN quoted THEN concat_ws(' ', coalesce(buyer_country, 'no address'),
				nullif(buyer_vat_id, ''), 'at ' || vat_rate::float8 || ' %', CASE WHEN reverse_charge THEN 'reverse charge' END,
				'outside the EU (' || vat_outside_eu || ')', 'under ' || seller_vat_id)
				ELSE '' END AS quote FROM checkouts WHERE account_id = $1
			ORDER BY created_at DESC LIMIT $2`, accountID, OpsRecentRows)
		a.Events, errs[3] = collect[OpsPaymentEvent](ctx, tx, `SELECT event_id, provider, checkout_id, outcome, occurred_at,
			received_at, applied_at, CASE movement WHEN '' THEN '' WHEN 'charge' THEN 'charge ' || charge_id
				ELSE concat_ws(' ', movement, nullif(refund_id, ''), nullif(provider_refund_id, ''),
					currency || ' ' || to_char(amount / 100.0, 'FM999999990.00')) END AS movement,
			COALESCE('dispute ' || (dispute ->> 'status') || ' ' || (dispute ->> 'id'),
				'returned ' || (returned ->> 'payment'), '') AS ledger, trace_id FROM payment_events WHERE account_id = $1 ORDER BY received_at DESC LIMIT $2`, accountID, OpsRecentRows)
		a.Refunds, errs[4] = collect[OpsRefund](ctx, tx, `SELECT f.id, f.checkout_id, f.amount, f.currency, f.reason, f.status, f.created_at,
			f.retry_at, f.failed_at, f.failure_reason, f.repays, f.settled_by, f.settled_amount, f.settled_by_return, f.owed_from, f.uncredited,
			COALESCE(o.owed, 0) AS owed
			FROM refunds f LEFT JOIN (`+owedSQL+`) o ON o.id = f.id AND o.account_id = $1
			WHERE f.account_id = $1 ORDER BY f.created_at DESC LIMIT $2`, accountID, OpsRecentRows)
		a.Disputes, errs[6] = collect[OpsDispute](ctx, tx, `SELECT d.id, d.invoice_id, d.payment, d.amount, d.currency, d.status,
			d.reason, d.opened_at, d.closed_at, (SELECT c.id FROM invoices c WHERE c.dispute_id = d.id) AS credit_note_id
			FROM disputes d WHERE d.account_id = $1 ORDER BY d.opened_at DESC LIMIT $2`, accountID, OpsRecentRows)
		// The account's workflows' entries and billing mails (their
		// payloads name it), and the mails to its members (a mail names its
		// recipient).
		a.Outbox, errs[5] = collect[OpsOutboxEntry](ctx, tx, `SELECT id, key, kind, workflow_id, attempts, last_error,
			created_at, next_attempt_at, dead_at, leased_until FROM outbox
			WHERE delivered_at IS NULL AND (payload ->> 'account_id' = $2 OR payload -> 'billing' ->> 'account_id' = $2
				OR (kind = 'mail' AND lower(payload ->> 'to') IN (SELECT lower(u.email) FROM memberships m
					JOIN users u ON u.id = m.user_id WHERE m.account_id = $1)))
			ORDER BY id`, accountID, accountID.String())
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// collect runs a query and scans every row into T by column name.
func collect[T any](ctx context.Context, tx pgx.Tx, query string, args ...any) ([]T, error) {
	rows, _ := tx.Query(ctx, query, args...)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByNameLax[T])
	if out == nil {
		out = []T{}
	}
	return out, wrapErr(err)
}
