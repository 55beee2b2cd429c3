package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
)

// RefundIntake are the refunds of the intake's ledger phase (issue 36): a
// refund of each account made in Stripe's dashboard, its charge.refunded
// event and, for one in four, its refund.updated too (the same refund
// under another event id).
type RefundIntake struct {
	Refunds int `json:"refunds"`
	Events  int `json:"events"`
	// Booked, CreditNotes, TimelineRefunds and Mails are what Postgres
	// shows: each refund booked once with one credit note, one timeline
	// event and one refund_issued mail.
	Booked          int     `json:"booked"`
	CreditNotes     int     `json:"credit_notes"`
	TimelineRefunds int     `json:"timeline_refunds"`
	Mails           int     `json:"refund_mails"`
	LagP50          float64 `json:"book_lag_p50_seconds"`
	LagP99          float64 `json:"book_lag_p99_seconds"`
}

// refundAmount is what each bench refund gives back (1.00 of a Starter
// payment: a partial refund, its credit note's VAT in proportion).
const refundAmount = 100

// refundEvents refunds refundAmount of each account's payment at the fake
// Stripe and returns the refund events to send.
func refundEvents(e *Env, ids []uuid.UUID) (*RefundIntake, ledgerEvents, error) {
	var ev ledgerEvents
	only := map[string]bool{}
	for _, id := range ids {
		only[id.String()] = true
	}
	refunds := e.Stripe.RefundAll(refundAmount, only)
	res := &RefundIntake{Refunds: len(refunds)}
	if len(refunds) != len(ids) {
		return res, ev, fmt.Errorf("refund intake: %d refunds at the fake Stripe for %d paid accounts", len(refunds), len(ids))
	}
	created := time.Now().Unix() + 1
	i := 0
	for _, r := range refunds {
		id := fmt.Sprintf("evt_bench_refund_%s_%d", e.RunID, i)
		p, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2025-01-27.acacia", "created": created,
			"type": "charge.refunded", "livemode": false, "data": map[string]any{"object": map[string]any{"id": r.ChargeID, "object": "charge",
				"payment_intent": "pi_" + r.ChargeID[len("ch_"):], "amount_refunded": refundAmount, "refunded": false}}})
		ev.add(id, p)
		if i%4 == 0 { // the same refund's refund.updated
			id := fmt.Sprintf("evt_bench_refund_updated_%s_%d", e.RunID, i)
			p, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2025-01-27.acacia", "created": created,
				"type": "refund.updated", "livemode": false, "data": map[string]any{"object": map[string]any{"id": r.RefundID, "object": "refund"}}})
			ev.add(id, p)
		}
		i++
	}
	res.Events = len(ev.ids)
	return res, ev, nil
}

// verifyRefunds checks in Postgres that each account's refund was booked
// exactly once, fills in the figures and returns the last booking's time.
func verifyRefunds(ctx context.Context, e *Env, ids []uuid.UUID, res *RefundIntake) (time.Time, []time.Duration, error) {
	m := len(ids)
	var last time.Time
	err := e.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM refunds WHERE account_id = ANY($1) AND status = 'refunded' AND amount = $2),
		(SELECT count(*) FROM invoices WHERE account_id = ANY($1) AND kind = 'CREDIT_NOTE' AND total_amount = -$2),
		(SELECT count(*) FROM billing_events WHERE account_id = ANY($1) AND type = 'refund'),
		(SELECT count(*) FROM outbox WHERE kind = 'mail' AND key LIKE 'mail:refund_issued:%' AND payload -> 'billing' ->> 'account_id' = ANY($3)),
		(SELECT max(created_at) FROM refunds WHERE account_id = ANY($1))`, ids, refundAmount, uuidStrings(ids)).Scan(
		&res.Booked, &res.CreditNotes, &res.TimelineRefunds, &res.Mails, &last)
	if err != nil {
		return last, nil, err
	}
	if res.Booked != m || res.CreditNotes != m || res.TimelineRefunds != m || res.Mails != m {
		return last, nil, fmt.Errorf("refund intake: refunds not booked exactly once: %+v (want %d of each)", res, m)
	}
	lags, err := bookLags(ctx, e, ids)
	if err != nil {
		return last, nil, err
	}
	res.LagP50, res.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	return last, lags, nil
}

// bookLags returns, sorted, how long after its first event was stored each
// account's refund was booked.
func bookLags(ctx context.Context, e *Env, ids []uuid.UUID) ([]time.Duration, error) {
	return lagsOf(ctx, e, `SELECT extract(epoch FROM r.created_at - (SELECT min(p.received_at) FROM payment_events p
		WHERE p.account_id = r.account_id AND p.movement = 'refund'))::float8 FROM refunds r WHERE r.account_id = ANY($1)`, ids)
}

// lagsOf returns, sorted, the lags in seconds a query returns.
func lagsOf(ctx context.Context, e *Env, sql string, args ...any) ([]time.Duration, error) {
	rows, err := e.DB.Pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var lags []time.Duration
	for rows.Next() {
		var sec float64
		if err := rows.Scan(&sec); err != nil {
			return nil, err
		}
		lags = append(lags, time.Duration(sec*float64(time.Second)))
	}
	slices.Sort(lags)
	return lags, rows.Err()
}

// uuidStrings is ids as strings.
func uuidStrings(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
