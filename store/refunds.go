package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// RecordDeferredRefund records a refund the provider refused for now (its
// balance is short), to be tried again at retryAt: a row (status deferred)
// that outlives the workflow run that tries it, so that a rebuilt run
// (SubscriptionReadModel) and the reconciliation (DueDeferredRefunds) find
// it, and ops see it. Its created_at is the first refusal, which the retry
// schedule is measured from; a later refusal for now moves retry_at on. A
// refund made or refused for good meanwhile is left as it is.
func (db *DB) RecordDeferredRefund(ctx context.Context, accountID uuid.UUID, id, checkoutID, reason string, amount kudos.Money,
	retryAt time.Time) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO refunds (id, account_id, checkout_id, amount, currency, provider_id, reason, status, retry_at)
		VALUES ($1, $2, $3, $4, $5, '', $6, 'deferred', $7)
		ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, retry_at = EXCLUDED.retry_at WHERE refunds.status = 'deferred'`,
		id, accountID, checkoutID, amount.Amount, amount.Currency, reason, retryAt)
	return wrapErr(err)
}

// RefundStatus returns the status of refund id (refunded, refused,
// deferred), or ENotFound when it has no row.
func (db *DB) RefundStatus(ctx context.Context, id string) (string, error) {
	var status string
	err := db.Pool.QueryRow(ctx, `SELECT status FROM refunds WHERE id = $1`, id).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", kudos.Errorf(kudos.ENotFound, "no refund %q", id)
	}
	return status, wrapErr(err)
}

// deferredRefunds returns the account's deferred refunds as a workflow's
// state holds them (kudos.PendingRefund), oldest first.
func deferredRefunds(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) ([]kudos.PendingRefund, error) {
	rows, err := tx.Query(ctx, `SELECT checkout_id, created_at, retry_at, reason FROM refunds
		WHERE account_id = $1 AND status = 'deferred' ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.PendingRefund, error) {
		var r kudos.PendingRefund
		err := row.Scan(&r.CheckoutID, &r.FirstRefusedAt, &r.RetryAt, &r.Reason)
		r.FirstRefusedAt, r.RetryAt = r.FirstRefusedAt.UTC(), r.RetryAt.UTC()
		return r, err
	})
	return out, wrapErr(err)
}

// DeferredRefund is a deferred refund whose next try is due, with its
// account.
type DeferredRefund struct {
	AccountID uuid.UUID
	kudos.PendingRefund
}

// DueDeferredRefunds returns at most limit deferred refunds whose next
// try is at or before before, the most overdue first (the index
// refunds_deferred_idx: never a scan of every account).
func (db *DB) DueDeferredRefunds(ctx context.Context, before time.Time, limit int) ([]DeferredRefund, error) {
	rows, err := db.Pool.Query(ctx, `SELECT account_id, checkout_id, created_at, retry_at, reason FROM refunds
		WHERE status = 'deferred' AND retry_at <= $1 ORDER BY retry_at LIMIT $2`, before, limit)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (DeferredRefund, error) {
		var r DeferredRefund
		err := row.Scan(&r.AccountID, &r.CheckoutID, &r.FirstRefusedAt, &r.RetryAt, &r.Reason)
		return r, err
	})
	return out, wrapErr(err)
}

// DeferredRefunds counts the refunds the provider refused for now, and of
// them those overdue at now: past their retry_at by more than
// kudos.DeferredRefundGrace, which nothing is trying (the gauges
// kudos_refunds_deferred and kudos_refunds_deferred_overdue).
func (db *DB) DeferredRefunds(ctx context.Context, now time.Time) (deferred, overdue int, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE retry_at < $1) FROM refunds WHERE status = 'deferred'`,
		now.Add(-kudos.DeferredRefundGrace)).Scan(&deferred, &overdue)
	return deferred, overdue, wrapErr(err)
}
