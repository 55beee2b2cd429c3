package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// ProviderRun is one run of the provider reconciliation (issue 36 item 4):
// the window [Since, Until) of the provider's lists it compares.
type ProviderRun struct {
	ID       int64
	Provider string
	Since    time.Time
	Until    time.Time
	// Resumed: the run was begun before and did not finish (its worker
	// was lost); it is run again over the same window.
	Resumed bool
}

// BeginProviderReconciliation returns the provider's unfinished run, if
// any, to be resumed; otherwise it begins one over [the last finished
// run's Until, until): the cursor in Postgres, so that each run reads only
// what the provider created since the last. The first run of a provider
// reads first back from until. A window that would be empty (until not
// past the cursor) is returned as it is, with nothing to read.
func (db *DB) BeginProviderReconciliation(ctx context.Context, provider string, until time.Time, first time.Duration) (ProviderRun, error) {
	run := ProviderRun{Provider: provider}
	until = until.Truncate(time.Microsecond) // as Postgres keeps it: the next run's since
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id, since, until FROM provider_reconciliations WHERE provider = $1 AND finished_at IS NULL`,
			provider).Scan(&run.ID, &run.Since, &run.Until)
		if err == nil {
			run.Resumed = true
			return nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		since := until.Add(-first)
		var last time.Time
		err = tx.QueryRow(ctx, `SELECT until FROM provider_reconciliations WHERE provider = $1 AND finished_at IS NOT NULL
			ORDER BY finished_at DESC LIMIT 1`, provider).Scan(&last)
		if err == nil {
			since = last
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if until.Before(since) {
			until = since
		}
		run.Since, run.Until = since, until
		return tx.QueryRow(ctx, `INSERT INTO provider_reconciliations (provider, since, until, started_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (provider) WHERE finished_at IS NULL DO NOTHING RETURNING id`, provider, since, until, db.Now()).Scan(&run.ID)
	})
	run.Since, run.Until = run.Since.UTC(), run.Until.UTC()
	return run, wrapErr(err)
}

// FinishProviderReconciliation ends run with its report and the count of
// differences it could not repair (the kudos_ledger_drift gauge), and
// forgets what it saw.
func (db *DB) FinishProviderReconciliation(ctx context.Context, runID int64, drift int, report any) error {
	body, err := json.Marshal(report)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE provider_reconciliations SET finished_at = $2, drift = $3, report = $4 WHERE id = $1`,
			runID, db.Now(), drift, body); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM provider_reconcile_seen WHERE run_id = $1`, runID)
		return err
	})
}

// FinishedProviderRun is the newest finished run of a provider.
type FinishedProviderRun struct {
	ProviderRun
	FinishedAt time.Time
	Drift      int
	// Report is the run's report as JSON.
	Report json.RawMessage
}

// LastProviderReconciliation returns the newest finished run of provider,
// or nil when it never ran.
func (db *DB) LastProviderReconciliation(ctx context.Context, provider string) (*FinishedProviderRun, error) {
	var r FinishedProviderRun
	err := db.Pool.QueryRow(ctx, `SELECT id, provider, since, until, finished_at, drift, COALESCE(report, 'null') FROM provider_reconciliations
		WHERE provider = $1 AND finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1`, provider).
		Scan(&r.ID, &r.Provider, &r.Since, &r.Until, &r.FinishedAt, &r.Drift, &r.Report)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &r, wrapErr(err)
}

// LedgerDrift returns the differences the newest finished reconciliation
// of each provider could not repair, summed (the kudos_ledger_drift
// gauge; 0 before any run).
func (db *DB) LedgerDrift(ctx context.Context) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT COALESCE(sum(drift), 0) FROM (SELECT DISTINCT ON (provider) drift FROM provider_reconciliations
		WHERE finished_at IS NOT NULL ORDER BY provider, finished_at DESC) AS newest`).Scan(&n)
	return n, wrapErr(err)
}

