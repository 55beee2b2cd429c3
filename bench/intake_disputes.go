package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// DisputeIntake are the disputes of the intake's ledger phase (issue 36):
// a chargeback of each account's whole payment, its
// charge.dispute.created and its charge.dispute.closed, won for half of
// them and lost for the other half, the two events arriving in any order.
type DisputeIntake struct {
	Disputes int `json:"disputes"`
	Won      int `json:"won"`
	Lost     int `json:"lost"`
	Events   int `json:"events"`
	// What Postgres shows once they are in: each dispute one row in its
	// state, one dispute_opened and one dispute_won or dispute_lost in the
	// timeline; each lost one a credit note of its amount, a DUE_PAYMENT
	// invoice of the period it leaves unpaid, one plan_expired mail, and
	// the plan ended; each won one the plan going on.
	Rows          int     `json:"rows"`
	RowsWon       int     `json:"rows_won"`
	RowsLost      int     `json:"rows_lost"`
	Opened        int     `json:"timeline_opened"`
	TimelineWon   int     `json:"timeline_won"`
	TimelineLost  int     `json:"timeline_lost"`
	CreditNotes   int     `json:"credit_notes"`
	DueInvoices   int     `json:"due_invoices"`
	ExpiredMails  int     `json:"plan_expired_mails"`
	ActivePlans   int     `json:"active_plans"`
	LagP50        float64 `json:"apply_lag_p50_seconds"`
	LagP99        float64 `json:"apply_lag_p99_seconds"`
	closingEvents []string
}

// disputeEvents opens a dispute of each account's paid invoice (its whole
// amount) at the fake Stripe and returns the events to send.
func disputeEvents(ctx context.Context, e *Env, ids []uuid.UUID) (*DisputeIntake, ledgerEvents, error) {
	var ev ledgerEvents
	res := &DisputeIntake{}
	rows, err := e.DB.Pool.Query(ctx, `SELECT account_id::text, total_amount FROM invoices WHERE account_id = ANY($1) AND status = 'PAID'
		AND kind <> 'CREDIT_NOTE'`, ids)
	if err != nil {
		return res, ev, err
	}
	amounts := map[string]int64{}
	for rows.Next() {
		var acc string
		var total int64
		if err := rows.Scan(&acc, &total); err != nil {
			rows.Close()
			return res, ev, err
		}
		amounts[acc] = total
	}
	rows.Close()
	disputes := e.Stripe.DisputeAll(amounts)
	res.Disputes = len(disputes)
	if len(disputes) != len(ids) {
		return res, ev, fmt.Errorf("dispute intake: %d disputes at the fake Stripe for %d paid accounts", len(disputes), len(ids))
	}
	now := time.Now().Add(time.Second)
	i := 0
	for _, d := range disputes {
		status := "won"
		if i%2 == 1 {
			status = "lost"
			res.Lost++
		} else {
			res.Won++
		}
		created := fmt.Sprintf("evt_bench_dispute_created_%s_%d", e.RunID, i)
		closed := fmt.Sprintf("evt_bench_dispute_closed_%s_%d", e.RunID, i)
		ev.add(created, d.Event(created, "charge.dispute.created", "needs_response", now))
		ev.add(closed, d.Event(closed, "charge.dispute.closed", status, now.Add(time.Second)))
		res.closingEvents = append(res.closingEvents, closed)
		i++
	}
	res.Events = len(ev.ids)
	return res, ev, nil
}

// verifyDisputes checks in Postgres that each dispute was applied exactly
// once, fills in the figures and returns the last application's time.
func verifyDisputes(ctx context.Context, e *Env, ids []uuid.UUID, res *DisputeIntake) (time.Time, []time.Duration, error) {
	var last time.Time
	err := e.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM disputes WHERE account_id = ANY($1)),
		(SELECT count(*) FROM disputes WHERE account_id = ANY($1) AND status = 'won'),
		(SELECT count(*) FROM disputes WHERE account_id = ANY($1) AND status = 'lost'),
		(SELECT count(*) FROM billing_events WHERE account_id = ANY($1) AND type = 'dispute_opened'),
		(SELECT count(*) FROM billing_events WHERE account_id = ANY($1) AND type = 'dispute_won'),
		(SELECT count(*) FROM billing_events WHERE account_id = ANY($1) AND type = 'dispute_lost'),
		(SELECT count(*) FROM invoices c JOIN disputes d ON c.dispute_id = d.id WHERE c.account_id = ANY($1) AND c.kind = 'CREDIT_NOTE'
			AND c.status = 'CREDITED' AND c.total_amount = -d.amount AND d.status = 'lost'),
		(SELECT count(*) FROM invoices WHERE account_id = ANY($1) AND status = 'DUE_PAYMENT'),
		(SELECT count(*) FROM disputes d JOIN outbox o ON o.key = 'mail:' || d.account_id || ':expired:dispute:' || d.id
			WHERE d.account_id = ANY($1) AND o.kind = 'mail'),
		(SELECT count(*) FROM subscriptions WHERE account_id = ANY($1) AND plan = 'STARTER' AND show_status = 'active'),
		(SELECT max(updated_at) FROM subscriptions WHERE account_id = ANY($1))`, ids).Scan(
		&res.Rows, &res.RowsWon, &res.RowsLost, &res.Opened, &res.TimelineWon, &res.TimelineLost, &res.CreditNotes, &res.DueInvoices,
		&res.ExpiredMails, &res.ActivePlans, &last)
	if err != nil {
		return last, nil, err
	}
	d, w, l := res.Disputes, res.Won, res.Lost
	if res.Rows != d || res.RowsWon != w || res.RowsLost != l || res.Opened != d || res.TimelineWon != w || res.TimelineLost != l ||
		res.CreditNotes != l || res.DueInvoices != l || res.ExpiredMails != l || res.ActivePlans != w {
		return last, nil, fmt.Errorf("dispute intake: disputes not applied exactly once: %+v (want %d disputes, %d won, %d lost)", res, d, w, l)
	}
	// A dispute's last write is its close's (a close seen first opens and
	// closes it; the opening that follows changes nothing).
	lags, err := lagsOf(ctx, e, `SELECT extract(epoch FROM s.updated_at - p.received_at)::float8 FROM payment_events p
		JOIN subscriptions s USING (account_id) WHERE p.event_id = ANY($1)`, res.closingEvents)
	if err != nil {
		return last, nil, err
	}
	res.LagP50, res.LagP99 = percentile(lags, 0.5).Seconds(), percentile(lags, 0.99).Seconds()
	return last, lags, nil
}
