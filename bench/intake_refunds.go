package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/google/uuid"
)

// RefundIntake are the figures of the intake's refund phase (issue 36):
// a refund of each paid account made in Stripe's dashboard, its
// charge.refunded event and, for one in four, its refund.updated too (the
// same refund under another event id), one in five sends repeated as is.
type RefundIntake struct {
	Refunds        int     `json:"refunds"`
	Events         int     `json:"events"`
	Sends          int     `json:"sends"`
	Accept         Summary `json:"accept"`
	AppliedSeconds float64 `json:"applied_seconds"`
	BookedPerSec   float64 `json:"booked_per_second"`
	LagP50         float64 `json:"book_lag_p50_seconds"`
	LagP99         float64 `json:"book_lag_p99_seconds"`
	// Booked, CreditNotes, TimelineRefunds and Mails are what Postgres
	// shows: each refund booked once with one credit note, one timeline
	// event and one refund_issued mail.
	Booked          int `json:"booked"`
	CreditNotes     int `json:"credit_notes"`
	TimelineRefunds int `json:"timeline_refunds"`
	Mails           int `json:"refund_mails"`
}

// refundAmount is what each bench refund gives back (1.00 of a Starter
// payment: a partial refund, its credit note's VAT in proportion).
const refundAmount = 100

// intakeRefunds runs the refund phase on the accounts the checkout phase
// paid and returns its figures and rows (under name).
func intakeRefunds(ctx context.Context, e *Env, o Options, ids []uuid.UUID, name string) (*RefundIntake, []Row, error) {
	m := len(ids)
	refunds := e.Stripe.RefundAll(refundAmount)
	res := &RefundIntake{Refunds: len(refunds)}
	if len(refunds) != m {
		return res, nil, fmt.Errorf("refund intake: %d refunds at the fake Stripe for %d paid accounts", len(refunds), m)
	}
	var payloads [][]byte
	var eventIDs []string
	i := 0
	for _, r := range refunds {
		id := fmt.Sprintf("evt_bench_refund_%s_%d", e.RunID, i)
		p, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2025-01-27.acacia", "created": time.Now().Unix() + 1,
			"type": "charge.refunded", "livemode": false, "data": map[string]any{"object": map[string]any{"id": r.ChargeID, "object": "charge",
				"payment_intent": "pi_" + r.ChargeID[len("ch_"):], "amount_refunded": refundAmount, "refunded": false}}})
		payloads, eventIDs = append(payloads, p), append(eventIDs, id)
		if i%4 == 0 { // the same refund's refund.updated
			id := fmt.Sprintf("evt_bench_refund_updated_%s_%d", e.RunID, i)
			p, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2025-01-27.acacia", "created": time.Now().Unix() + 1,
				"type": "refund.updated", "livemode": false, "data": map[string]any{"object": map[string]any{"id": r.RefundID, "object": "refund"}}})
			payloads, eventIDs = append(payloads, p), append(eventIDs, id)
		}
		i++
	}
	res.Events = len(payloads)
	order := make([]int, 0, len(payloads)*6/5)
	for i := range payloads {
		order = append(order, i)
	}
	for _, i := range rand.Perm(len(payloads))[:len(payloads)/5] {
		order = append(order, i)
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	res.Sends = len(order)
	settle(ctx, e.TemporalPID)

	t0 := time.Now()
	accept := RunN(ctx, o.EventConcurrency, len(order), func(ctx context.Context, i int) error {
		return sendWebhook(ctx, e, payloads[order[i]])
	})
	res.Accept = accept.Summary()
	if accept.Errors > 0 {
		return res, nil, fmt.Errorf("refund intake: %d of %d webhooks refused: %s", accept.Errors, len(order), accept.FirstError)
	}
	wait := max(2*time.Minute, time.Duration(m)*200*time.Millisecond)
	for deadline := time.Now().Add(wait); ; {
		var applied int
		if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM payment_events WHERE event_id = ANY($1) AND applied_at IS NOT NULL`,
			eventIDs).Scan(&applied); err != nil {
			return res, nil, err
		}
		if applied == len(eventIDs) {
			break
		}
		if time.Now().After(deadline) {
			return res, nil, fmt.Errorf("refund intake: only %d of %d refund events applied after %s", applied, len(eventIDs), wait)
		}
		time.Sleep(250 * time.Millisecond)
	}
	time.Sleep(time.Second) // a late second booking would show now
	var last time.Time
	err := e.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM refunds WHERE account_id = ANY($1) AND status = 'refunded' AND amount = $2),
		(SELECT count(*) FROM invoices WHERE account_id = ANY($1) AND kind = 'CREDIT_NOTE' AND total_amount = -$2),
		(SELECT count(*) FROM billing_events WHERE account_id = ANY($1) AND type = 'refund'),
		(SELECT count(*) FROM outbox WHERE kind = 'mail' AND key LIKE 'mail:refund_issued:%' AND payload -> 'billing' ->> 'account_id' = ANY($3)),
		(SELECT max(created_at) FROM refunds WHERE account_id = ANY($1))`, ids, refundAmount, uuidStrings(ids)).Scan(
		&res.Booked, &res.CreditNotes, &res.TimelineRefunds, &res.Mails, &last)
	if err != nil {
		return res, nil, err
	}
	if res.Booked != m || res.CreditNotes != m || res.TimelineRefunds != m || res.Mails != m {
		return res, nil, fmt.Errorf("refund intake: refunds not booked exactly once: %+v (want %d of each)", res, m)
	}
	res.AppliedSeconds = last.Sub(t0).Seconds()
	res.BookedPerSec = float64(m) / res.AppliedSeconds
	lags, err := bookLags(ctx, e, ids)
	if err != nil {
		return res, nil, err
	}
	res.LagP50, res.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	name = fmt.Sprintf("%s, then %d refunds (%d events + %d repeats)", name, m, res.Events, res.Sends-res.Events)
	return res, []Row{
		figure(name, "refunds booked/s", "/s", res.BookedPerSec),
		figure(name, "refund webhooks accepted/s", "/s", accept.Rate()),
		figure(name, "book lag p50 (first event stored → refund booked)", "s", res.LagP50),
		figure(name, "book lag p99", "s", res.LagP99),
		figure(name, "refunds booked exactly once, with one credit note each", "", float64(res.CreditNotes)).target(fmt.Sprintf("= %d", m), true),
	}, nil
}

// bookLags returns, sorted, how long after its first event was stored each
// account's refund was booked.
func bookLags(ctx context.Context, e *Env, ids []uuid.UUID) ([]time.Duration, error) {
	rows, err := e.DB.Pool.Query(ctx, `SELECT extract(epoch FROM r.created_at - (SELECT min(p.received_at) FROM payment_events p
		WHERE p.account_id = r.account_id AND p.movement = 'refund'))::float8 FROM refunds r WHERE r.account_id = ANY($1)`, ids)
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