// LedgerReconciledAt is when the provider reconciliation last finished,
// for the provider whose last finish is the oldest (nil before any run):
// a run that fails day after day is resumed over the same window and never
// finishes, and its drift gauge keeps the value of the last run that did.
func (db *DB) LedgerReconciledAt(ctx context.Context) (*time.Time, error) {
	var at *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT min(newest) FROM (SELECT max(finished_at) AS newest FROM provider_reconciliations
		WHERE finished_at IS NOT NULL GROUP BY provider) AS runs`).Scan(&at)
	return at, wrapErr(err)
}

// RecordedEvents returns which of the provider's event ids the intake has
// stored (payment_events).
func (db *DB) RecordedEvents(ctx context.Context, ids []string) (map[string]bool, error) {
	rows, err := db.Pool.Query(ctx, `SELECT event_id FROM payment_events WHERE event_id = ANY($1)`, ids)
	if err != nil {
		return nil, wrapErr(err)
	}
	known, err := pgx.CollectRows(rows, pgx.RowTo[string])
	out := make(map[string]bool, len(known))
	for _, id := range known {
		out[id] = true
	}
	return out, wrapErr(err)
}

// SeeProviderItems records that run saw the provider's payments (kind
// "payment", by Kudos's reference), refunds ("refund") or disputes
// ("dispute", both by the provider's id).
func (db *DB) SeeProviderItems(ctx context.Context, runID int64, kind string, refs []string) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO provider_reconcile_seen (run_id, kind, reference)
		SELECT $1, $2, r FROM unnest($3::text[]) AS r ON CONFLICT DO NOTHING`, runID, kind, refs)
	return wrapErr(err)
}

// PaymentAmounts returns, for each of Kudos's payment references, the
// amount Kudos booked for it: the total of the invoice it paid, or of the
// checkout it paid (a duplicate payment refunded), or, for an off-session
// charge that paid no invoice and was given back whole (a renewal charge
// completed when nothing was owed, or after its account was erased), the
// amount refunded; -1 when Kudos has only its payment event so far
// (recorded, applied shortly); or, for a payment whose debit came back
// (its invoice's paid_by cleared, the provider's payment still succeeded),
// the amount its applied return names. A reference Kudos knows nothing of
// is missing from the map.
func (db *DB) PaymentAmounts(ctx context.Context, refs []string) (map[string]int64, error) {
	rows, err := db.Pool.Query(ctx, `SELECT r, COALESCE(
			(SELECT total_amount FROM invoices WHERE paid_by = r ORDER BY paid_at LIMIT 1),
			(SELECT total_amount FROM checkouts WHERE id = r AND status IN ('paid', 'refunded')),
			(SELECT sum(amount)::bigint FROM refunds WHERE checkout_id = r AND id = 'refund:' || r AND status = 'refunded'),
			(SELECT -1 FROM payment_events WHERE checkout_id = r AND outcome = 'paid' LIMIT 1),
			(SELECT (returned->'amount'->>'amount')::bigint FROM payment_events WHERE returned->>'payment' = r AND returned IS NOT NULL
				AND applied_at IS NOT NULL ORDER BY received_at LIMIT 1))
		FROM unnest($1::text[]) AS r`, refs)
	if err != nil {
		return nil, wrapErr(err)
	}
	out := map[string]int64{}
	var ref string
	var amount *int64
	_, err = pgx.ForEachRow(rows, []any{&ref, &amount}, func() error {
		if amount != nil {
			out[ref] = *amount
		}
		return nil
	})
	return out, wrapErr(err)
}

// RefundAmounts returns, for each of the provider's refund ids Kudos
// recorded as made (refunds.provider_id), the amount Kudos recorded; one
// Kudos knows nothing of is missing from the map.
func (db *DB) RefundAmounts(ctx context.Context, providerIDs []string) (map[string]int64, error) {
	rows, err := db.Pool.Query(ctx, `SELECT provider_id, sum(amount)::bigint FROM refunds WHERE provider_id = ANY($1) AND status = 'refunded'
		GROUP BY provider_id`, providerIDs)
	if err != nil {
		return nil, wrapErr(err)
	}
	out := map[string]int64{}
	var id string
	var amount int64
	_, err = pgx.ForEachRow(rows, []any{&id, &amount}, func() error { out[id] = amount; return nil })
	return out, wrapErr(err)
}

// LedgerEntry is a payment, a refund or a dispute on Kudos's side that the
// provider's list did not show.
type LedgerEntry struct {
	AccountID uuid.UUID
	// Reference is the payment's (invoices.paid_by), or the refund's or
	// the dispute's provider id.
	Reference string
	Amount    int64
	Currency  string
	At        time.Time
}

// UnseenPayments returns, a page of at most limit after (at, reference),
// the payments Kudos booked in [since, until) (invoices paid by a payment
// of an amount) that run did not see at the provider.
func (db *DB) UnseenPayments(ctx context.Context, runID int64, since, until time.Time, afterAt time.Time, afterRef string,
	limit int) ([]LedgerEntry, error) {
	return db.unseen(ctx, `SELECT i.account_id, i.paid_by, i.total_amount, i.currency, i.paid_at FROM invoices i
		WHERE i.paid_by IS NOT NULL AND i.total_amount > 0 AND i.paid_at >= $2 AND i.paid_at < $3 AND (i.paid_at, i.paid_by) > ($4, $5)
		  AND NOT EXISTS (SELECT 1 FROM provider_reconcile_seen s WHERE s.run_id = $1 AND s.kind = 'payment' AND s.reference = i.paid_by)
		ORDER BY i.paid_at, i.paid_by LIMIT $6`, runID, since, until, afterAt, afterRef, limit)
}

// UnseenRefunds is UnseenPayments for the refunds Kudos recorded as made.
func (db *DB) UnseenRefunds(ctx context.Context, runID int64, since, until time.Time, afterAt time.Time, afterRef string,
	limit int) ([]LedgerEntry, error) {
	return db.unseen(ctx, `SELECT r.account_id, r.provider_id, r.amount, r.currency, r.created_at FROM refunds r
		WHERE r.status = 'refunded' AND r.provider_id <> '' AND r.created_at >= $2 AND r.created_at < $3 AND (r.created_at, r.provider_id) > ($4, $5)
		  AND NOT EXISTS (SELECT 1 FROM provider_reconcile_seen s WHERE s.run_id = $1 AND s.kind = 'refund' AND s.reference = r.provider_id)
		ORDER BY r.created_at, r.provider_id LIMIT $6`, runID, since, until, afterAt, afterRef, limit)
}

func (db *DB) unseen(ctx context.Context, query string, args ...any) ([]LedgerEntry, error) {
	rows, err := db.Pool.Query(ctx, query, args...)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (LedgerEntry, error) {
		var e LedgerEntry
		err := row.Scan(&e.AccountID, &e.Reference, &e.Amount, &e.Currency, &e.At)
		e.At = e.At.UTC()
		return e, err
	})
	return out, wrapErr(err)
}

// WithProviderLock runs fn holding the provider's reconciliation lock (a
// Postgres advisory lock on a connection of its own): a reconciliation
// started meanwhile elsewhere (`kudos ops reconcile-provider` while the
// Schedule's run works) gets EConflict instead of overlapping it.
func (db *DB) WithProviderLock(ctx context.Context, provider string, fn func() error) error {
	conn, err := db.Pool.Acquire(ctx)
	if err != nil {
		return wrapErr(err)
	}
	defer conn.Release()
	key := "kudos-provider-reconcile:" + provider
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, key).Scan(&locked); err != nil {
		return wrapErr(err)
	}
	if !locked {
		return kudos.Errorf(kudos.EConflict, "a provider reconciliation of %s is running", provider)
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext($1))`, key); err != nil {
			conn.Conn().Close(context.Background()) // the session's lock goes with it
		}
	}()
	return fn()
}
